"""A score value another tool wrote, as a float: Inspect's value map, lm-eval's numbers,
promptfoo's pass flags.

=======================  ===================================================================
``True`` / ``False``     1.0 / 0.0
a finite int or float    itself
NaN (Inspect)            unscored: ``None``
``"C"`` ``"P"``          1.0, 0.5 (Inspect's CORRECT, PARTIAL)
``"I"`` ``"N"``          0.0 (INCORRECT, NOANSWER)
``yes`` ``true``         1.0 (any case)
``no`` ``false``         0.0 (any case)
a numeric string         its number (finite only)
anything else            not a score: :class:`ScoreValueError`, a listed failure (Inspect's
                         own ``value_to_float`` warns and counts it 0)
=======================  ===================================================================
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["INSPECT_LETTERS", "ScoreValueError", "to_score"]

#: Inspect's letter values (``inspect_ai.scorer`` CORRECT, PARTIAL, INCORRECT, NOANSWER)
INSPECT_LETTERS = {"C": 1.0, "P": 0.5, "I": 0.0, "N": 0.0}
_WORDS = {"yes": 1.0, "true": 1.0, "no": 0.0, "false": 0.0}


class ScoreValueError(ValueError):
    """A value that is not a score; the message says what it is."""


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def to_score(value: Any) -> float | None:
    """``value`` as a score (see the module table); ``None`` for NaN (unscored)."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int):
        return float(value)
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if math.isinf(value):
            raise ScoreValueError(f"{value!r} is not a finite score")
        return value
    if isinstance(value, str):
        text = value.strip()
        if text in INSPECT_LETTERS:
            return INSPECT_LETTERS[text]
        word = _WORDS.get(text.lower())
        if word is not None:
            return word
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if math.isfinite(number):
            return number
        raise ScoreValueError(
            f"{_shown(value)} is not a score (C, P, I, N, yes/no, true/false or a number)"
        )
    if value is None:
        return None
    if isinstance(value, list | tuple):
        raise ScoreValueError(f"a list ({_shown(value)}) is not one score")
    if isinstance(value, dict):
        raise ScoreValueError(f"an object ({_shown(value)}) is not one score")
    raise ScoreValueError(f"{_shown(value)} is not a score")
