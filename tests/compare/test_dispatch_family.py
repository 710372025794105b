"""Issue 32, items 2 and 4: every path that prints a p-value goes through the one dispatch and
names the test that decided (exact at n ≤ 16, randomization below 50, bootstrap above), and
every comparison states and controls its family (Holm by default, BH, none)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import assay
from assay._analytics.ab import ab_compare
from assay._cli import main
from assay._compare import compare, gate
from assay._engine.run import Run
from assay.stats.multiplicity import adjust_p_values
from tests.conftest import write_jsonl

#: n → (the result's method, the signature's head)
LABELS = {
    5: ("exact_sign_flip", "exact"),
    12: ("exact_sign_flip", "exact"),
    30: ("approximate_randomization", "paired-ar"),
    80: ("paired_bootstrap", "paired-bs"),
}
CLASSES = ("a", "b", "c")


def _pair(tmp_path: Path, n: int, *, wrong_every: int = 3) -> tuple[Run, Run]:
    """(candidate, baseline) on ``n`` items of three classes: the candidate right on every
    item, the baseline wrong on every ``wrong_every``-th (a clear difference at large n)."""
    gold = {f"i{k}": CLASSES[k % 3] for k in range(n)}
    better = dict(gold)
    worse = {k: ("b" if v != "b" else "c") if j % wrong_every == 0 else v
             for j, (k, v) in enumerate(gold.items())}  # fmt: skip
    g = write_jsonl(
        tmp_path / f"gold{n}.jsonl", [{"id": k, "expected": v} for k, v in gold.items()]
    )
    runs = []
    for name, pred in (("candidate", better), ("baseline", worse)):
        p = write_jsonl(
            tmp_path / f"{name}{n}.jsonl", [{"id": k, "predicted": v} for k, v in pred.items()]
        )
        run = assay.score("classification", pred=p, gold=g, ci=False, name=name)
        run.save(tmp_path / f"{name}{n}.json")
        runs.append(run)
    return runs[0], runs[1]


@pytest.mark.parametrize("n", sorted(LABELS))
def test_compare_and_its_signature_name_the_deciding_test(tmp_path: Path, n: int) -> None:
    method, head = LABELS[n]
    cand, base = _pair(tmp_path, n)
    result = compare(cand, base, significance=True, n_bootstrap=200)
    assert {r.method for r in result.significance} == {method}
    assert result.to_json()["signature"].startswith(f"{head}|task:classification|")
    assert all(r.n_units == n for r in result.significance)
    assert all(r.can_reject == (n > 5) for r in result.significance)


@pytest.mark.parametrize("n", sorted(LABELS))
def test_cli_paths_name_the_deciding_test(
    tmp_path: Path, n: int, capsys: pytest.CaptureFixture[str]
) -> None:
    method, head = LABELS[n]
    _pair(tmp_path, n)
    cand, base = str(tmp_path / f"candidate{n}.json"), str(tmp_path / f"baseline{n}.json")
    assert main(["significance", cand, base, "--n-bootstrap", "200"]) == 0
    out = capsys.readouterr().out
    assert f"\nsignature: {head}|task:classification|" in out
    assert ("this sample can never reject" in out) == (n <= 5)
    assert "smallest detectable Δ (power 0.8): exact_match " in out
    code = main(["gate", cand, "--baseline", base, "--format", "json"])
    gate_json = json.loads(capsys.readouterr().out)
    assert code == 0 and gate_json["family"]["name"] == "gated"
    assert gate_json["test"] == {"exact_sign_flip": "exact sign-flip",
                                 "approximate_randomization": "approximate randomization",
                                 "paired_bootstrap": "paired bootstrap"}[method]  # fmt: skip
    assert main(["ab", cand, "--baseline", base, "-o", str(tmp_path / "ab.json")]) == 0
    ab = json.loads((tmp_path / "ab.json").read_text())
    assert ab["test"] == method and ab["can_reject"] == (n > 5)
    capsys.readouterr()


def test_ab_never_declares_a_win_on_five_items(tmp_path: Path) -> None:
    """Every one of 5 items moved the candidate's way: the seed's bootstrap said "wins"; the
    exact test's smallest p is 2/2^5 = 0.0625, so nothing can be significant."""
    cand, base = _pair(tmp_path, 5, wrong_every=1)
    result = ab_compare(candidate=cand, baseline=base)
    assert result.delta is not None and result.delta > 0.5
    assert result.test == "exact_sign_flip" and not result.can_reject
    assert "wins" not in result.verdict and "nothing can be significant" in result.verdict
    assert result.cannot_reject and "0.0625" in result.cannot_reject
    big = ab_compare(candidate=_pair(tmp_path, 80)[0], baseline=_pair(tmp_path, 80)[1])
    assert big.verdict == "candidate wins" and big.test == "paired_bootstrap"


def test_the_family_is_stated_and_adjusted_everywhere(tmp_path: Path) -> None:
    cand, base = _pair(tmp_path, 80)
    result = compare(cand, base, significance=True, n_bootstrap=200)
    data = result.to_json()
    assert data["family"] == {
        "name": "headline",
        "correction": "holm",
        "controls": "family-wise error rate (Holm)",
        "n_tests": len(data["significance"]),
        "n_pairs": 1,
    }
    tiers = {m["name"]: m["tier"] for m in data["metrics"]}
    assert {tiers[s["metric_name"]] for s in data["significance"]} <= {"headline", "core"}
    raw = [s["p_value"] for s in data["significance"]]
    assert [s["p_adjusted"] for s in data["significance"]] == adjust_p_values(raw, "holm")
    assert all((s["significant"]) == (s["p_adjusted"] < 0.05) for s in data["significance"])
    assert data["signature"].endswith(f"|family:headline|correction:holm|assay:{assay.__version__}")

    from assay._report.comparison_text import comparison_text
    from assay._report.html import render_markdown, render_report

    text = comparison_text(result, tiers=("headline", "core"))
    assert "p-value  p-adj    Sig?" in text
    assert "family: headline, " in text and "controls the family-wise error rate" in text
    md = render_markdown([cand, base], comparison=result)
    assert "p adjusted (Holm over the headline family)" in md and "`*` adjusted p < 0.05" in md
    html = render_report([cand, base], comparison=result)
    assert "p adjusted <span" in html and "smallest detectable Δ (power 0.8)" in html


@pytest.mark.parametrize("correction", ["bh", "none"])
def test_other_corrections(tmp_path: Path, correction: str) -> None:
    cand, base = _pair(tmp_path, 80)
    data = compare(cand, base, significance=True, n_bootstrap=200, correction=correction).to_json()
    raw = [s["p_value"] for s in data["significance"]]
    assert [s["p_adjusted"] for s in data["significance"]] == adjust_p_values(raw, correction)
    assert data["family"]["correction"] == correction
    assert f"|correction:{correction}|" in data["signature"]


def test_family_all_adds_every_metric_and_per_class_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _pair(tmp_path, 80)
    cand, base = str(tmp_path / "candidate80.json"), str(tmp_path / "baseline80.json")
    out = tmp_path / "all.json"
    assert main(["compare", cand, base, "--significance", "--family", "all", "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    names = {s["metric_name"] for s in data["significance"]}
    assert {"accuracy[a]", "accuracy[b]", "accuracy[c]", "macro_accuracy_usable"} <= names
    assert data["family"]["name"] == "all" and data["family"]["n_tests"] == len(names)
    assert "family: all, " in capsys.readouterr().out
    assert main(["compare", cand, base, "--significance", "-o", str(out)]) == 0
    assert not {"accuracy[a]"} & {
        s["metric_name"] for s in json.loads(out.read_text())["significance"]
    }


def test_compare_of_k_runs_adjusts_over_every_pair(tmp_path: Path) -> None:
    cand, base = _pair(tmp_path, 30)
    gold = {f"i{k}": CLASSES[k % 3] for k in range(30)}
    third_pred = {k: ("c" if j % 4 == 0 else v) for j, (k, v) in enumerate(gold.items())}
    p = write_jsonl(
        tmp_path / "third.jsonl", [{"id": k, "predicted": v} for k, v in third_pred.items()]
    )
    third = assay.score(
        "classification", pred=p, gold=tmp_path / "gold30.jsonl", ci=False, name="third"
    )
    result = compare(cand, base, third, significance=True)
    flat = result.tests
    assert len(result.pairs) == 3 and result.to_json()["family"]["n_pairs"] == 3
    assert [r.p_adjusted for r in flat] == adjust_p_values([r.p_value for r in flat], "holm")


def test_gate_controls_its_family(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The gated metrics are one family: Holm over them by default; --correction none tests
    each at α (and so can fail where Holm does not)."""
    base, cand = _pair(tmp_path, 80, wrong_every=9)  # the worse run is the one gated
    res = gate(cand, baseline=base, max_failed=1.0)
    assert res.family is not None and res.family["name"] == "gated"
    assert res.family["n_tests"] == len(res.baseline_checks)
    assert res.family["controls"] == "family-wise error rate (Holm)"
    raw = [c.p_value for c in res.baseline_checks if c.p_value is not None]
    adj = [c.p_adjusted for c in res.baseline_checks if c.p_value is not None]
    assert adj == adjust_p_values(raw, "holm")
    wide = gate(cand, baseline=base, max_failed=1.0, family="all")
    assert wide.family is not None and wide.family["n_tests"] > res.family["n_tests"]
    args = ["gate", str(tmp_path / "baseline80.json"), "--baseline",
            str(tmp_path / "candidate80.json"), "--max-failed", "1"]  # fmt: skip
    main(args)
    printed = capsys.readouterr().out
    assert "family: gated, " in printed and "a regression needs p-adj < 0.05" in printed
    assert "p-adj" in printed


def test_mt_sacrebleu_clusters_and_family(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [f"the cat number {i} sat on the mat near door {i % 7}" for i in range(40)]
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    base = tmp_path / "base.txt"
    base.write_text("".join(x.replace("cat", "dog") + "\n" for x in lines), encoding="utf-8")
    sys1 = tmp_path / "sys1.txt"
    sys1.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    sys2 = tmp_path / "sys2.txt"
    sys2.write_text("".join(x.replace("mat", "rug") + "\n" for x in lines), encoding="utf-8")
    docs = tmp_path / "docids.tsv"
    docs.write_text("".join(f"{i}\tdoc{i // 5}\n" for i in range(40)), encoding="utf-8")
    args = ["mt", "sacrebleu", "-r", str(ref), "-i", str(base), str(sys1), str(sys2), "-o", "-"]
    assert main(args) == 0
    plain = json.loads(capsys.readouterr().out)
    assert plain["family"]["n_tests"] == 4 and plain["family"]["n_pairs"] == 2
    tests = [r for rs in plain["significance"].values() for r in rs]
    assert {r["method"] for r in tests} == {"approximate_randomization"}  # 40 segments
    assert [r["p_adjusted"] for r in tests] == adjust_p_values([r["p_value"] for r in tests])
    assert main([*args, "--clusters", str(docs)]) == 0
    clustered = json.loads(capsys.readouterr().out)
    assert clustered["unit"] == "document" and clustered["n_units"] == 8
    tests = [r for rs in clustered["significance"].values() for r in rs]
    assert {(r["method"], r["unit"], r["n_units"]) for r in tests} == {
        ("exact_sign_flip", "document", 8)
    }
    assert "|cl:document|units:8|" in clustered["signature_lines"][0]
    assert clustered["signature_lines"][0].startswith("signature: exact|")
    wide = clustered["systems"][1]["scores"]["corpus_chrf"]
    narrow = plain["systems"][1]["scores"]["corpus_chrf"]
    assert wide["value"] == narrow["value"]
    assert main([*args, "--p-value", "sacrebleu"]) == 0  # sacrebleu's rule keeps its test
    kept = json.loads(capsys.readouterr().out)
    assert {r["method"] for rs in kept["significance"].values() for r in rs} == {
        "paired_bootstrap_sacrebleu"
    }


def test_mt_sacrebleu_on_five_segments_is_exact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """sacrebleu's bootstrap prints p = 0.0000 on 5 segments; the dispatch gives 2/2^5."""
    lines = [f"a short sentence number {i} about the weather" for i in range(5)]
    ref, base, system = (tmp_path / n for n in ("ref.txt", "base.txt", "sys.txt"))
    ref.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    base.write_text("".join("nothing at all\n" for _ in lines), encoding="utf-8")
    system.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    assert main(["mt", "sacrebleu", "-r", str(ref), "-i", str(base), str(system)]) == 0
    out = capsys.readouterr().out
    assert "p=0.062" in out and "p=0.0000" not in out and "p<0.001" not in out
    assert "this sample can never reject" in out
    assert "\nsignature: exact|task:translation|" in out
