"""Vectorized corpus formulas of sacrebleu 2.x: the built-in metric kinds ``sacrebleu_bleu``,
``sacrebleu_chrf``, ``sacrebleu_ter`` and seed 001's ``rate_or_zero``.

Each kind maps column sums ``(..., k)`` to scores ``(...)`` exactly as sacrebleu's
``_compute_score_from_stats`` maps one summed statistics vector to a score, step for step (the
loops run over n-gram orders, never over resamples). The last column is the number of
segments with a reference: where it is 0 the score is undefined (NaN).

:mod:`assay.metrics.kinds` registers these functions, with their ranges, directions and the
example statistics below (``*_sample``), and imports this module the first time one of them is
asked for; nothing here imports the registry.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

#: sacrebleu's ``my_log(0)``: log floored to a very low number
_LOG_ZERO = -9999999999.0
#: sacrebleu's BLEU.SMOOTH_DEFAULTS
_SMOOTH_DEFAULTS = {"none": None, "floor": 0.1, "add-k": 1.0, "exp": None}


def _floored_log(x: FloatArray) -> FloatArray:
    """sacrebleu's ``my_log``: log(x), and -9999999999 where x == 0."""
    out = np.full(x.shape, _LOG_ZERO)
    np.log(x, out=out, where=x != 0)
    return out


def _undefined_where_empty(score: FloatArray, segments: FloatArray) -> FloatArray:
    return np.where(segments > 0, score, np.nan)


def bleu_kind(
    sums: FloatArray,
    /,
    max_ngram_order: int = 4,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = False,
    **_: Any,
) -> FloatArray:
    """sacrebleu ``BLEU.compute_bleu`` on sums [sys_len, ref_len, correct_1..n, total_1..n]:

    BLEU = BP · exp(Σ_{n ≤ N'} log p_n / N'), p_n = 100·correct_n/total_n (smoothed when
    correct_n = 0: 'exp' 100/(2^k·total_n) for the k-th zero, 'floor' 100·v/total_n), orders
    from the first with total_n = 0 on contribute p_n = 0 (log floored); BP = 1 if sys ≥ ref,
    exp(1 − ref/sys) if 0 < sys < ref, 0 if sys = 0; 0 when no n-gram matches at all.
    """
    n = int(max_ngram_order)
    sys_len, ref_len = sums[..., 0], sums[..., 1]
    correct = sums[..., 2 : 2 + n].copy()
    total = sums[..., 2 + n : 2 + 2 * n].copy()
    default = _SMOOTH_DEFAULTS[smooth_method]
    value = float(smooth_value if smooth_value is not None else default or 0.0)

    ratio = np.divide(ref_len, sys_len, out=np.zeros_like(sys_len), where=sys_len > 0)
    bp = np.where(sys_len < ref_len, np.where(sys_len > 0, np.exp(1 - ratio), 0.0), 1.0)
    any_match = np.any(correct != 0, axis=-1)

    smooth_mteval = np.ones_like(sys_len)
    alive = np.ones(sys_len.shape, dtype=bool)  # no order with total = 0 seen yet
    eff_order = np.full(sys_len.shape, float(n))
    log_sum = np.zeros_like(sys_len)
    precisions = []
    for i in range(n):
        if smooth_method == "add-k" and i > 0:
            correct[..., i] += value
            total[..., i] += value
        c, t = correct[..., i], total[..., i]
        alive = alive & (t != 0)
        if effective_order:
            eff_order = np.where(alive, float(i + 1), eff_order)
        safe_t = np.where(t != 0, t, 1.0)
        zero = c == 0
        if smooth_method == "exp":
            smooth_mteval = np.where(alive & zero, smooth_mteval * 2, smooth_mteval)
            smoothed = 100.0 / (smooth_mteval * safe_t)
        elif smooth_method == "floor":
            smoothed = 100.0 * value / safe_t
        else:
            smoothed = np.zeros_like(c)
        p = np.where(zero, smoothed, 100.0 * c / safe_t)
        precisions.append(np.where(alive, p, 0.0))
    for i in range(n):
        term = _floored_log(precisions[i])
        # sacrebleu sums the first eff_order precisions (all n unless effective_order)
        log_sum = log_sum + np.where(i < eff_order, term, 0.0)
    score = bp * np.exp(log_sum / eff_order)
    score = np.where(any_match, score, 0.0)
    return _undefined_where_empty(score, sums[..., 2 + 2 * n])


def chrf_kind(
    sums: FloatArray,
    /,
    order: int = 8,
    beta: int = 2,
    eps_smoothing: bool = False,
    **_: Any,
) -> FloatArray:
    """sacrebleu ``CHRF._compute_f_score`` on sums of [hyp, ref, match] per order:

    P_k = match/hyp, R_k = match/ref (ε = 1e-16 when the count is 0). Default: average P and R
    over the orders with hyp > 0 and ref > 0, then 100·(1+β²)·P·R / (β²·P + R) (0 when
    P + R = 0 or no order qualifies). With eps_smoothing: 100 · mean over orders of F_k.
    """
    eps = 1e-16
    factor = float(beta) ** 2
    shape = sums.shape[:-1]
    score = np.zeros(shape)
    avg_prec = np.zeros(shape)
    avg_rec = np.zeros(shape)
    effective = np.zeros(shape)
    for i in range(int(order)):
        n_hyp, n_ref, n_match = sums[..., 3 * i], sums[..., 3 * i + 1], sums[..., 3 * i + 2]
        prec = np.where(n_hyp > 0, n_match / np.where(n_hyp > 0, n_hyp, 1.0), eps)
        rec = np.where(n_ref > 0, n_match / np.where(n_ref > 0, n_ref, 1.0), eps)
        denom = factor * prec + rec
        f = np.where(denom > 0, (1 + factor) * prec * rec / np.where(denom > 0, denom, 1.0), eps)
        score = score + f
        both = (n_hyp > 0) & (n_ref > 0)
        avg_prec = avg_prec + np.where(both, prec, 0.0)
        avg_rec = avg_rec + np.where(both, rec, 0.0)
        effective = effective + both
    if eps_smoothing:
        result = 100 * score / int(order)
    else:
        has = effective > 0
        avg_prec = np.where(has, avg_prec / np.where(has, effective, 1.0), 0.0)
        avg_rec = np.where(has, avg_rec / np.where(has, effective, 1.0), 0.0)
        nonzero = (avg_prec + avg_rec) != 0
        f = (1 + factor) * avg_prec * avg_rec
        f = f / np.where(nonzero, (factor * avg_prec) + avg_rec, 1.0)
        result = np.where(nonzero, 100 * f, 0.0)
    return _undefined_where_empty(result, sums[..., 3 * int(order)])


def ter_kind(sums: FloatArray, /, **_: Any) -> FloatArray:
    """sacrebleu ``TER`` on sums [edits, ref_length]: 100·edits/ref_length; 100 when the
    references are empty but there are edits; 0 when both are empty."""
    edits, ref_len = sums[..., 0], sums[..., 1]
    ratio = np.divide(edits, ref_len, out=np.zeros_like(edits), where=ref_len > 0)
    score = np.where(ref_len > 0, ratio, np.where(edits > 0, 1.0, 0.0))
    return _undefined_where_empty(100 * score, sums[..., 2])


def rate_or_zero_kind(sums: FloatArray, /) -> FloatArray:
    """Seed 001's exact_match_rate: Σnum / Σden, and 0.0 when no entry counts (den = 0)."""
    num, den = sums[..., 0], sums[..., 1]
    return np.divide(num, den, out=np.zeros_like(num), where=den != 0)


# ---------------------------------------------------------------- example statistics


def bleu_sample(rng: np.random.Generator, n: int) -> FloatArray:
    """n segments' BLEU statistics [sys_len, ref_len, correct_1..4, total_1..4, 1]: totals
    as a hypothesis of sys_len tokens has them, matches at most the totals and the reference's
    n-grams, fewer for each longer order."""
    sys_len = rng.integers(0, 25, size=n).astype(np.float64)
    ref_len = rng.integers(1, 25, size=n).astype(np.float64)
    rows = np.zeros((n, 11))
    rows[:, 0], rows[:, 1], rows[:, 10] = sys_len, ref_len, 1.0
    correct = np.minimum(sys_len, ref_len)
    for k in range(4):
        total = np.maximum(sys_len - k, 0.0)
        correct = np.minimum(np.floor(correct * rng.random(n) ** 0.5), np.maximum(ref_len - k, 0))
        rows[:, 2 + k] = np.minimum(correct, total)
        rows[:, 6 + k] = total
    return rows


def chrf_sample(rng: np.random.Generator, n: int) -> FloatArray:
    """n segments' chrF++ statistics (8 orders of [hyp, ref, match], then 1): n-gram counts
    of each side, matches at most the smaller."""
    rows = np.zeros((n, 25))
    for i in range(8):
        hyp = rng.integers(0, 40, size=n).astype(np.float64)
        ref = rng.integers(0, 40, size=n).astype(np.float64)
        rows[:, 3 * i], rows[:, 3 * i + 1] = hyp, ref
        rows[:, 3 * i + 2] = np.floor(np.minimum(hyp, ref) * rng.random(n))
    rows[:, 24] = 1.0
    return rows


def ter_sample(rng: np.random.Generator, n: int) -> FloatArray:
    """n segments' TER statistics [edits, ref_length, 1]."""
    edits = rng.integers(0, 15, size=n).astype(np.float64)
    ref_len = rng.integers(0, 25, size=n).astype(np.float64)
    return np.column_stack([edits, ref_len, np.ones(n)])


def rate_sample(rng: np.random.Generator, n: int) -> FloatArray:
    """n entries' [num, den]: den 0 or 1 (counts or not), num at most den."""
    den = rng.integers(0, 2, size=n).astype(np.float64)
    return np.column_stack([den * (rng.random(n) < 0.5), den])
