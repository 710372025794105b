"""Confusion matrices, top confusions and per-class tables over (expected, predicted) pairs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any


def confusion(pairs: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """Expected × predicted counts over the given pairs (labels sorted, rows = expected)."""
    counts = Counter(pairs)
    labels = sorted({e for e, _ in pairs} | {p for _, p in pairs})
    return {
        "labels": labels,
        "matrix": [[counts[(e, p)] for p in labels] for e in labels],
        "rows": "expected",
        "columns": "predicted",
    }


def top_confusions(pairs: Sequence[tuple[str, str]], k: int = 5) -> list[dict[str, Any]]:
    """The ``k`` most frequent off-diagonal (expected, predicted) pairs, ties by label order."""
    counts = Counter((e, p) for e, p in pairs if e != p)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [{"expected": e, "predicted": p, "count": n} for (e, p), n in ranked[:k]]


def per_class(pairs: Sequence[tuple[str, str]]) -> dict[str, dict[str, float | int | None]]:
    """Per expected class: n, correct and accuracy = correct / n."""
    counts = Counter(pairs)
    table: dict[str, dict[str, float | int | None]] = {}
    for label in sorted({e for e, _ in pairs}):
        n = sum(v for (e, _), v in counts.items() if e == label)
        ok = counts[(label, label)]
        table[label] = {"n": n, "correct": ok, "accuracy": ok / n if n else None}
    return table
