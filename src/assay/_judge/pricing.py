"""Cost of a call from the price table; an unknown model costs None, never a guess."""

from __future__ import annotations

import re
from collections.abc import Mapping

from assay._judge.settings import ModelPrice

#: what may follow a listed model name in a dated or pinned snapshot of the same model:
#: "-2024-08-06", "-20250514", "-latest", "@20250514", ":2024-08-06"
_SNAPSHOT_SUFFIX = re.compile(r"^[-@:](?:\d{4}-?\d{2}-?\d{2}|\d{3,}|latest|v\d+(?:\.\d+)*)$")


def is_snapshot_of(model: str, name: str) -> bool:
    """True when ``model`` is ``name`` or a dated or pinned snapshot of it
    ("gpt-4o-2024-08-06" of "gpt-4o"; not "gpt-4o-mini")."""
    return model == name or (
        model.startswith(name) and _SNAPSHOT_SUFFIX.match(model[len(name) :]) is not None
    )


def resolve_price(model: str, prices: Mapping[str, ModelPrice]) -> ModelPrice | None:
    """The price of ``model``: an exact entry, else the longest listed name of which ``model``
    is a dated snapshot ("gpt-4o-2024-08-06" → "gpt-4o"), else None.

    A different model that merely shares a prefix ("gpt-4o-mini" vs "gpt-4o") is not resolved:
    its suffix is not a date or version, so without its own entry its cost is unknown.
    """
    if model in prices:
        return prices[model]
    best: str | None = None
    for name in prices:
        if is_snapshot_of(model, name) and (best is None or len(name) > len(best)):
            best = name
    return prices[best] if best is not None else None


def call_cost(
    model: str,
    input_tokens: int | None,
    output_tokens: int | None,
    prices: Mapping[str, ModelPrice],
) -> float | None:
    """USD cost of one call, or None when the model's price or the token counts are unknown."""
    price = resolve_price(model, prices)
    if price is None or input_tokens is None or output_tokens is None:
        return None
    return price.cost(input_tokens, output_tokens)
