"""The drill-down order shared by reports, the store and the dashboard: worst items first.

"Worst" is read on one metric's own per-item score and in that metric's direction: the lowest
chrF first, but the *highest* TER first. Scores of different metrics are never mixed (a chrF of
100 and a TER of 0 are both perfect; the lowest of the two is not the item's badness). The
metric is the one asked for, else the run's primary metric — its first headline metric that
has a per-item score. Failed and missing items come first (they are misses of every metric),
items without a score for the metric last, ties in item order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from assay._engine.run import ItemRecord, Run
from assay.errors import UsageError

#: per-item score names that are lower-is-better when no run metric says otherwise
LOWER_IS_BETTER = frozenset({"ter", "failure", "error", "error_rate", "wer", "cer", "edits"})
_PREFIXES = ("corpus_", "mean_", "avg_")
_SUFFIXES = ("_rate", "_mean", "_score")


@dataclass(frozen=True)
class Ranking:
    """Which per-item score orders the drill-down, and in which direction."""

    metric: str | None  # the run metric it stands for (None: inferred from the items)
    key: str | None  # the per-item score name (None: no scores at all)
    higher_is_better: bool = True

    @property
    def label(self) -> str:
        """How the order is described: 'worst first by chrf (higher is better)'."""
        if self.key is None:
            return "failed and missing first"
        way = "higher" if self.higher_is_better else "lower"
        return f"worst first by {self.key} ({way} is better)"


def item_score_key(metric: str, keys: Iterable[str]) -> str | None:
    """The per-item score that stands for ``metric``: the same name, or the name without a
    corpus_/mean_ prefix or a _rate/_mean suffix (``corpus_chrf`` → ``chrf``,
    ``exact_match_rate`` → ``exact_match``), or with a _score suffix added."""
    available = set(keys)
    candidates = [metric, f"{metric}_score"]
    for p in _PREFIXES:
        if metric.startswith(p):
            candidates.append(metric[len(p) :])
    for s in _SUFFIXES:
        if metric.endswith(s):
            candidates.append(metric[: -len(s)])
    return next((c for c in candidates if c in available), None)


def _score_keys(items: Sequence[ItemRecord]) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        for k in item.scores:
            seen.setdefault(k, None)
    return list(seen)


def ranking_for(
    run: Run, metric: str | None = None, items: Sequence[ItemRecord] | None = None
) -> Ranking:
    """The ranking of ``run``'s items by ``metric`` (default: its primary metric).

    ``metric`` may name a run metric or a per-item score directly; an unknown name is a usage
    error listing what can be chosen. ``items`` stands in for the run's items when the run was
    loaded without them (a page of a stored run).
    """
    items = run.items if items is None else items
    keys = _score_keys(items)
    if metric is not None:
        if metric in run.metrics:
            key = item_score_key(metric, keys)
            if key is None:
                raise UsageError(
                    f"metric {metric} has no per-item score to rank by; choose one of "
                    f"{', '.join(keys) or 'none'}"
                )
            return Ranking(metric, key, run.metrics[metric].higher_is_better)
        if metric in keys:
            return Ranking(None, metric, metric not in LOWER_IS_BETTER)
        raise UsageError(
            f"cannot rank by {metric!r}: per-item scores are {', '.join(keys) or 'none'}"
        )
    tiers = ("headline", "core", "diagnostic")
    for tier in tiers:
        for name, m in run.metrics.items():
            if m.tier == tier:
                key = item_score_key(name, keys)
                if key is not None:
                    return Ranking(name, key, m.higher_is_better)
    return inferred_ranking(items)


def inferred_ranking(items: Sequence[ItemRecord]) -> Ranking:
    """Without a run: the first per-item score, its direction from its name."""
    keys = _score_keys(items)
    if not keys:
        return Ranking(None, None)
    return Ranking(None, keys[0], keys[0] not in LOWER_IS_BETTER)


def worst_first(items: Sequence[ItemRecord], ranking: Ranking | None = None) -> list[int]:
    """Positions of ``items``, worst first under ``ranking`` (see the module docstring)."""
    ranking = ranking or inferred_ranking(items)
    sign = 1.0 if ranking.higher_is_better else -1.0

    def key(i: int) -> tuple[int, float, int]:
        item = items[i]
        if item.status != "ok":
            return (0, 0.0, i)
        value = item.scores.get(ranking.key) if ranking.key is not None else None
        if value is None:
            return (2, 0.0, i)
        return (1, sign * value, i)

    return sorted(range(len(items)), key=key)
