"""Real data (../shared/data/biblio): JATS → gold, GROBID TEI and CERMINE → predictions, then
evaluate. Assertions check behaviour — counts, nulls, cohort accounting — not figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from assay._cli.biblio import biblio_group
from assay._engine.run import Run
from assay.suites.biblio.metrics import PRIMARY
from tests.conftest import SHARED

DATA = SHARED / "data" / "biblio"
pytestmark = pytest.mark.skipif(
    not DATA.is_dir(), reason="../shared/data/biblio is not laid beside the clone"
)


def _cli(*args: str) -> None:
    result = CliRunner().invoke(biblio_group, list(args))
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("biblio-real")
    pmc = DATA / "pmc10_sciencebeam"
    dirs = {k: root / k for k in ("gold10", "gold26", "grobid", "cermine", "acl", "sections")}
    _cli("jats-gold", "--jats-dir", str(pmc), "--glob", "*.gold.nxml", "--out", str(dirs["gold10"]))
    _cli("jats-gold", "--jats-dir", str(DATA / "elife_tools_samples"), "--out", str(dirs["gold26"]))
    _cli("jats-gold", "--jats-dir", str(DATA / "pmc_doc2json"), "--out", str(dirs["gold26"]) + "b")
    _cli("grobid-tei", "--tei-dir", str(pmc), "--out", str(dirs["grobid"]))
    _cli(
        "jats-gold",
        "--jats-dir",
        str(pmc),
        "--glob",
        "*.cermine.xml",
        "--producer",
        "CERMINE",
        "--out",
        str(dirs["cermine"]),
    )
    _cli("grobid-tei", "--tei-dir", str(DATA / "acl_doc2json_tei"), "--out", str(dirs["acl"]))
    ids = sorted(p.stem for p in dirs["gold10"].glob("*.json") if p.name != "run_info.json")
    (root / "expected.json").write_text(json.dumps(ids))
    dirs["expected"] = root / "expected.json"
    dirs["gold26b"] = Path(str(dirs["gold26"]) + "b")
    dirs["sections"].mkdir()
    for p in dirs["gold10"].glob("*.json"):
        if p.name != "run_info.json":
            data = json.loads(p.read_text())
            (dirs["sections"] / f"{p.stem}.sectiongold.json").write_text(
                json.dumps({"sections": data["sections"]})
            )
    dirs["root"] = root
    return dirs


def _evaluate(
    d: dict[str, Path], results: str, *extra: str, gold: tuple[str, ...] = ("gold10",)
) -> tuple[Run, dict[str, Any]]:
    out = d["root"] / f"{results}-{len(extra)}.json"
    run_out = d["root"] / f"{results}-{len(extra)}.run.json"
    _cli(
        "evaluate",
        "--results-dir",
        str(d[results]),
        "--gold-dirs",
        *[str(d[g]) for g in gold],
        "--output",
        str(out),
        "--run-output",
        str(run_out),
        "--no-store",
        "--n-bootstrap-ci",
        "200",
        *extra,
    )
    return Run.load(run_out), json.loads(out.read_text())


def test_conversion_counts(converted: dict[str, Path]) -> None:
    def count(d: Path) -> int:
        return len([p for p in d.glob("*.json") if p.name != "run_info.json"])

    assert count(converted["gold10"]) == 10
    assert count(converted["gold26"]) + count(converted["gold26b"]) == 26
    assert count(converted["grobid"]) == 10 and count(converted["cermine"]) == 10
    for d in ("gold10", "gold26", "grobid", "cermine"):
        assert (converted[d] / "failures.jsonl").read_text() == ""
    grobid = json.loads(next(converted["grobid"].glob("sonc*.json")).read_text())
    assert grobid["extraction"]["producer"] == "GROBID"
    assert grobid["extraction"]["producer_version"] == "0.5.6"
    assert all(s["type"] == "unknown" for s in grobid["sections"])
    assert any(r["raw"] for r in grobid["references"])


def test_acl_tei_agrees_with_doc2json(converted: dict[str, Path]) -> None:
    """Cross-check the TEI converter with another converter's JSON of the same TEI files."""
    for tei_json in sorted(converted["acl"].glob("*.json")):
        if tei_json.name == "run_info.json":
            continue
        ours = json.loads(tei_json.read_text())
        theirs = json.loads(
            (DATA / "acl_doc2json_tei" / f"{tei_json.stem}.doc2json.json").read_text()
        )
        assert ours["metadata"]["title"] == theirs["title"]
        assert len(ours["authors"]) == len(theirs["authors"])
        # doc2json leaves out references whose main title GROBID left empty; we keep every
        # biblStruct of the bibliography (they were cited) and agree on every title it has
        tei = (DATA / "acl_doc2json_tei" / f"{tei_json.stem}.grobid.tei.xml").read_text()
        assert len(ours["references"]) == tei.split("<listBibl>")[1].count("<biblStruct")
        titles = {r["title"] for r in ours["references"]}
        entries = theirs["pdf_parse"]["bib_entries"].values()
        assert {e["title"] for e in entries} <= titles
        assert len(ours["references"]) >= len(entries)


def test_gold_against_itself_is_perfect_or_null(converted: dict[str, Path]) -> None:
    """eLife and PMC gold scored against itself: every defined primary score is 1.0, and
    papers whose gold has nothing to score (a correction, a stub) are null, not 0."""
    run, view = _evaluate(converted, "gold26", gold=("gold26",))
    assert view["papers_attempted"] == view["papers_evaluated"] == 23
    for item in run.items:
        for m in PRIMARY:
            assert item.scores[m] in (None, 1.0), (item.id, m, item.scores[m])
    per = {p["id"]: p["scores"] for p in view["per_paper"]}
    assert per["elife07586"]["ref_matching_f1"] is None  # a correction: no references
    assert per["elife07586"]["abstract_rouge_l"] is None  # ... and no abstract
    assert per["elife_poa_e06828"]["ref_matching_f1"] is None
    assert view["pass_rate"] == 1.0 and view["n_abstained"] == 0


def test_grobid_and_cermine_on_one_cohort(converted: dict[str, Path]) -> None:
    expected = str(converted["expected"])
    g_run, g = _evaluate(
        converted, "grobid", "--expected-ids", expected, gold=("gold10", "gold26", "gold26b")
    )
    c_run, c = _evaluate(
        converted, "cermine", "--expected-ids", expected, gold=("gold10", "gold26", "gold26b")
    )
    for view in (g, c):
        assert view["papers_attempted"] == view["papers_evaluated"] == 10
        assert view["papers_missing"] == 0 and view["papers_unmatched"] == 0
        assert view["pass_rate_n"] == 10
        assert view["metrics_version"] == 5
        # PMC 2010-2011 gold cites no reference DOIs: nothing to score, null, not zero
        assert view["metrics"]["ref_doi_recall"]["mean"] is None
        assert view["metrics"]["ref_doi_recall"]["n"] == 0
        assert view["metrics"]["orcid_f1"]["mean"] is None
    # seed 002: without the cohort list the cohort is the matched predictions; the 26 gold
    # papers nobody predicted are counted apart, outside the denominator
    run, full = _evaluate(converted, "grobid", gold=("gold10", "gold26", "gold26b"))
    assert full["papers_attempted"] == 10 and full["papers_missing"] == 0
    assert full["papers_gold_not_in_cohort"] == 26
    assert run.metrics["title_soft"].n == 10
    # every gold paper expected: the unconverted ones are missing, 0 on the floors
    every = converted["root"] / "every.json"
    stems = [
        p.stem
        for key in ("gold10", "gold26", "gold26b")
        for p in converted[key].glob("*.json")
        if p.name != "run_info.json"
    ]
    every.write_text(json.dumps(sorted(stems)))
    run, full = _evaluate(
        converted, "grobid", "--expected-ids", str(every), gold=("gold10", "gold26", "gold26b")
    )
    assert full["papers_attempted"] == 36 and full["papers_missing"] == 26
    assert run.metrics["title_soft"].n == 36
    # paired comparison works on the two tools' runs
    from assay import compare

    result = compare(g_run, c_run, significance=True, n_bootstrap=200)
    assert {s.metric_name for s in result.significance} >= set(PRIMARY) - {"ref_doi_recall"}


def test_grobid_sections(converted: dict[str, Path]) -> None:
    out = converted["root"] / "sections.json"
    _cli(
        "evaluate",
        "--results-dir",
        str(converted["grobid"]),
        "--sections",
        "--section-gold-dirs",
        str(converted["sections"]),
        "--output",
        str(out),
        "--run-output",
        str(converted["root"] / "sections.run.json"),
        "--no-store",
        "--no-ci",
    )
    view = json.loads(out.read_text())
    assert view["papers_evaluated"] == 10
    metrics = view["metrics"]
    assert 0.0 < metrics["layout_recall"]["mean"] <= 1.0
    # GROBID types every body section unknown, JATS gold does not: label-dependent recall is 0
    assert metrics["section_recall"]["mean"] == 0.0
