"""From segments to statistics rows: the one place that turns entries into sufficient statistics
(used by the task's item scorer, by the Python API and by the multi-system command)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from assay.metrics.corpus.sufficient import (
    SEGMENTS_COLUMN,
    CorpusMetric,
    FloatArray,
    n_references,
)
from assay.metrics.spec import MetricSpec
from assay.metrics.table import StatsTable
from assay.suites.translation.entries import Segment

EXACT_COLUMNS = ("exact_match", "exact_match#n")


def exact_match_spec() -> MetricSpec:
    """exact_match_rate (seed 001): share of non-error entries with exact_match; 0.0 if none."""
    return MetricSpec(
        "exact_match_rate",
        "rate_or_zero",
        EXACT_COLUMNS,
        tier="headline",
        description="share of non-error entries whose prediction matches exactly "
        "(error entries left out; 0.0 when none is left)",
    )


def exact_match_columns(counted: bool, match: bool) -> dict[str, float]:
    """The two exact-match stats: (match, counted); an error entry is not counted."""
    return {EXACT_COLUMNS[0]: float(counted and match), EXACT_COLUMNS[1]: float(counted)}


def segments_table(
    segments: Sequence[Segment], metrics: Sequence[CorpusMetric]
) -> tuple[StatsTable, list[MetricSpec]]:
    """The stats table and specs of ``segments``: every corpus metric and exact_match_rate."""
    ids = [s.id for s in segments]
    blocks: list[FloatArray] = []
    columns: list[str] = []
    specs: list[MetricSpec] = []
    nrefs = n_references([s.references for s in segments])
    for metric in metrics:
        blocks.append(
            metric.extract([s.hypothesis for s in segments], [s.references for s in segments])
        )
        columns += metric.columns
        specs.append(metric.spec(metric.signature(nrefs)))
    blocks.append(np.asarray([[1.0 if s.has_reference else 0.0] for s in segments]).reshape(-1, 1))
    columns.append(SEGMENTS_COLUMN)
    exact = [exact_match_columns(not s.error, s.exact_match) for s in segments]
    blocks.append(np.asarray([[e[c] for c in EXACT_COLUMNS] for e in exact]).reshape(-1, 2))
    columns += EXACT_COLUMNS
    specs.append(exact_match_spec())
    values = np.hstack(blocks) if segments else np.zeros((0, len(columns)))
    return StatsTable(tuple(ids), tuple(columns), values), specs
