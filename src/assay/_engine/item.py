"""Item: one unit of evaluation, a gold record paired with its prediction (or its absence)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

ItemStatus = Literal["ok", "missing", "failed"]


@dataclass(frozen=True)
class Item:
    """Gold and prediction for one id.

    ``status`` is ``ok`` (a prediction was read), ``missing`` (expected, no prediction) or
    ``failed`` (the prediction could not be parsed: ``error`` says why). Missing and failed
    items are still scored, as misses, so they stay in every denominator.
    """

    id: str
    gold: dict[str, Any]
    pred: dict[str, Any] | None
    source: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    status: ItemStatus = "ok"
    samples: tuple[Item, ...] | None = None


_NEW = object.__new__


def new_item(
    id: str,
    gold: dict[str, Any],
    pred: dict[str, Any] | None,
    source: str | None = None,
    meta: dict[str, Any] | None = None,
    error: str | None = None,
    status: ItemStatus = "ok",
    samples: tuple[Item, ...] | None = None,
) -> Item:
    """``Item(...)`` with its fields set as pickle sets a dataclass's: without the frozen
    ``__init__``'s one ``object.__setattr__`` per field (a tenth of the cost: the pairing and
    the spill make one per item of a million-item run). ``meta`` None is an empty dict."""
    item: Item = _NEW(Item)
    item.__dict__.update(
        id=id,
        gold=gold,
        pred=pred,
        source=source,
        meta=meta or {},
        error=error,
        status=status,
        samples=samples,
    )
    return item
