"""The run's summaries: the confusion matrix over usable rows, the per-class table over every
row (an unusable one is a miss, as in ``accuracy[c]``), and the counts of error, failed, missing
and invalid-label rows (seed 000 §2).

They are sums over items, so the engine takes them block by block as the items are scored
(:func:`summarize_block`, then :func:`merge_summaries`); :func:`summaries` is the whole run as
one block.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore, item_outcome
from assay.suites.classification._lib.groups import alike_groups
from assay.suites.classification.settings import ClassificationSettings


@dataclass
class SummaryPart:
    """A block's part of the summaries: confusion cells over usable rows, the unusable rows
    per gold class, and the counts."""

    counts: Counter[tuple[str, str]] = field(default_factory=Counter)  # (expected, predicted)
    unusable: Counter[str] = field(default_factory=Counter)  # expected → rows without an answer
    gold: set[str] = field(default_factory=set)
    n_error: int = 0
    n_failed: int = 0
    n_missing: int = 0
    n_invalid: int = 0


def summaries(
    items: Sequence[Item], scores: Sequence[ItemScore], settings: ClassificationSettings
) -> dict[str, Any]:
    """Confusion matrix over usable rows, per-class table over every row; failures counted."""
    return merge_summaries([summarize_block(items, scores, settings)], settings)


def summarize_block(
    items: Sequence[Item], scores: Sequence[ItemScore], settings: ClassificationSettings
) -> SummaryPart:
    """A block's confusion cells and counts.

    ``n_failed`` counts the items whose record says failed: unreadable predictions and items
    whose scoring raised (``item_outcome``). Alike items are counted once with their number
    (``alike_groups``: what an item adds depends on its score and its status only).
    """
    if len(items) != len(scores):
        raise ValueError(f"{len(items)} items but {len(scores)} scores")
    part = SummaryPart()
    for item, score, times in alike_groups(items, scores):
        expected, predicted = str(score.details["expected"]), score.details["predicted"]
        part.gold.add(expected)
        if predicted is not None:
            part.counts[(expected, str(predicted))] += times
        else:
            part.unusable[expected] += times
        part.n_error += times * ("error_row" in score.flags)
        part.n_invalid += times * ("invalid_label" in score.flags)
        status = item_outcome(item, score)[0]
        part.n_failed += times * (status == "failed")
        part.n_missing += times * (status == "missing")
    return part


def merge_summaries(parts: Sequence[Any], settings: ClassificationSettings) -> dict[str, Any]:
    """The summaries of the blocks' parts taken together: per-class accuracy is correct / n
    per expected class, n every row of it (``unusable`` of them had no usable answer); the
    matrix, over usable rows, has a row per expected and a column per predicted label."""
    counts: Counter[tuple[str, str]] = Counter()
    unusable: Counter[str] = Counter()
    gold: set[str] = set()
    n_error = n_failed = n_missing = n_invalid = 0
    for part in parts:
        assert isinstance(part, SummaryPart)
        counts.update(part.counts)
        unusable.update(part.unusable)
        gold |= part.gold
        n_error += part.n_error
        n_failed += part.n_failed
        n_missing += part.n_missing
        n_invalid += part.n_invalid
    labels = sorted({e for e, _ in counts} | {p for _, p in counts})
    per_class: dict[str, dict[str, float | int | None]] = {}
    for label in sorted({e for e, _ in counts} | set(unusable)):
        n = sum(v for (e, _), v in counts.items() if e == label) + unusable[label]
        ok = counts[(label, label)]
        per_class[label] = {
            "n": n,
            "correct": ok,
            "accuracy": ok / n if n else None,
            "unusable": unusable[label],
        }
    return {
        "confusion": {
            "labels": labels,
            "matrix": [[counts[(e, p)] for p in labels] for e in labels],
            "rows": "expected",
            "columns": "predicted",
        },
        "per_class": per_class,
        "n_error_rows": n_error,
        "n_failed": n_failed,
        "n_missing": n_missing,
        "n_invalid_label": n_invalid,
        "positive": settings.positive,
        "warnings": labels_warning(settings.labels, gold),
    }


def labels_warning(labels: Sequence[str] | None, gold: set[str]) -> list[str]:
    """A label set that leaves out gold classes changes normalization silently: say so."""
    left_out = sorted(gold - set(labels or ()) - {"", "None"}) if labels else []
    if not left_out:
        return []
    return [
        f"--labels leaves out {len(left_out)} gold class(es): {', '.join(left_out)}; "
        "predictions of them are normalized against the other labels only"
    ]
