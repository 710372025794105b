"""Several predictions per item (``samples``): each sample scored, the item's row their mean.

A run that reads samples pairs every prediction of an id as one of its item's samples
(``cohort.SampleKey``, ``Item.samples``). Before scoring, each item is expanded into its samples
(`expand`: one item per sample, the same gold; a missing item stays one missing item), every
executor scores them as it scores items, and the scores are folded back into one per item
(`fold`):

- the item's statistics row is the MEAN of its samples' rows, so every ``finalize(Σ rows)``
  metric is computed on per-item means and the item stays the resampling unit (its cluster,
  when it has one): for accuracy, the mean over items of each item's share of correct samples;
- pass@k for each asked k (`pass_at_k`, the unbiased estimator over the item's n samples, c of
  them correct by ``Task.sample_correct``) is one more per-item mean column, ``pass@k`` with its
  count ``pass@k#n``: a missing item, or one whose every sample failed, scores 0; an item with
  1 ≤ n < k samples has no pass@k (left out of that mean, and counted in a warning);
- the item's per-item scores are the means of its samples' (over those defined), its details
  its first sample's plus ``samples`` (n) and ``sample_scores`` (each sample's scores).

`variance_shares` then tells, for each per-item mean metric (a ``mean`` or ``ratio`` whose every
sample row counts 0 or 1 in its denominator), how much of its variance lies between samples of
one item: the within-item sum of squares over the total one,

    share = Σ_i Σ_s (x_is − x̄_i)² / Σ_i Σ_s (x_is − x̄)²

(= E_items[Var_within] / Var_total when every item has the same number of samples), over the
samples that count for it (x_is the sample's value, x̄_i its item's mean, x̄ the mean of all).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from assay._engine.cohort import SampleKey
from assay._engine.item import Item
from assay._engine.task import SCORE_ERROR, BlockSummaries, ItemScore, Task, new_score
from assay.metrics.kinds import FloatArray
from assay.metrics.passk import pass_at_k
from assay.metrics.spec import MetricSpec, mean_metric

if TYPE_CHECKING:
    from pydantic import BaseModel

#: the metric kinds whose (numerator, denominator) may be a per-item mean (`variance_shares`)
_MEAN_KINDS = ("mean", "ratio")


@dataclass(frozen=True)
class SampleOptions:
    """A run that reads samples: the sample index ``field`` (None: found, see ``SampleKey``)
    and the k of pass@k (empty: 1 and the largest number of samples of an item)."""

    field: str | None = None
    pass_at: tuple[int, ...] = ()

    @property
    def key(self) -> SampleKey:
        return SampleKey(self.field)


def sample_count(item: Item) -> int:
    """The item's number of samples: 0 for a missing item (no prediction at all)."""
    return len(item.samples) if item.samples is not None else 0


def expand(items: Sequence[Item]) -> tuple[list[Item], list[int]]:
    """Every item's samples in order (a missing item: itself), and how many each gave."""
    flat: list[Item] = []
    sizes: list[int] = []
    for item in items:
        subs = item.samples or (item,)
        flat.extend(subs)
        sizes.append(len(subs))
    return flat, sizes


@dataclass(frozen=True)
class SampleData:
    """What the run keeps of its samples once folded: per item its sample count and correct
    samples, and the samples' statistics rows (``values``, columns ``columns``) with the item
    each belongs to (``group``), for `variance_shares`. Missing items give no sample rows."""

    counts: tuple[int, ...]
    correct: tuple[int, ...]
    columns: tuple[str, ...]
    values: FloatArray
    group: Any  # NDArray[np.intp]: the item (position) of each row of ``values``
    pass_at: tuple[int, ...]
    #: k → items with 1 ≤ n < k samples (no pass@k)
    short: Mapping[int, int]
    field: str | None
    #: the suite's summaries over every sample, for a suite without block summaries
    summaries: dict[str, Any] | None = None
    #: the per-item score that decides whether a sample is correct (``Task.sample_correct``)
    pass_score: str | None = None


def pass_column(k: int) -> str:
    return f"pass@{k}"


def fold(
    task: Task[Any],
    section: BaseModel,
    items: Sequence[Item],
    flat: Sequence[Item],
    scores: Sequence[ItemScore],
    sizes: Sequence[int],
    options: SampleOptions,
    *,
    field_used: str | None,
) -> tuple[list[ItemScore], SampleData]:
    """Each item's score from its samples' (see the module docstring), and the `SampleData`.
    ``flat`` and ``scores`` are the samples as `expand` gave them (``sizes`` per item)."""
    counts = [sample_count(item) for item in items]
    ks = options.pass_at or tuple(sorted({1, max(counts, default=1) or 1}))
    correct: list[int] = []
    folded: list[ItemScore] = []
    short: Counter[int] = Counter()
    lo = 0
    for item, n, size in zip(items, counts, sizes, strict=True):
        group = scores[lo : lo + size]
        lo += size
        c = sum(task.sample_correct(s, section) for s in group) if n else 0
        correct.append(c)
        usable = item.status == "ok"
        extra: dict[str, float] = {}
        for k in ks:
            if usable and n < k:
                short[k] += 1
                extra[pass_column(k)] = extra[pass_column(k) + "#n"] = 0.0
                continue
            extra[pass_column(k)] = pass_at_k(n, c, k) if usable else 0.0
            extra[pass_column(k) + "#n"] = 1.0
        folded.append(_mean_score(group, n, extra))
    columns = tuple(dict.fromkeys(c for s in scores for c in s.stats))
    sampled = [n for n in counts if n]
    keep = np.repeat(np.array(counts) > 0, sizes) if sizes else np.zeros(0, dtype=bool)
    index = {c: j for j, c in enumerate(columns)}
    values = np.zeros((int(keep.sum()), len(columns)))
    row = 0
    for s, kept in zip(scores, keep, strict=True):
        if kept:
            for name, v in s.stats.items():
                values[row, index[name]] = v
            row += 1
    owner = np.repeat(np.arange(len(sampled)), sampled)
    summaries = None if isinstance(task, BlockSummaries) else task.summaries(flat, scores, section)
    first_scores = next((s.scores for s in scores if s.scores), {})
    data = SampleData(
        counts=tuple(counts),
        correct=tuple(correct),
        columns=columns,
        values=values,
        group=owner,
        pass_at=ks,
        short=dict(short),
        field=field_used,
        summaries=summaries,
        pass_score=task.pass_score or next(iter(first_scores), None),
    )
    return folded, data


def _mean_score(group: Sequence[ItemScore], n: int, extra: Mapping[str, float]) -> ItemScore:
    """One item's score from its samples' scores: mean row, mean per-item scores, the first
    sample's details with the count and every sample's scores; ``score_error`` only when
    every sample's scoring raised; abstained when every sample abstained."""
    if len(group) == 1 and n <= 1:
        only = group[0]
        details = {**only.details, "samples": n, "sample_scores": [dict(only.scores)]}
        row = {**only.stats, **extra}
        return new_score(row, dict(only.scores), only.flags, details, only.abstained)
    stats: dict[str, float] = {}
    for s in group:
        for name, v in s.stats.items():
            stats[name] = stats.get(name, 0.0) + v
    size = len(group)
    stats = {name: v / size for name, v in stats.items()}
    stats.update(extra)
    names = list(dict.fromkeys(name for s in group for name in s.scores))
    scores: dict[str, float | None] = {}
    for name in names:
        defined = [float(x) for s in group if (x := s.scores.get(name)) is not None]
        scores[name] = sum(defined) / len(defined) if defined else None
    raised = all(SCORE_ERROR in s.flags for s in group)
    flags = tuple(
        f for f in dict.fromkeys(f for s in group for f in s.flags) if f != SCORE_ERROR or raised
    )
    first = next((s for s in group if SCORE_ERROR not in s.flags), group[0])
    details = {k: v for k, v in first.details.items() if k != SCORE_ERROR or raised}
    details["samples"] = n
    details["sample_scores"] = [dict(s.scores) for s in group]
    abstained = all(s.abstained for s in group)
    return new_score(stats, scores, flags, details, abstained)


def pass_at_specs(data: SampleData) -> list[MetricSpec]:
    """The run's pass@k metrics: means of the per-item ``pass@k`` columns."""
    return [
        mean_metric(
            pass_column(k),
            pass_column(k),
            description=f"chance that at least one of {k} samples is correct (unbiased "
            "estimator over each item's samples, mean over items)",
        )
        for k in data.pass_at
    ]


def variance_shares(data: SampleData, specs: Sequence[MetricSpec]) -> dict[str, float | None]:
    """Per per-item mean metric, the share of its variance between samples of one item (the
    module docstring's formula); None when no item has two samples that count for it or the
    samples do not vary at all. Metrics that are not per-item means are left out."""
    shares: dict[str, float | None] = {}
    index = {c: j for j, c in enumerate(data.columns)}
    for spec in specs:
        if spec.kind not in _MEAN_KINDS or len(spec.columns) != 2:
            continue
        if spec.name.startswith("pass@") or not all(c in index for c in spec.columns):
            continue
        num = data.values[:, index[spec.columns[0]]]
        den = data.values[:, index[spec.columns[1]]]
        if not np.all((den == 0.0) | (den == 1.0)):
            continue  # a micro ratio over counts, not a mean of per-sample values
        counted = den == 1.0
        x, group = num[counted], data.group[counted]
        shares[spec.name] = _within_share(x, group)
    return shares


def _within_share(x: FloatArray, group: Any) -> float | None:
    """Σ (x − group mean)² / Σ (x − mean)²; None without an item of two values or variance."""
    if x.size == 0:
        return None
    n = np.bincount(group)
    if not np.any(n >= 2):
        return None
    sums = np.bincount(group, weights=x)
    present = n > 0
    means = np.zeros_like(sums)
    means[present] = sums[present] / n[present]
    within = float(np.sum((x - means[group]) ** 2))
    total = float(np.sum((x - x.mean()) ** 2))
    if total <= 1e-12 * max(1.0, float(np.sum(x**2))):
        return None
    return min(1.0, max(0.0, within / total))


def sample_summary(data: SampleData, shares: Mapping[str, float | None]) -> dict[str, Any]:
    """The run's ``samples`` summary: the field, items and samples, the distribution of the
    number of samples per item, the pass@k asked, and each metric's within-item share."""
    counts = Counter(data.counts)
    with_samples = [n for n in data.counts if n]
    return {
        "field": data.field,
        "items": len(with_samples),
        "samples": sum(with_samples),
        "min": min(with_samples, default=0),
        "max": max(with_samples, default=0),
        "counts": {str(n): counts[n] for n in sorted(counts)},
        "pass_at": list(data.pass_at),
        "pass_score": data.pass_score,
        "within_item_variance_share": dict(shares),
    }


def sample_warnings(data: SampleData) -> list[str]:
    """Warnings of a run read with samples: items with too few samples for a pass@k, and
    items with different numbers of samples."""
    warnings = [
        f"pass@{k} is undefined for {n} item(s) with fewer than {k} samples: they are left out "
        f"of pass@{k}'s mean"
        for k, n in sorted(data.short.items())
    ]
    distinct = sorted({n for n in data.counts if n})
    if len(distinct) > 1:
        warnings.append(
            f"items have {distinct[0]} to {distinct[-1]} samples: each item's row is the mean "
            "over its own samples"
        )
    return warnings
