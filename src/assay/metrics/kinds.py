"""The metric kinds: vectorized maps from column sums ``(..., k)`` to scores ``(...)``.

Each kind reads like its definition; undefined values (0/0) are NaN and become null upstream.
A task may register its own kind (corpus BLEU, chrF...) with :func:`register_kind`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from assay.errors import UsageError

FloatArray = NDArray[np.float64]


#: ``fn(sums, **params) -> scores``: sums has shape (..., k), scores shape (...)
KindFunction = Callable[..., FloatArray]


_KINDS: dict[str, KindFunction] = {}


def register_kind(name: str) -> Callable[[KindFunction], KindFunction]:
    """Register ``fn(sums, **params)`` under ``name``; re-registering the same name replaces it."""

    def decorate(fn: KindFunction) -> KindFunction:
        _KINDS[name] = fn
        return fn

    return decorate


def get_kind(name: str) -> KindFunction:
    try:
        return _KINDS[name]
    except KeyError:
        from assay._engine.registry import load_task_plugins

        load_task_plugins()  # a task plugin may register the kind on import
        if name in _KINDS:
            return _KINDS[name]
        raise UsageError(f"unknown metric kind {name!r}; known: {sorted(_KINDS)}") from None


def known_kinds() -> list[str]:
    return sorted(_KINDS)


def safe_divide(num: FloatArray, den: FloatArray) -> FloatArray:
    """num / den elementwise, NaN where den == 0."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.full(np.broadcast(num, den).shape, np.nan)
    np.divide(num, den, out=out, where=den != 0)
    return out


@register_kind("mean")
def mean_kind(sums: FloatArray, /) -> FloatArray:
    """Mean of a per-item score over items where it is defined: Σv / Σ[v defined]."""
    return safe_divide(sums[..., 0], sums[..., 1])


@register_kind("ratio")
def ratio_kind(sums: FloatArray, /) -> FloatArray:
    """Micro ratio: Σnum / Σden (accuracy, recall over pooled counts)."""
    return safe_divide(sums[..., 0], sums[..., 1])


@register_kind("precision")
def precision_kind(sums: FloatArray, /) -> FloatArray:
    """Precision over pooled counts: tp / (tp + fp)."""
    return safe_divide(sums[..., 0], sums[..., 0] + sums[..., 1])


@register_kind("recall")
def recall_kind(sums: FloatArray, /) -> FloatArray:
    """Recall over pooled counts: tp / (tp + fn)."""
    return safe_divide(sums[..., 0], sums[..., 0] + sums[..., 1])


@register_kind("fbeta")
def fbeta_kind(sums: FloatArray, /, beta: float = 1.0) -> FloatArray:
    """F-beta over pooled counts (tp, fp, fn): (1+β²)tp / ((1+β²)tp + β²fn + fp)."""
    tp, fp, fn = sums[..., 0], sums[..., 1], sums[..., 2]
    b2 = float(beta) ** 2
    return safe_divide((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)


@register_kind("macro")
def macro_kind(sums: FloatArray, /) -> FloatArray:
    """Macro average: mean over classes with count > 0 of correct[c] / count[c].

    Columns come in pairs (correct[c], count[c]); a class absent from a resample is skipped.
    """
    if sums.shape[-1] % 2:
        raise UsageError("macro kind needs (correct, count) column pairs")
    correct = sums[..., 0::2]
    count = sums[..., 1::2]
    per_class = safe_divide(correct, count)
    present = count > 0
    n_present = present.sum(axis=-1)
    total = np.where(present, per_class, 0.0).sum(axis=-1)
    return safe_divide(total, n_present.astype(np.float64))


@register_kind("macro_fbeta")
def macro_fbeta_kind(sums: FloatArray, /, beta: float = 1.0) -> FloatArray:
    """Macro F-beta: the mean over classes seen (tp + fp + fn > 0) of each class's F-beta from
    its (tp, fp, fn) column triple, (1+β²)tp / ((1+β²)tp + β²fn + fp). Used by
    ``f1(average="macro")`` (metrics/functions.py); registered here with the other built-in
    kinds, so it is known without importing the metric functions."""
    tp, fp, fn = sums[..., 0::3], sums[..., 1::3], sums[..., 2::3]
    b2 = float(beta) ** 2
    per_class = safe_divide((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)
    seen = (tp + fp + fn) > 0
    total = np.where(seen, np.nan_to_num(per_class), 0.0).sum(axis=-1)
    return safe_divide(total, seen.sum(axis=-1).astype(np.float64))
