"""The item table (assay._report.triage): who did better per item, the filters and orders the
report's script and the dashboard share, the embedded JSON, the cut, clusters, and the
fields issue 32 adds to paired tests, read through the evidence adapter."""

from __future__ import annotations

import dataclasses
import json
from types import SimpleNamespace

import pytest

from assay._compare.comparison import compare
from assay._report.evidence import evidence_of, run_clusters
from assay._report.html import pair_view, render_markdown, render_report
from assay._report.triage import (
    Query,
    cluster_moves,
    json_for_script,
    movement,
    pair_table,
    run_table,
    select,
    to_json,
)
from assay.errors import UsageError
from assay.stats import mcnemar_exact
from tests.store.services import XSS, DemoRuns


def test_the_discordant_counts_of_the_classification_demo(demo: DemoRuns) -> None:
    table = pair_table(demo.candidate, demo.baseline)
    m = movement(table)
    assert m is not None and (m.key, m.candidate, m.baseline, m.tie) == ("exact_match", 71, 46, 283)
    assert m.binary and m.mcnemar_p == pytest.approx(mcnemar_exact(71, 46))
    assert len(select(table, Query(outcome="moved"))) == 117
    # the most moved first: a status change before a flip between two answers
    first = select(table, Query())[0]
    assert first.status != ("ok", "ok")


def test_filters_and_orders(demo: DemoRuns) -> None:
    table = pair_table(demo.candidate, demo.baseline)
    rows = select(table, Query(status="missing"))
    assert rows and all("missing" in r.status for r in rows)
    assert all(r.status == ("ok", "ok") for r in select(table, Query(status="ok")))
    better = select(table, Query(outcome="candidate"))
    assert all(r.scores[0][0] == 1.0 and r.scores[1][0] == 0.0 for r in better)
    assert len(select(table, Query(lo=0.5))) == 71  # Δ ≥ 0.5 on a 0/1 score
    assert len(select(table, Query(hi=-0.5))) == 46
    hit = select(table, Query(q=better[0].id.upper()))  # case-insensitive
    assert better[0].id in [r.id for r in hit]
    by_id = select(table, Query(sort="id"))
    assert [r.order for r in by_id] == sorted(r.order for r in by_id)
    assert select(table, Query(sort="id", desc=True)) == by_id[::-1]
    by_delta = select(table, Query(sort="value", desc=True))
    assert by_delta[0].scores[0][0] - by_delta[0].scores[1][0] == 1.0
    own = run_table(demo.baseline)
    worst = select(own, Query())
    assert worst[0].status[0] != "ok"  # failed and missing first, as the drill-down
    assert {r.status[0] for r in select(own, Query(status="failed"))} <= {"failed"}


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"status": ["gone"]}, "status must be one of ok, missing, failed"),
        ({"outcome": ["A"]}, "outcome must be one of moved, candidate, baseline, tie"),
        ({"sort": ["x"]}, "sort must be one of"),
        ({"lo": ["nan"]}, "lo must be a finite number"),
        ({"hi": ["ten"]}, "hi must be a number"),
    ],
)
def test_a_bad_query_is_a_usage_error_naming_the_parameter(
    params: dict[str, list[str]], message: str
) -> None:
    with pytest.raises(UsageError, match=message):
        Query.from_params(params)


def test_unknown_score_or_part_names_the_choices(demo: DemoRuns) -> None:
    table = pair_table(demo.candidate, demo.baseline)
    with pytest.raises(UsageError, match="choose one of exact_match"):
        select(table, Query(metric="bleu"))
    with pytest.raises(UsageError, match="no field 'x'"):
        select(table, Query(part="x"))


def test_the_embedded_json_cannot_close_its_script(demo: DemoRuns) -> None:
    text = json_for_script({"a": "</script><script>alert(1)</script><!--", "b": "x\u2028y"})
    assert "<" not in text and ">" not in text and "\u2028" not in text
    assert json.loads(text) == {"a": "</script><script>alert(1)</script><!--", "b": "x\u2028y"}
    data = json_for_script(to_json(run_table(demo.hostile)))
    assert "</script" not in data.lower()
    assert XSS in json.dumps(json.loads(data), ensure_ascii=False)


def test_a_cut_keeps_the_most_moved(demo: DemoRuns) -> None:
    table = pair_table(demo.candidate, demo.baseline)
    cut = table.cut(100)
    assert cut.truncated and cut.n_total == 400 and len(cut.rows) == 100
    assert all(r.rank < 100 for r in cut.rows)
    assert len(select(cut, Query(outcome="moved"))) == 100  # 117 moved: all kept are moved
    payload = to_json(table, limit=100)
    assert payload["total"] == 400 and len(payload["rows"]) == 100


def test_clusters_when_the_run_declares_them(demo: DemoRuns) -> None:
    """Issue 32's cluster codes (``stats.cluster_labels``/``cluster_codes``): each item's
    cluster, a per-cluster breakdown of what moved, and a cluster filter."""
    ids = list(demo.candidate.stats["ids"])
    labels = [f"contract-{k}" for k in range(10)]
    stats = {**demo.candidate.stats, "cluster_labels": labels,
             "cluster_codes": [k % 10 for k in range(len(ids))]}  # fmt: skip
    clustered = demo.candidate.model_copy(update={"stats": stats})
    found = run_clusters(SimpleNamespace(units={"cluster_by": "contract"}, stats=stats))
    assert found is not None and found.field == "contract" and found.of_item[ids[3]] == labels[3]
    table = pair_table(clustered, demo.baseline)
    moves = cluster_moves(table)
    assert sum(m.n for m in moves) == 400 and sum(m.candidate for m in moves) == 71
    one = moves[0]
    assert len(select(table, Query(cluster=one.label, outcome="candidate"))) == one.candidate
    page = render_report([clustered, demo.baseline])
    assert f'data-cluster="{one.label}"' in page and "<h4>Per cluster" in page
    assert run_clusters(demo.candidate) is None  # today's artifacts: no breakdown, no error
    assert "<h4>Per " not in render_report([demo.candidate, demo.baseline])


def test_adjusted_p_values_are_shown_beside_the_raw_ones_with_their_family(
    demo: DemoRuns,
) -> None:
    comparison = compare(demo.candidate, demo.baseline, significance=True)  # Holm, headline
    key, pair = next(iter(comparison.pairs.items()))
    ev = evidence_of(pair.significance[0])
    assert ev.adjusted_label == "Holm over the headline family" and ev.test == "paired bootstrap"
    view = pair_view(key, pair, comparison)
    assert view.adjusted == "Holm over the headline family"
    row = next(r for r in view.rows if r.name == "exact_match")
    assert row.p == "0.024" and row.p_adjusted == "0.072" and row.marker == ""
    assert "stars and verdicts follow the adjusted p-value" in view.multiplicity
    assert "family-wise error rate" in view.multiplicity and "over 3 tests" in view.multiplicity
    assert view.tests == "paired bootstrap"
    assert view.power and view.power[0].startswith("smallest detectable Δ (power 0.8)")
    raw = compare(demo.candidate, demo.baseline, significance=True, correction="none")
    plain = pair_view(key, next(iter(raw.pairs.values())), raw)
    assert plain.adjusted is None and "not adjusted for multiple testing" in plain.multiplicity
    text = render_markdown([demo.candidate, demo.baseline], comparison=comparison)
    assert "p adjusted (Holm over the headline family)" in text
    assert "smallest detectable Δ (power 0.8)" in text
    html = render_report([demo.candidate, demo.baseline], comparison=comparison)
    assert "p adjusted <span" in html and ">0.072<" in html
    assert "smallest detectable Δ (power 0.8)" in html


def test_undefined_is_not_drawn_as_a_star(demo: DemoRuns) -> None:
    comparison = compare(demo.candidate, demo.baseline, significance=True)
    key, pair = next(iter(comparison.pairs.items()))
    undefined = dataclasses.replace(pair.significance[0], delta=None, p_value=1.0)
    pair = dataclasses.replace(pair, significance=[undefined, *pair.significance[1:]])
    comparison = dataclasses.replace(comparison, pairs={key: pair})
    page = render_report([demo.candidate, demo.baseline], comparison=comparison)
    cell = f'class="undefined" data-metric="{undefined.metric_name}">undefined</td>'
    assert cell in page and f'class="sig" data-metric="{undefined.metric_name}"' not in page
