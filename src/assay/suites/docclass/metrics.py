"""The docclass suite's metrics: the hierarchical ones, shared with the MAUD suite and defined in
:func:`assay._legal.hierarchical.hierarchical_specs`; docclass adds none.

- ``doc_type_accuracy``: share of rows with the right primary class (headline);
- ``subclass_accuracy``: share of rows *with subclass gold* whose subclass is right, whatever
  the doc_type (headline);
- ``subclass_accuracy_equiv``: the same, accepting a listed equivalent family;
- ``exact_match``: doc_type right and, when gold has one, subclass right (headline);
- ``confidence``: mean model-reported confidence (diagnostic);
- ``per_class_accuracy[c]``, ``per_subclass_accuracy[s]``: per primary class / subclass
  (diagnostic).
"""

from __future__ import annotations

from collections.abc import Sequence

from assay._engine.task import ItemScore
from assay._legal.hierarchical import hierarchical_specs
from assay.metrics.spec import MetricSpec


def metric_specs(scores: Sequence[ItemScore]) -> list[MetricSpec]:
    """The hierarchical metrics, per class and subclass for those seen."""
    return hierarchical_specs(scores)
