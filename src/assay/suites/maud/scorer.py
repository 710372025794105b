"""One MAUD merger agreement scored into its statistics row.

The row's columns are the hierarchical scorer's, shared with the docclass suite:
:func:`assay._legal.hierarchical.score_row` (doc_type, then the consideration type as the
subclass, strict and equiv). What MAUD adds is its subclass normalization,
:func:`assay._legal.answers.normalize_maud_consideration` (shared with the dispatcher's
``maud_docclass`` kind): MAUD's label surface ("Mixed Cash & Stock (Election)"), the alias
table, a key found in the text; unknown answers degrade to ``other``.
"""

from __future__ import annotations

from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._legal.answers import normalize_maud_consideration
from assay._legal.hierarchical import score_row as hierarchical_row
from assay.suites.maud.settings import MaudSettings


def subclass_key(value: Any) -> str:
    """A consideration type: all_cash, all_stock, mixed_cash_stock, mixed_cash_stock_election
    or other."""
    return normalize_maud_consideration(value)


def score_row(item: Item, settings: MaudSettings) -> ItemScore:
    """The hierarchical row with the consideration type as the subclass."""
    return hierarchical_row(item, settings, subclass_key)
