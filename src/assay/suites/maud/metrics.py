"""The MAUD suite's metrics: the hierarchical ones, shared with the docclass suite and defined
in :func:`assay._legal.hierarchical.hierarchical_specs`, with the consideration type as the
subclass; MAUD adds none.

- ``doc_type_accuracy``: share of rows with the right primary class (headline);
- ``subclass_accuracy``: share of rows *with consideration gold* whose consideration type is
  right (headline);
- ``subclass_accuracy_equiv``: the same, accepting mixed_cash_stock ↔ mixed_cash_stock_election;
- ``exact_match``: doc_type right and, when gold has one, consideration type right (headline);
- ``confidence``: mean model-reported confidence (diagnostic);
- ``per_class_accuracy[c]``, ``per_subclass_accuracy[s]``: per primary class / consideration
  type (diagnostic).
"""

from __future__ import annotations

from collections.abc import Sequence

from assay._engine.task import ItemScore
from assay._legal.hierarchical import hierarchical_specs
from assay.metrics.spec import MetricSpec


def metric_specs(scores: Sequence[ItemScore]) -> list[MetricSpec]:
    """The hierarchical metrics, per class and consideration type for those seen."""
    return hierarchical_specs(scores)
