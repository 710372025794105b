"""The drill-down order shared by reports, the store and the dashboard: worst items first."""

from __future__ import annotations

from collections.abc import Sequence

from assay.core.run import ItemRecord


def worst_first(items: Sequence[ItemRecord]) -> list[int]:
    """Positions of ``items``: failed and missing first, then by lowest per-item score."""

    def key(i: int) -> tuple[int, float, int]:
        item = items[i]
        values = [v for v in item.scores.values() if v is not None]
        return (0 if item.status != "ok" else 1, min(values) if values else 0.0, i)

    return sorted(range(len(items)), key=key)
