"""Compatibility mode: assay's ``p_value="sacrebleu"`` reproduces sacrebleu's own p-values exactly.

Sentence-level BLEU and chrF++ sufficient statistics come from sacrebleu itself, the corpus
score from sacrebleu's ``_compute_score_from_stats`` (through a test-only metric kind that loops
over rows — slow, fine in a test). sacrebleu's ``_paired_bs_test`` / ``_paired_ar_test`` are
called exactly as ``sacrebleu.significance.PairedTest`` calls them, with the same seed.

Floating point, mirrored on purpose so the comparison can be exact: sacrebleu's bootstrap casts
the statistics to float32 before resampling, so its resampled scores are computed from float32
sums (integer counts, so the sums themselves are exact), while its observed Δ and all of its AR
scores are computed from integer statistics. The test kind does the same: a 1-D sum (the point
estimate) is scored in float64, a stack of resampled sums in ``resample_dtype``.
"""

from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.metrics.base import Metric
from sacrebleu.significance import _paired_ar_test, _paired_bs_test

from assay.metrics import MetricSpec, StatsTable, register_kind
from assay.stats import approximate_randomization_test, paired_bootstrap_test

SEED = 12345

_METRICS: dict[str, Metric] = {"bleu": BLEU(), "chrf": CHRF(word_order=2)}


def _sacrebleu_kind(metric: Metric):
    def finalize(sums: np.ndarray, /, resample_dtype: str = "float64") -> np.ndarray:
        sums = np.asarray(sums, dtype=np.float64)
        rows = sums.reshape(-1, sums.shape[-1])
        if sums.ndim > 1:
            rows = rows.astype(resample_dtype)
        scores = [metric._compute_score_from_stats(row).score for row in rows]
        return np.asarray(scores, dtype=np.float64).reshape(sums.shape[:-1])

    return finalize


for _name, _metric in _METRICS.items():
    register_kind(f"test_sacrebleu_{_name}")(_sacrebleu_kind(_metric))


# ---------------------------------------------------------------- synthetic corpus


def _corpus(n: int = 120, seed: int = 2024) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """References, a baseline that garbles 30% of the words, and systems at several distances
    from it, so that the p-values cover the interior of (0, 1), not only p = 1/(B+1)."""
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}" for i in range(300)]

    def garble(words: list[str], rate: float) -> str:
        out = []
        for w in words:
            u = rng.random()
            if u < rate * 0.7:
                out.append(vocab[rng.integers(0, len(vocab))])  # substitution
            elif u >= rate:
                out.append(w)  # kept (else: deleted)
            if rng.random() < 0.05:
                out.append(vocab[rng.integers(0, len(vocab))])  # insertion
        return " ".join(out) + "."

    refs_words = [[vocab[i] for i in rng.integers(0, 300, rng.integers(4, 25))] for _ in range(n)]
    refs = [" ".join(w) + "." for w in refs_words]
    baseline = [garble(w, 0.30) for w in refs_words]
    # sacrebleu's p-values (bs, ar), BLEU / chrF++, B = R = 1000, seed 12345, as measured:
    systems = {
        "garble_0.24": [garble(w, 0.24) for w in refs_words],  # .017, .061 / .005, .016
        "garble_0.28": [garble(w, 0.28) for w in refs_words],  # .356, .906 / .139, .400
        "garble_0.30": [garble(w, 0.30) for w in refs_words],  # .003, .008 / .021, .039
    }
    return refs, baseline, systems


REFS, BASELINE, SYSTEMS = _corpus()


def _tables(name: str, hyps_a: list[str], hyps_b: list[str]) -> tuple[StatsTable, StatsTable]:
    metric = _METRICS[name]
    ids = tuple(f"s{i}" for i in range(len(REFS)))
    stats_a = np.asarray(metric._extract_corpus_statistics(hyps_a, [REFS]), dtype=np.float64)
    stats_b = np.asarray(metric._extract_corpus_statistics(hyps_b, [REFS]), dtype=np.float64)
    columns = tuple(f"{name}_{k}" for k in range(stats_a.shape[1]))
    return StatsTable(ids, columns, stats_a), StatsTable(ids, columns, stats_b)


def _spec(name: str, resample_dtype: str) -> MetricSpec:
    metric = _METRICS[name]
    n_stats = len(metric._extract_corpus_statistics(REFS[:1], [REFS[:1]])[0])
    return MetricSpec(
        name,
        f"test_sacrebleu_{name}",
        tuple(f"{name}_{k}" for k in range(n_stats)),
        params={"resample_dtype": resample_dtype},
    )


def _baseline_info(name: str, hyps: list[str]) -> dict:
    """As ``PairedTest.__init__`` builds it: {name: (baseline stats, baseline score)}."""
    metric = _METRICS[name]
    stats = metric._extract_corpus_statistics(hyps, [REFS])
    return {name: (stats, metric._aggregate_and_compute(stats))}


metric_names = pytest.mark.parametrize("name", sorted(_METRICS))
system_names = pytest.mark.parametrize("system", sorted(SYSTEMS))


@metric_names
def test_corpus_score_equals_sacrebleu(name: str) -> None:
    table_sys, _ = _tables(name, SYSTEMS["garble_0.24"], BASELINE)
    spec = _spec(name, "float64")
    expected = _METRICS[name].corpus_score(SYSTEMS["garble_0.24"], [REFS]).score
    assert spec.value(table_sys) == expected
    # the kind is vectorized over leading axes like every kind
    sums = np.stack([table_sys.sums(), table_sys.values[:10].sum(axis=0)])
    got = spec.finalize(sums)
    assert got.shape == (2,) and got[0] == expected


@metric_names
@system_names
@pytest.mark.parametrize("reverse", [False, True], ids=["sys-vs-base", "base-vs-sys"])
def test_paired_bootstrap_p_value_equals_sacrebleus(name: str, system: str, reverse: bool) -> None:
    """A is the system and B the baseline, or the reverse (sacrebleu's statistic uses |Δ|)."""
    hyps_a, hyps_b = (BASELINE, SYSTEMS[system]) if reverse else (SYSTEMS[system], BASELINE)
    n_samples = 1000
    _, ref = _paired_bs_test(
        _baseline_info(name, hyps_b),
        "system",
        hyps_a,
        [REFS],
        {name: _METRICS[name]},
        n_samples=n_samples,
        seed=SEED,
    )
    table_a, table_b = _tables(name, hyps_a, hyps_b)
    (ours,) = paired_bootstrap_test(
        table_a,
        table_b,
        [_spec(name, "float32")],
        n_resamples=n_samples,
        seed=SEED,
        p_value="sacrebleu",
    )
    assert ours.p_value == ref[name].p_value
    assert ours.system_a_score == ref[name].score
    assert ours.method == "paired_bootstrap_sacrebleu"


@metric_names
@system_names
def test_approximate_randomization_p_value_equals_sacrebleus(name: str, system: str) -> None:
    n_trials = 1000
    _, ref = _paired_ar_test(
        _baseline_info(name, BASELINE),
        "system",
        SYSTEMS[system],
        [REFS],
        {name: _METRICS[name]},
        n_samples=n_trials,
        seed=SEED,
    )
    table_a, table_b = _tables(name, SYSTEMS[system], BASELINE)
    (ours,) = approximate_randomization_test(
        table_a,
        table_b,
        [_spec(name, "float64")],
        n_trials=n_trials,
        n_bootstrap_ci=100,
        seed=SEED,
        p_value="sacrebleu",
    )
    assert ours.p_value == ref[name].p_value
    assert ours.system_a_score == ref[name].score
    assert ours.n_bootstrap == n_trials


def test_parity_is_not_vacuous() -> None:
    """The corpus gives p-values well inside (0, 1), where an off-by-one or a wrong side
    would show, and the assay rule differs from sacrebleu's on the same draws."""
    table_a, table_b = _tables("bleu", SYSTEMS["garble_0.28"], BASELINE)
    spec = _spec("bleu", "float32")
    kw = {"n_resamples": 1000, "seed": SEED}
    (sb,) = paired_bootstrap_test(table_a, table_b, [spec], p_value="sacrebleu", **kw)
    (ours,) = paired_bootstrap_test(table_a, table_b, [spec], **kw)
    assert 0.05 < sb.p_value < 0.5
    assert ours.p_value != sb.p_value
    assert ours.delta is not None and ours.delta > 0
