"""The claims suite end to end: loading layouts, the cohort, metrics, determinism and the CLI."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pytest

import assay
from assay._cli import main
from assay._engine.run import Run
from assay._io.records import ParseFailure, SourceRecord
from assay.suites.claims import read_papers
from assay.suites.claims._lib.diff import diff_runs
from tests.conftest import write_jsonl
from tests.suites.claims.claims_copies import (
    CLAIM_TREE,
    Expected,
    load_reference,
    make_copy,
    write_paper_dir,
)

pytestmark = pytest.mark.skipif(
    not CLAIM_TREE.is_dir(), reason="../shared/data/claims is not laid beside the clone"
)


def build_extracted(
    root: Path, drop_every: int = 7, skip: str | None = None
) -> dict[str, Expected]:
    expected = {}
    for paper in load_reference():
        if paper.paper == skip:
            continue
        claims, exp = make_copy(paper, drop_every=drop_every)
        write_paper_dir(root, paper.paper, claims, paper.doi)
        expected[paper.paper] = exp
    return expected


def score(extracted: Path, **kw: object) -> Run:
    return assay.score("claims", pred=extracted, gold=CLAIM_TREE, n_bootstrap_ci=200, **kw)


def test_scores_constructed_copies(tmp_path: Path) -> None:
    expected = build_extracted(tmp_path / "ext")
    run = score(tmp_path / "ext")
    matcher = run.summaries["matcher"]  # which matcher ran, and how far to trust it
    assert (
        matcher["ran"] == "deterministic hybrid (TF-IDF + wordllama l2_supercat_256), many-to-one"
    )
    assert "90-95% of pairings right" in matcher["trust"]
    lexical = score(tmp_path / "ext", embedding_model="none").summaries["matcher"]
    assert lexical["ran"].startswith("deterministic hybrid (TF-IDF only: no embedding_model")
    assert "install the [semantic] extra" in lexical["trust"]
    recoveries = [expected[p].recovery for p in sorted(expected)]
    assert run.metrics["recovery"].value == pytest.approx(np.mean(recoveries))
    assert run.metrics["recovery"].median == pytest.approx(np.median(recoveries))
    n_ref = sum(e.n_reference for e in expected.values())
    n_found = sum(e.n_reference - len(e.dropped) for e in expected.values())
    assert run.metrics["recovery_micro"].value == pytest.approx(n_found / n_ref)
    role_true = sum(len(e.role_true) for e in expected.values())
    assert run.metrics["role_agreement_micro"].value == pytest.approx(role_true / n_found)
    exact = sum(len(e.exact) for e in expected.values())
    assert run.metrics["exact_rate"].value == pytest.approx(exact / n_ref)
    m = run.metrics["recovery"]
    assert m.ci_lower is not None and m.ci_lower <= m.value <= m.ci_upper
    per_paper = {row["paper"]: row for row in run.summaries["per_paper"]}
    for paper, exp in expected.items():
        assert per_paper[paper]["recovery"] == pytest.approx(exp.recovery)
        assert per_paper[paper]["none"] == len(exp.dropped)
        assert per_paper[paper]["n_extracted"] == exp.n_extracted
    item = next(i for i in run.items if i.id == "ejdrup-2026-dopamine")
    none = {m["ref_slug"] for m in item.details["matches"] if m["match_quality"] == "none"}
    assert none == expected["ejdrup-2026-dopamine"].dropped
    assert run.summaries["repairs"]["kolb-2026-igabasnfr2"]  # the real data's YAML quirk


def test_bad_claim_file_is_listed_and_the_paper_scored_on_the_rest(tmp_path: Path) -> None:
    """Seed 003's harness skips an unreadable claim file and scores the rest; assay lists it."""
    ext = tmp_path / "ext"
    expected = build_extracted(ext, drop_every=50)
    exp = expected["ejdrup-2026-dopamine"]
    bad = ext / "ejdrup-2026-dopamine" / "x-d1r-tracks-da-50ms-delay.md"
    bad.write_text("---\nslug: broken\nclaim: [unclosed\n---\n")
    run = score(ext)
    item = next(i for i in run.items if i.id == "ejdrup-2026-dopamine")
    assert item.status == "ok" and run.cohort.failed == 0
    [failure] = run.summaries["file_failures"]["ejdrup-2026-dopamine"]
    assert failure["file"].endswith(bad.name) and "invalid YAML" in failure["reason"]
    # only the claim whose file broke is lost
    assert item.scores["recovery"] == pytest.approx(exp.recovery - 1 / exp.n_reference)
    verdict = next(m for m in item.details["matches"] if m["ref_slug"] == bad.stem[2:])
    assert verdict["match_quality"] == "none"


def test_any_loader_error_is_a_file_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the YAML loader raises (helper 20's safe loader has its own errors), the file
    fails, not the paper."""
    from assay.suites.claims._lib import loading

    expected = build_extracted(tmp_path / "ext", drop_every=50)
    real = loading._safe_load

    def flaky(text: str) -> object:
        if "x-vmat2-gradient-absent" in text:
            raise RuntimeError("loader refused this document")
        return real(text)

    monkeypatch.setattr(loading, "_safe_load", flaky)
    [paper] = [r for r in read_papers(tmp_path / "ext") if r.id == "ejdrup-2026-dopamine"]
    assert isinstance(paper, SourceRecord)
    [failure] = paper.record["file_failures"]
    assert failure["reason"] == "RuntimeError: loader refused this document"
    assert len(paper.record["claims"]) == expected["ejdrup-2026-dopamine"].n_extracted - 1


def test_failed_and_missing_papers_are_left_out_of_the_means(tmp_path: Path) -> None:
    """The seed leaves a failed paper out of the means and lists it; so does assay, with the
    count: ``failure`` is the share of papers not scored."""
    ext = tmp_path / "ext"
    expected = build_extracted(ext, skip="kolb-2026-igabasnfr2")
    for f in (ext / "artiushin-2026-spider-atlas").glob("x-*.md"):
        f.write_text("no front matter\n")
    for f in (ext / "artiushin-2026-spider-atlas").glob("*part*.md"):
        f.unlink()
    for f in (ext / "artiushin-2026-spider-atlas").glob("spurious*.md"):
        f.unlink()
    run = score(ext)
    assert run.cohort.missing_ids == ["kolb-2026-igabasnfr2"]
    [failure] = run.cohort.failures
    assert failure.id == "artiushin-2026-spider-atlas"
    assert "no readable claim file" in failure.reason
    statuses = {i.id: i.status for i in run.items}
    assert statuses == {
        "artiushin-2026-spider-atlas": "failed",
        "ejdrup-2026-dopamine": "ok",
        "kolb-2026-igabasnfr2": "missing",
    }
    ejdrup = expected["ejdrup-2026-dopamine"].recovery
    assert run.metrics["recovery"].value == pytest.approx(ejdrup)  # not ejdrup / 3
    assert run.metrics["recovery"].n == 1
    assert run.metrics["recovery_micro"].value == pytest.approx(ejdrup)
    assert run.metrics["failure"].value == pytest.approx(2 / 3)
    assert run.summaries["scored_papers"] == 1
    assert run.summaries["left_out"] == {
        "failed": ["artiushin-2026-spider-atlas"],
        "missing": ["kolb-2026-igabasnfr2"],
    }
    assert [i.scores["recovery"] for i in run.items if i.status != "ok"] == [None, None]


def test_extracted_papers_pair_by_doi(tmp_path: Path) -> None:
    ref = load_reference()[1]
    claims, exp = make_copy(ref)
    write_paper_dir(tmp_path / "ext", "paper-0001", claims, "https://doi.org/10.7554/ELIFE.105214")
    run = score(tmp_path / "ext")
    item = next(i for i in run.items if i.id == "ejdrup-2026-dopamine")
    assert item.status == "ok" and item.details["paired_by"] == "doi (was paper-0001)"
    assert item.scores["recovery"] == pytest.approx(exp.recovery)
    assert run.cohort.missing == 2
    assert run.cohort.unmatched == 0


def test_same_inputs_give_identical_runs(tmp_path: Path) -> None:
    build_extracted(tmp_path / "ext")
    a = json.loads(score(tmp_path / "ext").to_json())
    b = json.loads(score(tmp_path / "ext").to_json())
    a.pop("generated_at"), b.pop("generated_at")
    assert a == b


def test_json_and_jsonl_layouts_score_like_the_tree(tmp_path: Path) -> None:
    build_extracted(tmp_path / "ext")
    papers = [r.record for r in read_papers(tmp_path / "ext") if isinstance(r, SourceRecord)]
    (tmp_path / "papers.json").write_text(json.dumps({"papers": papers}))
    rows = [{"paper": p["paper"], **c} for p in papers for c in p["claims"]]
    write_jsonl(tmp_path / "claims.jsonl", rows)
    tree = score(tmp_path / "ext").metrics
    for path in (tmp_path / "papers.json", tmp_path / "claims.jsonl"):
        other = score(path).metrics
        assert {k: v.value for k, v in other.items()} == {k: v.value for k, v in tree.items()}


def test_unreadable_claims_name_file_and_field(tmp_path: Path) -> None:
    write_jsonl(
        tmp_path / "c.jsonl",
        [
            {"paper": "p1", "slug": "a", "claim": "x"},
            {"paper": "p1", "slug": "a", "claim": "y"},
            {"paper": "p2", "slug": "b"},
            {"slug": "c", "claim": "z"},
        ],
    )
    (tmp_path / "c.jsonl").write_text((tmp_path / "c.jsonl").read_text() + "{oops\n")
    results = read_papers(tmp_path / "c.jsonl")
    reasons = sorted(r.reason for r in results if isinstance(r, ParseFailure))
    assert any("duplicate claim slug 'a'" in r for r in reasons)
    assert any("field 'claim' is missing" in r for r in reasons)
    assert any("none of the fields" in r for r in reasons)
    assert any("invalid JSON" in r for r in reasons)
    d = tmp_path / "tree" / "p"
    d.mkdir(parents=True)
    (d / "no-front-matter.md").write_text("just prose\n")
    [failure] = read_papers(tmp_path / "tree")
    assert isinstance(failure, ParseFailure) and "no YAML front matter" in failure.reason
    assert "no-front-matter.md" in failure.reason and failure.where().endswith("p")


def _cli(*args: str) -> tuple[int, str]:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(list(args))
    return code, buf.getvalue()


def test_cli_evaluate_and_diff(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    build_extracted(tmp_path / "good", drop_every=50)
    build_extracted(tmp_path / "worse", drop_every=4)
    common = ["--reference", str(CLAIM_TREE), "--no-store", "--n-bootstrap-ci", "200"]
    code, text = _cli("claims", "evaluate", *common, "--extracted", "good", "-o", "base.json")
    assert code == 0, text
    assert "per paper" in text and "ejdrup-2026-dopamine" in text
    assert "extracted claims matched no reference claim" in text
    code, _ = _cli("claims", "evaluate", *common, "--extracted", "worse", "-o", "cand.json")
    assert code == 0

    # every one of the 3 papers lost claims, and the bootstrap CI of Δ excludes 0, but with 3
    # papers the exact sign-flip test cannot go below p = 2/8: no material change, exit 0
    code, text = _cli("claims", "diff", "base.json", "cand.json", "-o", "diff.json")
    assert code == 0 and "no material change" in text, text
    assert "exact sign-flip test over all 2^3 = 8" in text
    diff = json.loads(Path("diff.json").read_text())
    assert diff["verdict"] == "no_material_change" and diff["test"] == "exact_sign_flip"
    recovery = next(m for m in diff["moves"] if m["name"] == "recovery")
    assert recovery["move"] == "holds" and recovery["p_value"] == pytest.approx(0.25)
    assert recovery["ci_upper"] < 0  # what the bootstrap said

    code, text = _cli("claims", "diff", "base.json", "base.json")
    assert code == 0 and "no material change" in text


def test_diff_rules_on_runs(tmp_path: Path) -> None:
    build_extracted(tmp_path / "a", drop_every=50)
    base = score(tmp_path / "a")
    same = diff_runs(base, base, n_bootstrap=200)
    assert same.verdict == "no_material_change" and same.exit_code == 0
    assert [m.name for m in same.moves][:2] == ["recovery", "role_agreement"]
    with pytest.raises(assay.errors.UsageError, match="not in both scorecards"):
        diff_runs(base, base, metrics=["bleu"])
    other = score(tmp_path / "a", matcher="deterministic", partial_threshold=0.4)
    assert any("matched differently" in w for w in diff_runs(base, other).warnings)
    assert not diff_runs(base, score(tmp_path / "a")).warnings  # the same matcher again
    for change in ({"lexical_weight": 0.5}, {"second_pass": False}, {"csls_threshold": 0.2}):
        hybrid = score(tmp_path / "a", **change)  # the hybrid's own settings count too
        assert any("matched differently" in w for w in diff_runs(base, hybrid).warnings), change


def test_unmatched_extracted_first_ten_shown_all_kept(tmp_path: Path) -> None:
    ref = load_reference()[0]
    claims, _ = make_copy(ref)
    from assay.suites.claims import Claim

    extra = [
        Claim(f"noise-{i}", f"Unrelated statement number {i} about weather.") for i in range(12)
    ]
    write_paper_dir(tmp_path / "ext", ref.paper, claims + extra, ref.doi)
    run = score(tmp_path / "ext")
    item = next(i for i in run.items if i.id == ref.paper)
    assert len(item.details["unmatched_extracted"]) > 12
    assert len(run.summaries["unmatched_extracted_shown"][ref.paper]) == 10


def _jsonl_corpus(path: Path, n_papers: int, keep: int, *, role: str = "empirical") -> Path:
    """n papers of 10 claims each; the first ``keep`` of each paper kept, with ``role``."""
    rows = []
    for p in range(n_papers):
        for c in range(keep):
            rows.append(
                {
                    "paper": f"p{p}",
                    "slug": f"p{p}-c{c}",
                    "claim": f"Paper {p} finding {c}: marker m{p}x{c} rises in region r{c}.",
                    "role": role,
                    "panel": f"fig{c + 1}",
                }
            )
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.mark.parametrize(("n_papers", "verdict"), [(3, "no_material_change"), (8, "regression")])
def test_diff_regression_needs_enough_papers(tmp_path: Path, n_papers: int, verdict: str) -> None:
    """Every paper loses 2 of 10 claims: at 3 papers the exact test says it may be noise
    (p = 0.25), at 8 papers it cannot be (p = 2/256) — a regression, exit code 1; the reverse
    change is a net win."""
    gold = _jsonl_corpus(tmp_path / "gold.jsonl", n_papers, 10)
    good = _jsonl_corpus(tmp_path / "good.jsonl", n_papers, 10)
    worse = _jsonl_corpus(tmp_path / "worse.jsonl", n_papers, 8)
    base = assay.score("claims", pred=good, gold=gold, n_bootstrap_ci=100)
    cand = assay.score("claims", pred=worse, gold=gold, n_bootstrap_ci=100)
    result = diff_runs(base, cand)
    assert result.verdict == verdict
    recovery = result.moves[0]
    assert recovery.name == "recovery" and recovery.test == "exact_sign_flip"
    assert recovery.p_value == pytest.approx(2 / 2**n_papers)
    assert result.exit_code == (1 if verdict == "regression" else 0)
    back = diff_runs(cand, base)
    assert back.verdict == ("net_win" if n_papers == 8 else "no_material_change")
    # the watched metrics are one family, Holm-adjusted; at 3 papers nothing can reject
    assert result.family["name"] == "watched" and result.family["correction"] == "holm"
    assert recovery.p_adjusted is not None and recovery.p_adjusted >= recovery.p_value
    if n_papers == 3:
        assert result.cannot_reject and "this sample can never reject" in result.cannot_reject
        assert "0.25 ≥ α = 0.05" in result.cannot_reject
    else:
        assert result.cannot_reject is None


def test_diff_uses_randomization_beyond_the_exact_limit(tmp_path: Path) -> None:
    gold = _jsonl_corpus(tmp_path / "gold.jsonl", 20, 10)
    base = assay.score("claims", pred=gold, gold=gold, n_bootstrap_ci=100)
    cand = assay.score(
        "claims", pred=_jsonl_corpus(tmp_path / "w.jsonl", 20, 9), gold=gold, n_bootstrap_ci=100
    )
    result = diff_runs(base, cand, n_bootstrap=1000)  # 20 papers: beyond the exact 16
    assert result.test == "approximate_randomization" and result.verdict == "regression"
    assert "approximate randomization test, 1000 random swaps" in result.test_description
    gold12 = _jsonl_corpus(tmp_path / "gold12.jsonl", 12, 10)
    base12 = assay.score("claims", pred=gold12, gold=gold12, n_bootstrap_ci=100)
    w12 = _jsonl_corpus(tmp_path / "w12.jsonl", 12, 9)
    cand12 = assay.score("claims", pred=w12, gold=gold12, n_bootstrap_ci=100)
    exact = diff_runs(base12, cand12, n_bootstrap=1000)  # 12 papers: every swap enumerated
    assert exact.test == "exact_sign_flip"
    assert exact.moves[0].p_value == pytest.approx(2 / 2**12)


def test_diff_family_and_correction(tmp_path: Path) -> None:
    gold = _jsonl_corpus(tmp_path / "gold.jsonl", 8, 10)
    base = assay.score("claims", pred=gold, gold=gold, n_bootstrap_ci=100)
    cand = assay.score(
        "claims", pred=_jsonl_corpus(tmp_path / "w.jsonl", 8, 8), gold=gold, n_bootstrap_ci=100
    )
    raw = diff_runs(base, cand, correction="none")
    assert raw.family["correction"] == "none"
    assert all(m.p_adjusted == m.p_value for m in raw.moves if m.in_family)
    wide = diff_runs(base, cand, family="all")
    assert wide.family["name"] == "all" and all(m.in_family for m in wide.moves)
    assert wide.family["n_tests"] >= raw.family["n_tests"]
    watched = diff_runs(base, cand)
    outside = [m for m in watched.moves if not m.in_family]
    assert outside and all(m.move == "holds" and m.p_adjusted is None for m in outside)
