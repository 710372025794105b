"""The MAUD suite's run summaries: the hierarchical ones, shared with the docclass suite and
defined in :func:`assay._legal.hierarchical.hierarchical_summaries` (the consideration type as
the subclass: its support and confusion, the doc_type confusion, ``equiv_recovered``,
``input_mode_counts``, ``failure_insights``); MAUD adds none."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._legal.hierarchical import hierarchical_summaries


def summaries(items: Sequence[Item], scores: Sequence[ItemScore]) -> dict[str, Any]:
    """The hierarchical summaries of the run."""
    return hierarchical_summaries(items, scores)
