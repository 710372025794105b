"""One item scored into its statistics row: the scores another tool computed, reduced over the
item's samples.

===================  ========================================================================
``S``, ``S#n``       for each score ``S``: the item's value, :func:`reduce_samples` of its
                     scored samples (the mean by default, Inspect's own reducer); a missing
                     or failed item, or one with no scored sample of ``S``, counts 0 (a score
                     where lower is better leaves it out instead: 0 would be its best value);
                     a score that does not apply to the item (a promptfoo metric tag its test
                     does not use) leaves it out (``S#n`` = 0)
``S>=T``, ``…#n``    with a threshold: the share of the item's scored samples at or beyond
                     ``T`` (1 or 0 for one sample); 0 for a missing, failed or unscored item
``unscored``         1 when the item has no value for some score that applies to it (missing,
                     failed, or NaN / error in every sample), else 0
===================  ========================================================================

A sample is an Inspect epoch, a promptfoo repeat, or an lm-eval line: :func:`reduce_samples`
is where the samples of one item become one value (issue 32 generalizes samples engine-wide).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay.metrics.spec import mean_columns
from assay.suites.scores.settings import Reducer, ScoresSettings

UNSCORED = "unscored"


def reduce_samples(values: Sequence[float], how: Reducer = "mean") -> float:
    """One item's value from the values of its scored samples (at least one).

    ``mean`` is Σ v / k over the k scored samples: Inspect's default epoch reducer, so the mean
    over items equals the log's own ``accuracy`` / ``mean`` when every item has a scored epoch.
    ``median``, ``max`` and ``min`` are Inspect's reducers of those names.
    """
    if how == "mean":
        return sum(values) / len(values)
    if how == "median":
        return float(statistics.median(values))
    if how == "max":
        return max(values)
    return min(values)


def _usable(samples: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [s for s in samples if not s.get("error")]


def sample_values(samples: Sequence[Mapping[str, Any]], score: str) -> tuple[list[float], bool]:
    """(the scored values of ``score`` over the item's samples, whether it applies to any)."""
    values: list[float] = []
    applies = False
    for s in _usable(samples):
        scores = s["scores"]
        if score in scores:
            applies = True
            v = scores[score]
            if v is not None:
                values.append(float(v))
    return values, applies


def score_item(item: Item, settings: ScoresSettings) -> ItemScore:
    """The item's value of every score, its threshold pass shares and its ``unscored`` flag."""
    ok = item.status == "ok" and item.pred is not None
    samples: list[Mapping[str, Any]] = item.pred.get("samples", []) if ok and item.pred else []
    lower = set(settings.lower)
    stats: dict[str, float] = {}
    shown: dict[str, float | None] = {}
    unscored: list[str] = []
    values_of: dict[str, list[float]] = {}
    for score in settings.scores or ():
        values, applies = sample_values(samples, score) if ok else ([], True)
        values_of[score] = values
        if not applies:
            stats.update(mean_columns(score, None))  # not this item's score: left out
            continue
        if values:
            value = reduce_samples(values, settings.reducer)
            stats.update(mean_columns(score, value))
            shown[score] = value
            continue
        unscored.append(score)
        stats.update(mean_columns(score, None if score in lower else 0.0))
        shown[score] = None
    for score, op, t in settings.thresholds():
        values = values_of.get(score, [])
        passed = [(v >= t) if op == ">=" else (v <= t) for v in values]
        share = sum(passed) / len(passed) if passed else 0.0
        stats.update(mean_columns(f"{score}{op}{t:g}", share))
    stats.update(mean_columns(UNSCORED, 1.0 if unscored else 0.0))
    flags: tuple[str, ...] = () if item.status == "ok" else (item.status,)
    details: dict[str, Any] = {}
    if ok and item.pred is not None:
        if unscored:
            flags += (UNSCORED,)
            details[UNSCORED] = unscored
        errors = [f"{s['where']}: {s['error']}" for s in samples if s.get("error")]
        problems = [f"{s['where']}: {p}" for s in samples for p in s.get("problems", ())]
        if errors:
            flags += ("sample_error",)
            details["sample_errors"] = errors
        if problems:
            flags += ("bad_value",)
            details["bad_values"] = problems
        details["samples"] = len(samples)
        details.update(item.pred.get("display") or {})
        if "cluster" in item.pred:
            details["cluster"] = item.pred["cluster"]
    return ItemScore(stats, shown, flags, details)
