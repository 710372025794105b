"""HTML and markdown reports: every section present, everything user-supplied escaped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assay._cli import main
from assay._compare.comparison import compare
from assay._report.html import md, render_markdown, render_report
from tests.store.services import XSS, XSS_IMG, DemoRuns, browser_context, screenshot_dir


def test_single_run_sections(demo: DemoRuns) -> None:
    page = render_report([demo.baseline], max_items=50)
    for needle in (
        "Scorecard",
        "95% CIs (proportions)",
        "<svg",
        "per_class",
        "confusion",
        "Diagnostics",
        "Cohort",
        "missing (expected, no prediction) (6)",
        "Items: gold beside prediction",
        "items 1–50 of 400, worst first",
    ):
        assert needle in page, needle
    # one script, allowed by its hash, and the item table's data (JSON, never run)
    assert page.lower().count("<script") == 2
    assert '<script type="application/json" class="triage-data">' in page
    assert re.search(r"default-src 'none'; .*; script-src &#39;sha256-[A-Za-z0-9+/]+=*&#39;", page)
    assert not re.search(r"<script[^>]* src=", page)
    assert not re.search(r"(src|href)=\"(https?:)?//", page)  # nothing to fetch: renders offline


def test_comparison_with_markers(demo: DemoRuns) -> None:
    page = render_report([demo.candidate, demo.baseline])
    assert "candidate candidate" in page and "against baseline baseline" in page
    assert "95% CI of Δ" in page and "Did it help?" in page
    row = re.search(r"<td>exact_match</td>.*?</tr>", page, re.S)
    # p = 0.024, Holm over the 3 headline and core metrics: 0.072, no star
    assert row and 'data-metric="exact_match"></td>' in row.group(0)
    assert "no significant difference" in row.group(0) and ">0.072<" in row.group(0)
    raw = compare(demo.candidate, demo.baseline, significance=True, correction="none")
    page = render_report([demo.candidate, demo.baseline], comparison=raw)
    row = re.search(r"<td>exact_match</td>.*?</tr>", page, re.S)
    assert row and 'data-metric="exact_match">*</td>' in row.group(0)
    assert "candidate better" in row.group(0)
    assert "Δ = candidate − baseline with its CI" in page
    assert 'candidate better on <span class="n">71</span> items' in page
    assert 'baseline better on <span class="n">46</span> items' in page
    assert "McNemar's exact test on the 117 discordant items: p = 0.026" in page
    other = render_report([demo.candidate, demo.subset])
    assert "different surfaces: paired tests use the 150 shared items" in other


def test_user_text_is_escaped(demo: DemoRuns) -> None:
    page = render_report([demo.hostile])
    assert "<script>window" not in page.lower() and "<img" not in page.lower()
    assert page.lower().count("<script") == 2  # the table's data and the hashed script
    assert "&lt;script&gt;window.__xss = 1" in page
    assert "\\u003cscript\\u003ewindow.__xss = 1" in page  # in the table's JSON
    assert "</script>" not in page.split('class="triage-data">', 1)[1].split("</script>", 1)[0]
    assert "&lt;img src=x onerror=" in page
    assert "&lt;b&gt;orphan&lt;/b&gt;" in page  # the unmatched record, with its reason
    assert "hostile.jsonl:22" in page  # the unreadable line is listed with where it is
    text = render_markdown([demo.hostile])
    assert "<script" not in text and "&lt;script&gt;" in text
    assert md("a|b <i>") == "a\\|b &lt;i&gt;"


def test_markdown_for_pull_requests(demo: DemoRuns) -> None:
    text = render_markdown([demo.candidate, demo.baseline])
    row = (
        r"\| \*\*exact\\_match\*\* \| 0.845 \| 0.782 \| \+0.062 \| \[\+0.0\d+, \+0.1\d+\] \| 0.0\d+"
    )
    assert re.search(row + r" \| 0.072 \|  \| no significant difference \|", text)
    assert "`*` adjusted p < 0.05, `**` adjusted p < 0.01" in text
    raw = compare(demo.candidate, demo.baseline, significance=True, correction="none")
    text = render_markdown([demo.candidate, demo.baseline], comparison=raw)
    assert re.search(row + r" \| \\\* \| candidate better \|", text)
    assert "`*` p < 0.05, `**` p < 0.01" in text
    assert "candidate better on 71, baseline better on 46, tie on 283" in text
    # the comparison first, the scorecards after it
    assert text.index("against baseline") < text.index("#### candidate · classification")


def test_report_command(tmp_path: Path, demo: DemoRuns, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    demo.candidate.save(a)
    demo.baseline.save(b)
    html, mdf = tmp_path / "out" / "r.html", tmp_path / "r.md"
    code = main(["report", str(a), str(b), "--html", str(html), "--markdown", str(mdf)])
    assert code == 0
    assert "against baseline" in html.read_text() and "| **exact\\_match** |" in mdf.read_text()
    capsys.readouterr()
    assert main(["report", str(a)]) == 2
    assert "--html" in capsys.readouterr().err


def test_report_in_a_browser(tmp_path: Path, demo: DemoRuns) -> None:
    """Chromium renders the offline report and runs its one script (the item table's), and
    no injected one: hostile text stays text when the script draws, searches and opens the
    rows. We keep a screenshot of the comparison's opening."""
    html = tmp_path / "report.html"
    html.write_text(render_report([demo.candidate, demo.baseline], max_items=100))
    hostile = tmp_path / "hostile.html"
    hostile.write_text(render_report([demo.hostile]))
    docs = screenshot_dir(tmp_path)
    with browser_context() as ctx:
        page = ctx.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(hostile.as_uri())
        assert page.locator("#items-run-0 form.triage-filters").is_visible()  # the script ran
        page.fill("#items-run-0 input[name=q]", "script")
        rows = page.locator("#items-run-0 tbody tr[data-id]")
        assert rows.count() >= 1
        rows.first.locator("summary").click()
        assert page.evaluate("window.__xss") is None and dialogs == []
        text = page.text_content("body") or ""
        assert XSS in text and XSS_IMG in text
        assert (
            "<script>window.__xss" in page.locator("#items-run-0 tr.detail-row").first.inner_text()
        )
        page.goto(html.as_uri())
        assert all(u.startswith("file://") for u in requests), requests
        assert page.locator("svg").count() >= 3
        # the marker is the comparison's: stars follow the family's adjusted p (Holm)
        tested = compare(demo.candidate, demo.baseline, significance=True).significance
        stars = next(r.stars for r in tested if r.metric_name == "exact_match")
        assert page.locator('td[data-metric="exact_match"]').first.inner_text() == stars
        page.set_viewport_size({"width": 1100, "height": 760})
        page.locator("section.pair-comparison h2").first.scroll_into_view_if_needed()
        page.screenshot(path=str(docs / "report.png"))
        assert errors == [], errors  # the policy refused nothing the page needs


def test_summaries_as_tables_never_empty() -> None:
    from assay._report.html import summary_views

    tables, heatmaps, scalars, other = summary_views(
        {
            "plugin_metrics": {"report": {}},
            "abstained_fields": [],
            "sacrebleu": {"version": "2.6.0", "signatures": {"corpus_chrf": "nrefs:1|nc:6"}},
            "n_missing": 3,
        }
    )
    assert [t.title for t in tables] == ["sacrebleu"] and not other and not heatmaps
    assert tables[0].rows == (("version", "2.6.0"), ("signatures.corpus_chrf", "nrefs:1|nc:6"))
    assert scalars == [("n_missing", "3")]


def test_p_values_and_undefined_metrics(demo: DemoRuns) -> None:
    from dataclasses import replace

    from assay._compare.comparison import compare
    from assay._report.html import pair_view

    comparison = compare(demo.candidate, demo.baseline, significance=True)
    key, pair = next(iter(comparison.pairs.items()))
    tiny = replace(pair.significance[0], p_value=0.0002)
    undefined = replace(pair.significance[1], delta=None, p_value=1.0)
    pair = replace(pair, significance=[tiny, undefined, *pair.significance[2:]])
    rows = {r.name: r for r in pair_view(key, pair, comparison).rows}
    assert rows[tiny.metric_name].p == "< 0.001"
    assert rows[undefined.metric_name].p == "undefined" and rows[undefined.metric_name].undefined


def test_structured_gold_beside_prediction_field_by_field() -> None:
    from assay._engine.run import ItemRecord
    from assay._report.html import FieldRow, item_views

    item = ItemRecord(
        id="paper-1",
        status="ok",
        gold_sha256="0",
        scores={"title": 0.0},
        details={
            "gold": {"title": "Cell biology", "authors": ["A. Smith", "B. Jones"]},
            "predicted": {"title": "Cel biology <script>", "authors": ["A. Smith"]},
            "fields": {"title": {"type": "text", "score": 0.0}},
            "matches": [{"reference": "c1", "extracted": "x3", "quality": "partial"}],
            "abstained_fields": [],
        },
    )
    (view,) = item_views([item])
    assert view.fields == (
        FieldRow("title", "Cell biology", "Cel biology <script>", differs=True),
        FieldRow("authors", "A. Smith\nB. Jones", "A. Smith", differs=True),
    )
    assert [t.title for t in view.tables] == ["fields", "matches"]
    assert view.tables[1].rows == (("c1", "x3", "partial"),)
    assert all(k != "abstained_fields" for k, _ in view.details)  # no empty detail


def test_extraction_fields_gold_beside_prediction_with_score() -> None:
    """Extraction keeps compact per-field values (``display_value``): the drill-down shows
    them beside each other with the field's score and reason, the rest of the field's details
    in a table; a run compared with another lists the fields the two scored differently."""
    from assay._engine.run import ItemRecord
    from assay._report.html import FieldRow, item_views
    from assay._report.sides import disagree_sides as _disagree_sides

    fields = {
        "parties": {
            "type": "entity_list:name",
            "score": 0.5,
            "gold": "Harbor Ltd\nOrchid LLC",
            "pred": "Harbor Ltd <b>",
            "reason": "GT coverage 1/2",
            "precision": 1.0,
            "instantiated": [],
            "review": {"expected": ["Harbor Ltd", "Orchid LLC"], "predicted": ["Harbor Ltd"]},
        },
        "effective_date": {"type": "date", "score": 1.0, "gold": "7/8/2010", "pred": "July 8"},
        "expiration_date": {"type": "date", "score": 0.0, "gold": "7/8/2012", "reason": "no"},
    }
    item = ItemRecord(
        id="c-1", status="ok", gold_sha256="0", scores={"overall": 0.5}, details={"fields": fields}
    )
    (view,) = item_views([item])
    assert view.field_columns == ("score", "reason")
    assert view.fields == (
        FieldRow(
            "parties",
            "Harbor Ltd\nOrchid LLC",
            "Harbor Ltd <b>",
            ("0.500", "GT coverage 1/2"),
            True,
            "0.500",
        ),
        FieldRow("effective_date", "7/8/2010", "July 8", ("1.000", "—"), False, "1.000"),
        FieldRow("expiration_date", "7/8/2012", "—", ("0.000", "no"), True, "0.000"),
    )
    (rest,) = view.tables  # type and list details; the sides and the review are not repeated
    assert rest.columns == ("", "type", "precision")
    assert all(k != "fields" for k, _ in view.details)
    other = {**fields, "parties": {**fields["parties"], "score": 1.0, "pred": "Harbor Ltd; Orchid"}}
    gold, a, b = _disagree_sides({"fields": fields}, {"fields": other})
    assert gold == "parties: Harbor Ltd; Orchid LLC"
    assert (a, b) == ("parties: Harbor Ltd <b>", "parties: Harbor Ltd; Orchid")


def test_claims_reference_beside_extracted_and_labels_by_level() -> None:
    """Claims' matches carry both sentences: reference beside extracted, the verdict beside
    them; two runs disagree on a claim when its verdict differs, not its similarity. A label
    with a second level (docclass, MAUD) shows each level beside its gold."""
    from assay._engine.run import ItemRecord
    from assay._report.html import FieldRow, item_views
    from assay._report.sides import disagree_sides as _disagree_sides

    def match(q: str, sim: float, extracted: str | None) -> dict[str, object]:
        return {"ref_slug": "r1", "cli_slug": "c1" if extracted else None,
                "match_quality": q, "role_match": q != "none", "similarity": sim,
                "reference": "Arc is required.", "extracted": extracted}  # fmt: skip

    a = {"matches": [match("exact", 0.7, "Arc is needed."), {**match("exact", 0.5, "X"),
         "ref_slug": "r2"}], "match_quality": {"exact": 2, "none": 0}}  # fmt: skip
    item = ItemRecord(id="p", status="ok", gold_sha256="0", scores={}, details=a)
    (view,) = item_views([item])
    assert view.field_headers == ("reference claim", "reference", "extracted")
    first = view.fields[0]
    assert (first.field, first.gold, first.pred) == ("r1", "Arc is required.", "Arc is needed.")
    assert view.field_columns == ("cli_slug", "match_quality", "role_match", "similarity")
    assert not view.fields[0].differs
    assert dict(view.details)["match_quality"] == "exact: 2\nnone: 0"  # not a JSON dump
    b = {"matches": [match("none", 0.1, None), {**match("exact", 0.4, "X"), "ref_slug": "r2"}]}
    gold, pred_a, pred_b = _disagree_sides(a, b)  # r2 differs only in its similarity
    assert (gold, pred_a, pred_b) == ("r1: Arc is required.", "r1: Arc is needed.", "r1: —")

    details = {"expected": "merger", "predicted": "contract", "expected_subclass": "cash",
               "predicted_subclass": "cash", "doc_type_ok": False, "reasoning": None}  # fmt: skip
    (view,) = item_views([ItemRecord(id="d", status="ok", gold_sha256="0", details=details)])
    assert view.fields == (
        FieldRow("label", "merger", "contract", differs=True),
        FieldRow("subclass", "cash", "cash"),
    )
    assert view.details == (("doc_type_ok", "False"),)  # null details left out


def test_histograms_capped_ranking_score_first() -> None:
    """At most MAX_HISTOGRAMS per-item score histograms (extraction scores 13 per item), the
    ranking's score first; the rest are named, not drawn."""
    from assay._engine.run import ItemRecord
    from assay._report.html import MAX_HISTOGRAMS, score_distributions

    names = [f"s{k}" for k in range(MAX_HISTOGRAMS + 2)]
    items = [
        ItemRecord(id=str(i), status="ok", gold_sha256="0", scores={n: i / 10 for n in names})
        for i in range(10)
    ]
    hists, undrawn = score_distributions(items, "s7", limit=MAX_HISTOGRAMS)
    assert len(hists) == MAX_HISTOGRAMS and hists[0].title.startswith("s7 per item")
    assert undrawn == ("s5", "s6")


def test_mixed_summaries_split_into_tables() -> None:
    """A summary of counts plus a list of records (the legal suites' failure_insights) is a
    table of the counts and one of the records; a list of ids is one line, not JSON."""
    from assay._report.html import summary_views

    tables, _, scalars, other = summary_views(
        {
            "failure_insights": {
                "n_failed": 2,
                "mode_rate": {"doc_type_miss": 0.5},
                "failures": [{"id": "d1", "expected": ["merger", "cash"], "confidence": 0.8}],
            },
            "needs_judge_review_ids": ["c-1", "c-2"],
        }
    )
    assert not other
    assert [t.title for t in tables] == ["failure_insights", "failure_insights.failures"]
    assert tables[0].rows == (("n_failed", "2"), ("mode_rate.doc_type_miss", "0.500"))
    assert tables[1].rows == (("d1", "merger / cash", "0.800"),)
    assert scalars == [("needs_judge_review_ids", "c-1, c-2")]
