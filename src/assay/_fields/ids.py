"""Id fields (docket, filing and reference numbers): normalize, then exact match."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from assay._fields._text import as_text, is_blank
from assay._fields.result import FieldScore
from assay._fields.settings import DEFAULT_FIELD_SETTINGS, FieldSettings
from assay._fields.suffixes import collapse_dotted_suffixes
from assay._text import normalize_text

_SPLIT = re.compile(r"[^0-9A-Z]+")


@lru_cache(maxsize=16384)
def _normalize(text: str, suffixes: frozenset[str]) -> str:
    text = collapse_dotted_suffixes(text)  # "Borealis L.P." ends in the suffix LP, not L, P
    words = [w for w in _SPLIT.split(normalize_text(text).upper()) if w]
    while len(words) > 1 and words[-1] in suffixes:
        words.pop()
    return "".join(words)


def normalize_id(value: Any, settings: FieldSettings = DEFAULT_FIELD_SETTINGS) -> str:
    """Uppercase, drop trailing corporate suffixes (a dotted one collapsed first), strip
    punctuation and whitespace.

    "No. 12-cv-0345 " → "NO12CV0345"; "Acme Corp." → "ACME"; "Acme Holdings, Inc." → "ACME";
    "Borealis L.P." → "BOREALIS".
    """
    return _normalize(as_text(value), _suffix_set(tuple(settings.corporate_suffixes)))


@lru_cache(maxsize=64)
def _suffix_set(suffixes: tuple[str, ...]) -> frozenset[str]:
    return frozenset(s.upper() for s in suffixes)


def score_id_field(
    pred: Any, gold: Any, settings: FieldSettings = DEFAULT_FIELD_SETTINGS
) -> FieldScore:
    """1.0 iff ``normalize_id(pred) == normalize_id(gold)``, else 0.0 (equal texts normalized
    once: the same score and reason, ``test_id_score_equals_its_definition``)."""
    if is_blank(pred):
        return FieldScore(float(is_blank(gold)), "no prediction", "id")
    ptext, gtext = as_text(pred), as_text(gold)
    suffixes = _suffix_set(tuple(settings.corporate_suffixes))
    g = _normalize(gtext, suffixes)
    # ``normalize_id`` of each side; the same text normalizes once
    p = g if ptext == gtext else _normalize(ptext, suffixes)
    if p == g:
        return FieldScore(1.0, f"normalized ids equal ({g})", "id")
    return FieldScore(0.0, f"normalized ids differ ({p} ≠ {g})", "id")
