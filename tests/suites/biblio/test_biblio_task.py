"""The biblio suite end to end: cohort, failures, abstentions, pass rate, output, gate, sections."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import assay
from assay._cli.biblio import biblio_group
from assay._engine.run import Run
from assay.suites.biblio._lib.report import metadata_view
from assay.suites.biblio.metrics import METRICS, PRIMARY
from tests.suites.biblio.biblio_helpers import paper, ref, write


def _score(pred: Path, gold: Path, **kw: Any) -> Run:
    return assay.score("biblio", pred=pred, gold=[gold], n_bootstrap_ci=200, **kw)


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    gold, pred = tmp_path / "gold", tmp_path / "pred"
    for i in range(4):
        write(
            gold, f"p{i}.json", paper(doi=f"10.1000/p.{i}", title=f"A study of things number {i}")
        )
    # p0: DOI names gold p0 though the file is called otherwise
    write(
        pred,
        "renamed.json",
        paper(doi="https://doi.org/10.1000/P.0", title="A study of things number 0"),
    )
    # p1: no DOI, paired by file name
    write(pred, "p1.json", paper(doi=None, title="A study of things number 1"))
    # p2: missing; p3: a wrong title
    write(pred, "p3.json", paper(doi="10.1000/p.3", title="Something else entirely here"))
    write(pred, "stray.json", paper(doi="10.1000/nowhere", title="Not in gold"))
    write(pred, "run_info.json", {"batch": "record", "metadata": {"title": "never scored"}})
    write(pred, "validation_report.json", {"metadata": {}})
    write(tmp_path, "expected.json", [f"p{i}" for i in range(4)])
    return pred, gold


def _expected(gold: Path) -> Path:
    """The fixture's cohort file: every gold paper (p2 has no prediction)."""
    return gold.parent / "expected.json"


def test_cohort_doi_then_filename(dirs: tuple[Path, Path]) -> None:
    pred, gold = dirs
    # seed 002: without --expected-ids the cohort is the predictions that match gold; the gold
    # paper without a prediction is counted apart (excluded), not in the denominator
    alone = _score(pred, gold).cohort
    assert (alone.attempted, alone.evaluated, alone.missing, alone.excluded) == (3, 3, 0, 1)
    run = _score(pred, gold, expected_ids=_expected(gold))
    c = run.cohort
    assert (c.attempted, c.evaluated, c.missing, c.excluded) == (4, 3, 1, 0)
    assert c.missing_ids == ["p2"]
    assert c.unmatched_ids == ["stray"]
    sources = {i.id: i.source for i in run.items}
    assert sources["p0"] is not None and sources["p0"].endswith("renamed.json")
    assert not any("run_info" in p or "validation_report" in p for p in run.provenance.predictions)


def test_batch_records_not_in_tree_digest(dirs: tuple[Path, Path]) -> None:
    pred, gold = dirs
    before = _score(pred, gold).provenance.predictions_sha256
    write(pred, "run_info.json", {"changed": True})
    assert _score(pred, gold).provenance.predictions_sha256 == before


def test_missing_scores_zero_on_floor_metrics_only(dirs: tuple[Path, Path]) -> None:
    pred, gold = dirs
    run = _score(pred, gold, expected_ids=_expected(gold))
    missing = next(i for i in run.items if i.id == "p2")
    assert missing.scores["title_soft"] == 0.0
    assert missing.scores["doi_match"] == 0.0
    assert missing.scores["authors_fullname_f1"] == 0.0
    assert missing.scores["ref_matching_f1"] == 0.0
    assert missing.scores["abstract_rouge_l"] is None
    assert missing.scores["ref_title_acc"] is None
    assert missing.scores["pass"] == 0.0
    assert run.metrics["title_soft"].n == 4
    assert run.metrics["abstract_rouge_l"].n == 3


def test_expected_ids_and_ids_file(dirs: tuple[Path, Path], tmp_path: Path) -> None:
    pred, gold = dirs
    # expected ids only add rows: the other matched predictions stay scored, not unmatched
    expected = write(tmp_path, "exp.json", {"members": ["p0", "ghost"]})
    run = _score(pred, gold, expected_ids=expected)
    c = run.cohort
    assert (c.attempted, c.evaluated, c.missing) == (4, 3, 1)
    assert c.missing_ids == ["ghost"] and c.no_gold_ids == ["ghost"]
    assert c.unmatched_ids == ["stray"]  # only the prediction that matches no gold
    ghost = next(i for i in run.items if i.id == "ghost")
    floors = ("title_soft", "doi_match", "authors_fullname_f1", "ref_matching_f1")
    assert all(ghost.scores[m] == 0.0 for m in floors) and ghost.scores["pass"] == 0.0
    assert "no_gold" in ghost.flags
    view = metadata_view(run, predictions_dir=str(pred))
    assert view["expected_without_gold_ids"] == ["ghost"]
    assert view["papers_expected_without_gold"] == 1 and view["pass_rate_n"] == 4
    # --ids-file alone restricts; the tree digest covers exactly the files it kept
    ids = write(tmp_path, "ids.txt", "# cohort\np1\np3\n")
    run = _score(pred, gold, ids_file=ids)
    assert [i.id for i in run.items] == ["p1", "p3"]
    assert sorted(Path(p).name for p in run.provenance.predictions) == ["p1.json", "p3.json"]
    write(pred, "renamed.json", paper(doi="10.1000/p.0", title="changed"))
    assert _score(pred, gold, ids_file=ids).provenance.predictions_sha256 == (
        run.provenance.predictions_sha256
    )
    # with both, an expected id outside the ids file is left out
    both = _score(pred, gold, ids_file=ids, expected_ids=_expected(gold))
    assert [i.id for i in both.items] == ["p1", "p3"]


def test_pass_rate(dirs: tuple[Path, Path]) -> None:
    pred, gold = dirs
    run = _score(pred, gold, expected_ids=_expected(gold))
    passes = {i.id: i.scores["pass"] for i in run.items}
    # p1 has no DOI against gold's: doi_match 0 < 1.0; p3's title fails; p2 missing
    assert passes == {"p0": 1.0, "p1": 0.0, "p2": 0.0, "p3": 0.0}
    assert run.summaries["pass_rate"] == 0.25
    assert run.summaries["pass_rate_n"] == 4
    assert run.summaries["pass_rate_excl_abstained"] == pytest.approx(1 / 3)
    assert run.summaries["pass_rate_excl_abstained_n"] == 3


def test_null_floor_is_not_checked(tmp_path: Path) -> None:
    gold = write(tmp_path / "g", "a.json", paper(doi=None, refs=[]))
    pred = write(tmp_path / "p", "a.json", paper(doi=None, refs=[])).parent
    run = _score(pred, gold.parent)
    item = run.items[0]
    assert item.scores["doi_match"] is None and item.scores["ref_matching_f1"] is None
    assert item.scores["pass"] == 1.0


def test_abstentions_suppress_and_report_incl(tmp_path: Path) -> None:
    g, p = tmp_path / "g", tmp_path / "p"
    for i in range(3):
        write(g, f"a{i}.json", paper(doi=f"10.1000/a.{i}"))
    write(
        p, "a0.json", paper(doi="10.1000/a.0", title="Wrong guess at a title", abstained=("title",))
    )
    write(p, "a1.json", paper(doi="10.1000/a.1"))
    write(p, "a2.json", paper(doi="10.1000/a.2", abstained=("front_matter",)))
    run = _score(p, g)
    assert run.summaries["n_abstained"] == 2
    assert run.summaries["abstained_ids"] == ["a0", "a2"]
    assert run.summaries["abstention_rate"] == pytest.approx(2 / 3)
    assert run.metrics["title_soft"].n == 1 and run.metrics["title_soft"].value == 1.0
    # pre-suppression: a0 0.0, a1 1.0, a2 1.0
    assert run.metrics["title_soft_incl_abstained"].value == pytest.approx(2 / 3)
    assert "ref_matching_f1_incl_abstained" not in run.metrics
    assert run.metrics["ref_matching_f1"].n == 3  # references are not front matter
    assert run.summaries["pass_rate"] == pytest.approx(1 / 3)
    view = metadata_view(run, predictions_dir=str(p))
    assert view["metrics"]["title_soft"]["mean_incl_abstained"] == pytest.approx(2 / 3)
    assert "mean_incl_abstained" not in view["metrics"]["ref_matching_f1"]


def test_no_abstention_no_incl_metrics(dirs: tuple[Path, Path]) -> None:
    run = _score(*dirs)
    assert not any(name.endswith("_incl_abstained") for name in run.metrics)


def test_bad_predictions_are_failures_not_crashes(tmp_path: Path) -> None:
    g, p = tmp_path / "g", tmp_path / "p"
    for name in ("bad_json", "bad_utf8", "empty", "no_blocks", "wrong_type", "ok", "old"):
        write(g, f"{name}.json", paper(doi=None, title=f"Title for paper {name}"))
    write(p, "bad_json.json", "{not json")
    (p / "bad_utf8.json").write_bytes(b'{"metadata": {"title": "\xff\xfe"}}')
    write(p, "empty.json", "")
    write(p, "no_blocks.json", {"hello": 1})
    write(p, "wrong_type.json", {"metadata": {"title": 3.5}, "authors": "nobody"})
    write(p, "ok.json", paper(doi=None, title="Title for paper ok"))
    write(p, "old.json", paper(doi=None, title="Title for paper old", block="info"))
    run = _score(p, g)
    failed = {f.id: f.reason for f in run.cohort.failures}
    assert set(failed) == {"bad_json", "bad_utf8", "empty", "no_blocks", "wrong_type"}
    assert "invalid UTF-8" in failed["bad_utf8"]
    assert "empty" in failed["empty"]
    assert "not a paper export" in failed["no_blocks"]
    assert "authors" in failed["wrong_type"] or "metadata.title" in failed["wrong_type"]
    scores = {i.id: i.scores for i in run.items}
    assert scores["old"]["title_soft"] == 1.0  # the pre-schema-11 ``info`` block is read
    assert scores["bad_json"]["title_soft"] == 0.0 and scores["bad_json"]["pass"] == 0.0


def test_unreadable_predictions_without_gold_are_counted_in_the_evaluation(tmp_path: Path) -> None:
    """bibr drops an unreadable prediction file; assay lists it: a failed row when its name is
    a gold paper's (0.0 on the floors, as bibr's missing row when expected), else counted in
    ``papers_unreadable`` with its file and reason (issue 34)."""
    g, p = tmp_path / "g", tmp_path / "p"
    for name in ("a", "b"):
        write(g, f"{name}.json", paper(doi=None, title=f"Title for paper {name}"))
    write(p, "a.json", paper(doi=None, title="Title for paper a"))
    write(p, "b.json", "{not json")
    write(p, "garbage1.json", "{not json")
    (p / "garbage2.json").write_bytes(b"\xff\xfe")
    run = _score(p, g)
    view = metadata_view(run, predictions_dir=str(p))
    assert view["papers_unreadable"] == 2
    assert sorted(u["id"] for u in view["unreadable"]) == ["garbage1", "garbage2"]
    assert all(u["reason"] and u["where"].endswith(".json") for u in view["unreadable"])
    assert view["papers_failed"] == 1 and view["failed"][0]["id"] == "b"
    assert view["papers_attempted"] == 2


def test_missing_required_block_is_a_listed_failure(tmp_path: Path) -> None:
    g = write(tmp_path / "g", "a.json", paper()).parent
    p = write(
        tmp_path / "p", "a.json", {"metadata": {"title": paper()["metadata"]["title"]}}
    ).parent
    item = _score(p, g).items[0]
    assert item.status == "failed"  # never scored as a paper with 0 authors and 0 references
    assert item.error is not None and "a.json" in (item.source or "")
    assert "'authors'" in item.error and item.scores["pass"] == 0.0


def test_micro_average_counts_lost_bibliography(tmp_path: Path) -> None:
    g, p = tmp_path / "g", tmp_path / "p"
    refs = [ref(f"Reference title number {k} about cells", year="2001") for k in range(4)]
    write(g, "full.json", paper(doi="10.1000/f", refs=refs))
    write(g, "lost.json", paper(doi="10.1000/l", refs=refs[:3]))
    write(p, "full.json", paper(doi="10.1000/f", refs=refs))
    write(p, "lost.json", paper(doi="10.1000/l", refs=[]))
    run = _score(p, g)
    assert run.metrics["ref_title_acc"].value == 0.5  # mean of 1.0 and 0.0
    assert run.metrics["ref_title_acc_micro"].value == pytest.approx(4 / 7)
    view = metadata_view(run, predictions_dir=str(p))
    entry = view["metrics"]["ref_title_acc"]
    assert (entry["micro_correct"], entry["micro_denominator"]) == (4, 7)
    assert entry["micro_mean"] == pytest.approx(4 / 7)


def test_seed_output_fields(dirs: tuple[Path, Path], tmp_path: Path) -> None:
    pred, gold = dirs
    out = tmp_path / "eval.json"
    result = CliRunner().invoke(
        biblio_group,
        [
            "evaluate",
            "--results-dir",
            str(pred),
            "--gold-dirs",
            str(gold),
            "--output",
            str(out),
            "--expected-ids",
            str(_expected(gold)),
            "--run-output",
            str(tmp_path / "run.json"),
            "--no-store",
            "--n-bootstrap-ci",
            "100",
        ],
    )
    assert result.exit_code == 0, result.output
    view = json.loads(out.read_text())
    for key in (
        "metrics_version",
        "generated_at",
        "scoring_commit",
        "predictions_dir",
        "predictions_tree_sha256",
        "papers_attempted",
        "papers_evaluated",
        "papers_missing",
        "missing_ids",
        "papers_unmatched",
        "unmatched_ids",
        "metrics",
        "pass_rate",
        "pass_rate_n",
        "pass_rate_excl_abstained",
        "abstention_rate",
        "n_abstained",
        "abstained_ids",
        "per_paper",
    ):
        assert key in view, key
    assert view["metrics_version"] == 5
    assert set(METRICS) <= set(view["metrics"])
    for entry in view["metrics"].values():
        assert {"mean", "p10", "median", "min", "max", "n"} <= set(entry)
    assert view["papers_unmatched"] == 1 and view["missing_ids"] == ["p2"]
    assert Run.load(tmp_path / "run.json").task == "biblio"


def test_multiple_gold_dirs_after_one_flag(tmp_path: Path) -> None:
    g1, g2, p = tmp_path / "g1", tmp_path / "g2", tmp_path / "p"
    write(g1, "a.json", paper(doi="10.1000/a"))
    write(g2, "b.json", paper(doi="10.1000/b"))
    write(p, "a.json", paper(doi="10.1000/a"))
    result = CliRunner().invoke(
        biblio_group,
        [
            "evaluate",
            "--results-dir",
            str(p),
            "--gold-dirs",
            str(g1),
            str(g2),
            "--expected-ids",
            str(write(tmp_path, "e.json", ["a", "b"])),
            "--no-store",
            "--run-output",
            str(tmp_path / "r.json"),
            "--no-ci",
        ],
    )
    assert result.exit_code == 0, result.output
    run = Run.load(tmp_path / "r.json")
    assert run.cohort.attempted == 2 and run.cohort.missing_ids == ["b"]


def test_threshold_gates_primary_means_only(dirs: tuple[Path, Path], tmp_path: Path) -> None:
    pred, gold = dirs
    base = [
        "evaluate",
        "--results-dir",
        str(pred),
        "--gold-dirs",
        str(gold),
        "--expected-ids",
        str(_expected(gold)),
        "--no-store",
        "--no-ci",
        "--run-output",
        str(tmp_path / "r.json"),
    ]
    low = CliRunner().invoke(biblio_group, [*base, "--threshold", "0.1"])
    assert low.exit_code == 0, low.output
    # pass_rate is 0.25, but pass rate is not gated; title_soft 0.5 is
    high = CliRunner().invoke(biblio_group, [*base, "--threshold", "0.6"])
    assert high.exit_code == 1
    assert "title_soft" in high.output
    run = Run.load(tmp_path / "r.json")
    gated = [m for m in PRIMARY if run.metrics[m].value is not None]
    assert all(run.metrics[m].tier == "headline" for m in PRIMARY)
    assert run.metrics["pass_rate"].tier == "core"
    assert assay.gate(run, 0.6).passed is False
    assert {c.name for c in assay.gate(run, 0.6).checks} == set(PRIMARY)
    assert gated


def test_determinism(dirs: tuple[Path, Path]) -> None:
    pred, gold = dirs
    a = _score(pred, gold).to_json()
    b = _score(pred, gold).to_json()

    def strip(text: str) -> str:
        return "\n".join(x for x in text.splitlines() if '"generated_at"' not in x)

    assert strip(a) == strip(b)


def test_compare_two_runs(dirs: tuple[Path, Path], tmp_path: Path) -> None:
    pred, gold = dirs
    a = _score(pred, gold)
    better = tmp_path / "better"
    for i in range(4):
        write(
            better, f"p{i}.json", paper(doi=f"10.1000/p.{i}", title=f"A study of things number {i}")
        )
    b = _score(better, gold)
    result = assay.compare(b, a, significance=True, n_bootstrap=200)
    names = {s.metric_name for s in result.significance}
    assert "title_soft" in names and "pass_rate" in names


def test_sections_mode(tmp_path: Path) -> None:
    g, p = tmp_path / "sg", tmp_path / "p"
    write(
        g,
        "a.sectiongold.json",
        {
            "sections": [
                {
                    "type": "introduction",
                    "title": "Introduction",
                    "text": "Straße cells grow fast in 蛋白质",
                },
                {
                    "type": "methods",
                    "title": "Methods",
                    "text": "we measured twelve samples carefully",
                },
                {
                    "type": "results",
                    "title": "Results",
                    "text": "totally absent from the prediction",
                },
            ]
        },
    )
    write(g, "b.sectiongold.json", {"sections": [{"type": "introduction", "text": "alpha beta"}]})
    write(
        p,
        "a.json",
        paper(
            sections=[
                {"type": "introduction", "text": "STRASSE? no: Straße cells grow fast in 蛋白"},
                {"type": "unknown", "text": "we measured twelve samples carefully"},
            ]
        ),
    )
    out = tmp_path / "sec.json"
    result = CliRunner().invoke(
        biblio_group,
        [
            "evaluate",
            "--results-dir",
            str(p),
            "--sections",
            "--section-gold-dirs",
            str(g),
            "--output",
            str(out),
            "--no-store",
            "--no-ci",
            "--run-output",
            str(tmp_path / "r.json"),
            "--threshold",
            "0.99",
        ],
    )
    assert result.exit_code == 0, result.output  # sections return before the metadata gate
    view = json.loads(out.read_text())
    assert view["mode"] == "sections" and view["metrics_version"] == 5
    per = {x["id"]: x for x in view["per_paper"]}
    a = per["a"]["scores"]
    # gold a: intro 7 tokens (straße, cells, grow, fast, in, 蛋, 白, 质 → 8), methods 5, results 5
    assert a["layout_recall"] == pytest.approx((7 + 5) / 18)
    assert a["section_recall"] == pytest.approx(7 / 18)  # methods text sits in an 'unknown' section
    assert a["coverage"] == pytest.approx(2 / 3)
    assert view["papers_missing"] == 1 and per["b"]["scores"]["layout_recall"] == 0.0
    dropped = [s["type"] for d in view["drop_report"] if d["id"] == "a" for s in d["sections"]]
    assert dropped == ["results"]
    # types compare under bibr's names: JATS "methods" is bibr's "method"
    assert view["per_type_recall"]["method"]["recall"] == 0.0


def test_parallel_scoring_is_identical(dirs: tuple[Path, Path]) -> None:
    pred, gold = dirs

    def strip(run: Run) -> str:
        return "\n".join(x for x in run.to_json().splitlines() if '"generated_at"' not in x)

    assert strip(_score(pred, gold, jobs=2)) == strip(_score(pred, gold))


def test_items_carry_gold_beside_prediction(dirs: tuple[Path, Path]) -> None:
    pred, gold = dirs
    run = _score(pred, gold)
    items = {i.id: i for i in run.items}
    wrong = items["p3"].details
    assert wrong["gold"]["title"] == "A study of things number 3"
    assert wrong["predicted"]["title"] == "Something else entirely here"
    # a missing paper is in the cohort when expected (seed 002): its gold is shown alone
    ids = pred.parent / "expected.json"
    ids.write_text('["p2", "p3"]', encoding="utf-8")
    missing = {i.id: i for i in _score(pred, gold, expected_ids=ids).items}["p2"]
    assert missing.status == "missing"
    assert missing.details["gold"]["title"] == "A study of things number 2"


def test_invented_references_and_authors_fail_the_paper(tmp_path: Path) -> None:
    """bibr's rule: gold without references (or authors) and a prediction that asserts some
    scores 0.0, not null, so the paper fails its floor."""
    invented = [ref(f"Invented reference {k}", year="2001") for k in range(36)]
    gold = write(tmp_path / "g", "a.json", paper(refs=[])).parent
    pred = write(tmp_path / "p", "a.json", paper(refs=invented)).parent
    item = _score(pred, gold).items[0]
    assert item.scores["ref_matching_f1"] == 0.0 and item.scores["ref_count_ratio"] == 0.0
    assert item.scores["pass"] == 0.0
    write(tmp_path / "g", "a.json", paper(refs=[], authors=()))
    item = _score(pred, gold).items[0]
    assert item.scores["authors_fullname_f1"] == 0.0
