"""Real data: WMT22 cs-en and de-en system outputs (../shared/data/mt/wmt22). Scores equal
sacrebleu's corpus_score and ``--p-value sacrebleu`` equals sacrebleu's own paired tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import Result, _paired_ar_test, _paired_bs_test

from assay.suites.translation import bleu_metric, chrf_metric, compare_systems, score_text_systems
from assay.suites.translation._lib.systems import read_lines
from tests.suites.translation.wmt22 import NEEDS_WMT22, WMT22

WMT = WMT22
pytestmark = NEEDS_WMT22
N = 300  # segments per system: enough for real statistics, small enough for CI time


def _files(pair: str, kind: str, name: str) -> Path:
    tgt = pair.split("-")[1]
    return WMT / pair / f"generaltest2022.{pair}.{kind}.{name}.{tgt}"


def _head(path: Path, tmp: Path, n: int = N) -> Path:
    out = tmp / path.name
    out.write_text("".join(line + "\n" for line in read_lines(path, "test")[:n]), encoding="utf-8")
    return out


@pytest.mark.parametrize(
    ("pair", "refs", "systems"),
    [
        ("de-en", ["A"], ["Online-B", "LT22", "Online-W"]),
        ("cs-en", ["B", "C"], ["Online-B", "CUNI-DocTransformer"]),
    ],
)
def test_scores_equal_sacrebleu(
    tmp_path: Path, pair: str, refs: list[str], systems: list[str]
) -> None:
    ref_paths = [_head(_files(pair, "ref", r), tmp_path) for r in refs]
    sys_paths = [_head(_files(pair, "hyp", s), tmp_path) for s in systems]
    metrics = [bleu_metric(), chrf_metric()]
    tables, specs = score_text_systems(ref_paths, sys_paths, metrics, jobs=2)
    ref_lines = [read_lines(p, "ref") for p in ref_paths]
    for path, table in zip(sys_paths, tables, strict=True):
        hyps = read_lines(path, "hyp")
        assert specs[0].value(table) == pytest.approx(
            BLEU().corpus_score(hyps, ref_lines).score, abs=1e-9
        )
        assert specs[1].value(table) == pytest.approx(
            CHRF(word_order=2).corpus_score(hyps, ref_lines).score, abs=1e-9
        )
    assert specs[1].params["signature"].startswith(f"nrefs:{len(refs)}|")


@pytest.mark.parametrize("method", ["bootstrap", "ar"])
def test_sacrebleu_p_values_reproduced(tmp_path: Path, method: str) -> None:
    names = ["Online-B", "LT22", "Online-W", "JDExploreAcademy"]
    ref_path = _head(_files("de-en", "ref", "A"), tmp_path)
    sys_paths = [_head(_files("de-en", "hyp", s), tmp_path) for s in names]
    metrics = {"BLEU": BLEU(), "chrF2++": CHRF(word_order=2)}
    refs = [read_lines(ref_path, "ref")]
    hyps = [read_lines(p, "hyp") for p in sys_paths]
    n = 1000 if method == "bootstrap" else 2000
    tables, specs = score_text_systems([ref_path], sys_paths, [bleu_metric(), chrf_metric()])
    ours = compare_systems(
        names, names, tables, specs, method="bootstrap" if method == "bootstrap" else "ar",
        p_value="sacrebleu", n_resamples=n, seed=12345, n_bootstrap_ci=100,
    )  # fmt: skip
    baseline = {}
    for name, metric in metrics.items():
        stats = metric._extract_corpus_statistics(hyps[0], refs)
        baseline[name] = (stats, Result(metric._aggregate_and_compute(stats).score))
    test = _paired_bs_test if method == "bootstrap" else _paired_ar_test
    for k in range(1, len(names)):
        _, theirs = test(baseline, names[k], hyps[k], refs, metrics, n_samples=n, seed=12345)
        mine = {r.metric_name: r for r in ours.significance[names[k]]}
        assert mine["corpus_bleu"].p_value == theirs["BLEU"].p_value
        assert mine["corpus_chrf"].p_value == theirs["chrF2++"].p_value
        assert mine["corpus_chrf"].system_a_score == pytest.approx(theirs["chrF2++"].score)
    # the assay rule on the same draws: two-sided, consistent with the CI of Δ
    assay_rule = compare_systems(names, names, tables, specs, n_resamples=1000, n_bootstrap_ci=100)
    for results in assay_rule.significance.values():
        for r in results:
            assert r.ci_lower is not None and r.ci_upper is not None
            excludes_zero = r.ci_lower > 0 or r.ci_upper < 0
            assert r.significant == excludes_zero or np.isclose(r.p_value, 0.05, atol=0.003)
