"""Compact display values: what a run keeps of a gold or predicted value for the report's
gold-beside-prediction view (extraction's fields, ContractEval's clauses), cut so the artifact
stays small; the scoring never reads them."""

from __future__ import annotations

from typing import Any

from assay._fields._text import as_text, is_blank

#: characters of one field value kept per item for the report's gold-beside-prediction view
DISPLAY_CHARS = 80
#: list elements kept per item for that view
DISPLAY_ELEMENTS = 5


def display_value(
    value: Any, *, chars: int = DISPLAY_CHARS, elements: int = DISPLAY_ELEMENTS
) -> str | None:
    """A value as the report shows it beside its gold, compact so the artifact stays small: a
    list one element a line (at most ``elements``, then "… N more"), each text cut at ``chars``
    characters ending in "…"; None for a blank value (nothing is stored then)."""
    # a string (24 calls per extraction document) without the generic dispatch: what the
    # generic rule shows (``test_a_string_is_shown_as_the_generic_rule_shows_it``), 1.3x it
    if type(value) is str:  # the common case: ``is_blank`` and ``as_text`` of a string
        if not value.strip():
            return None
        return value if len(value) <= chars else value[: chars - 1] + "…"
    if is_blank(value):
        return None
    if isinstance(value, list | tuple):
        lines = [_cut(as_text(v), chars) for v in value[:elements]]
        if len(value) > elements:
            lines.append(f"… {len(value) - elements} more")
        return "\n".join(lines)
    return _cut(as_text(value), chars)


def _cut(text: str, chars: int) -> str:
    """``text`` when at most ``chars`` characters long, else its first ``chars`` - 1 and "…"."""
    return text if len(text) <= chars else text[: chars - 1] + "…"
