"""From segments to a statistics table: the seed 001 Python API's entries as the suite's
statistics (the same columns and specs as the task's scorer, ``scorer.py``)."""

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
from assay.suites.translation._lib.entries import Segment
from assay.suites.translation.metrics import EXACT_COLUMNS, exact_match_columns, exact_match_spec


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
