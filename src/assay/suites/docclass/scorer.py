"""One docclass row scored into its statistics row.

The row's columns — doc_type_accuracy, subclass_accuracy (rows with subclass gold only, the
subclass alone: §7), subclass_accuracy_equiv, exact_match, confidence, per-class and
per-subclass counts — are the hierarchical scorer's, shared with the MAUD suite:
:func:`assay._legal.hierarchical.score_row`. What docclass adds is its subclass normalization:
plain label normalization (``normalize_label``).
"""

from __future__ import annotations

from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._labels import normalize_label
from assay._legal.hierarchical import score_row as hierarchical_row
from assay.suites.docclass.settings import DocclassSettings


def subclass_key(value: Any) -> str:
    """A docclass subclass: the plain label key ("Share Purchase" → "share_purchase")."""
    return normalize_label(value)


def score_row(item: Item, settings: DocclassSettings) -> ItemScore:
    """The hierarchical row with docclass's subclass normalization."""
    return hierarchical_row(item, settings, subclass_key)
