"""Seed 001's Python API over test-report entries (dicts with id, source, expected, predicted,
error, exact_match): the built-in corpus metrics and ``paired_bootstrap``.

The built-ins and any MetricSpec take the fast path (sufficient statistics, one matrix product
per resample chunk); any other ``metric_fn(list[dict]) -> float`` is recomputed per resample
(the slow generic path). Both go through the one paired-test dispatch: the exact sign-flip
test over all swaps of entries at up to 16 entries, approximate randomization below 50, the
paired bootstrap above (``method`` in the result names the test that decided).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from assay.errors import UsageError
from assay.metrics.corpus.sufficient import (
    CorpusMetric,
    bleu_metric,
    chrf_metric,
    ter_metric,
)
from assay.metrics.spec import MetricSpec
from assay.metrics.table import StatsTable
from assay.stats.generic import paired_test_generic
from assay.stats.significance import SignificanceResult, paired_test
from assay.suites.translation._lib.entries import EMPTY, Segment, segment_from_entry
from assay.suites.translation._lib.segments import segments_table

Entry = Mapping[str, Any]
MetricFn = Callable[[Sequence[Entry]], float]


class EntryMismatchError(UsageError, ValueError):
    """Two entry lists that cannot be paired (different lengths or ids); also a ValueError."""


def _segments(entries: Sequence[Entry]) -> list[Segment]:
    return [
        segment_from_entry({**e, "id": e.get("id", i)}, empty=EMPTY) for i, e in enumerate(entries)
    ]


def _unique_ids(segments: Sequence[Segment]) -> list[Segment]:
    """Duplicate ids get a positional suffix so a table can hold them (API inputs only)."""
    seen: dict[str, int] = {}
    out = []
    for s in segments:
        count = seen.get(s.id, 0)
        seen[s.id] = count + 1
        out.append(s if count == 0 else Segment(**{**vars(s), "id": f"{s.id}#{count}"}))
    return out


def _table(
    entries: Sequence[Entry], metrics: Sequence[CorpusMetric]
) -> tuple[StatsTable, list[MetricSpec]]:
    return segments_table(_unique_ids(_segments(entries)), metrics)


def _corpus_value(entries: Sequence[Entry], metric: CorpusMetric) -> float:
    table, specs = _table(entries, [metric])
    return specs[0].value(table) if len(table) else float("nan")


def exact_match_rate(entries: Sequence[Entry]) -> float:
    """Share of non-error entries with ``exact_match`` (recomputed when absent); 0.0 if none."""
    table, specs = _table(entries, [])
    return specs[-1].value(table) if len(table) else 0.0


def corpus_chrf(entries: Sequence[Entry]) -> float:
    """sacrebleu CHRF(word_order=2) corpus score over entries with non-blank expected text;
    a blank prediction is scored as "EMPTY". NaN when no entry has a reference."""
    return _corpus_value(entries, chrf_metric())


def corpus_bleu(entries: Sequence[Entry]) -> float:
    """sacrebleu BLEU() corpus score under the same entry rules as :func:`corpus_chrf`."""
    return _corpus_value(entries, bleu_metric())


def corpus_ter(entries: Sequence[Entry]) -> float:
    """sacrebleu TER() corpus score (lower is better) under the same entry rules."""
    return _corpus_value(entries, ter_metric())


#: the built-in metric functions and the corpus metric each needs (None: exact match only)
BUILTINS: dict[Callable[..., float], tuple[str, CorpusMetric | None]] = {
    exact_match_rate: ("exact_match_rate", None),
    corpus_chrf: ("corpus_chrf", chrf_metric()),
    corpus_bleu: ("corpus_bleu", bleu_metric()),
    corpus_ter: ("corpus_ter", ter_metric()),
}
_ALL_METRICS = (chrf_metric(), bleu_metric(), ter_metric())


def _aligned(entries_a: Sequence[Entry], entries_b: Sequence[Entry]) -> list[Entry]:
    """entries_b in entries_a's id order; EntryMismatchError when lengths or ids differ."""
    if len(entries_a) != len(entries_b):
        raise EntryMismatchError(
            f"entry lists differ in length: {len(entries_a)} vs {len(entries_b)}"
        )
    if not entries_a:
        raise EntryMismatchError("no entries to compare")
    ids_a = [str(e.get("id", i)) for i, e in enumerate(entries_a)]
    ids_b = [str(e.get("id", i)) for i, e in enumerate(entries_b)]
    if ids_a == ids_b:
        return list(entries_b)
    by_id = dict(zip(ids_b, entries_b, strict=True))
    if set(ids_a) != set(ids_b) or len(by_id) != len(ids_b):
        only = sorted(set(ids_a) ^ set(ids_b))[:5]
        raise EntryMismatchError(f"entry lists differ in ids (e.g. {', '.join(only)})")
    return [by_id[i] for i in ids_a]


def paired_bootstrap(
    entries_a: Sequence[Entry],
    entries_b: Sequence[Entry],
    metric_fn: MetricFn | MetricSpec,
    n_bootstrap: int = 1000,
    alpha: float = 0.05,
    seed: int = 12345,
    metric_name: str = "metric",
) -> SignificanceResult:
    """Paired test of Δ = metric(A) − metric(B) over the same entries (seed 001's name).

    The test is the one dispatch's (``assay.stats.paired_test``): exact sign-flip up to 16
    entries (the smallest p at n is 2 / 2ⁿ: at 5 entries 0.0625, nothing significant),
    approximate randomization below 50, and above, the paired bootstrap's two-sided p, 2 × the
    share of resampled Δ* without the observed Δ's sign (capped at 1); identical entries give
    p = 1.0. The CI of Δ is the paired bootstrap's. Raises ValueError (EntryMismatchError)
    when the lists differ in length or ids, or are empty.
    """
    entries_b = _aligned(entries_a, entries_b)
    spec: MetricSpec | None = None
    metrics: tuple[CorpusMetric, ...] = ()
    if isinstance(metric_fn, MetricSpec):
        spec = metric_fn
        metrics = tuple(m for m in _ALL_METRICS if set(m.columns) & set(spec.columns))
    elif metric_fn in BUILTINS:
        builtin_name, corpus = BUILTINS[metric_fn]
        metrics = (corpus,) if corpus is not None else ()
    else:
        return paired_test_generic(
            entries_a,
            entries_b,
            metric_fn,
            n_resamples=n_bootstrap,
            seed=seed,
            alpha=alpha,
            metric_name=metric_name,
        )
    table_a, specs = _table(entries_a, metrics)
    table_b, _ = _table(entries_b, metrics)
    table_b = StatsTable(table_a.ids, table_b.columns, table_b.values)
    if spec is None:
        spec = next(s for s in specs if s.name == builtin_name)
    result = paired_test(table_a, table_b, [spec], n_resamples=n_bootstrap, seed=seed, alpha=alpha)[
        0
    ]
    name = metric_name if metric_name != "metric" else spec.name
    return SignificanceResult(**{**vars(result), "metric_name": name})
