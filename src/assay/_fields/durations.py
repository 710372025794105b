"""Duration fields: "2 years", "thirty-six (36) months", "90 days" → days (seed 000 §3, §4)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from assay._fields._text import as_text, is_blank
from assay._fields.names import score_name_field
from assay._fields.result import FieldScore
from assay._fields.settings import DEFAULT_FIELD_SETTINGS, FieldSettings

#: days per unit; a month is a twelfth of a year so "24 months" == "2 years"
DAYS_PER_UNIT = {
    "day": 1.0, "business day": 1.0, "week": 7.0, "month": 365.25 / 12, "quarter": 365.25 / 4,
    "year": 365.25,
}  # fmt: skip
_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
    "ninety": 90, "hundred": 100, "a": 1, "an": 1, "half": 0.5,
}  # fmt: skip
_NUMBER_WORD = "|".join(sorted((w for w in _WORDS if w not in ("a", "an")), key=len, reverse=True))
_NUMBER = rf"\d+(?:\.\d+)?|(?:an?|(?:{_NUMBER_WORD})(?:[\s\-]+(?:and[\s\-]+)?(?:{_NUMBER_WORD}))*)"
_DURATION = re.compile(
    rf"(?<![a-z0-9])(?P<num>{_NUMBER})\s*(?:\(\s*(?P<paren>\d+(?:\.\d+)?)\s*\)\s*)?"
    r"(?P<unit>business\s+days?|days?|weeks?|months?|quarters?|years?)\b",
    re.IGNORECASE,
)
_WORD_SPLIT = re.compile(r"[\s\-]+")
_SPACES = re.compile(r"\s+")
_PAREN_ONLY = re.compile(
    r"\(?\s*(?P<paren>\d+(?:\.\d+)?)\s*\)\s*"
    r"(?P<unit>business\s+days?|days?|weeks?|months?|quarters?|years?)\b",
    re.IGNORECASE,
)


def _words_to_number(text: str) -> float | None:
    """ "thirty-six" → 36, "one hundred twenty" → 120; None if a word is not a number word."""
    total = 0.0
    current = 0.0
    parts = [p for p in _WORD_SPLIT.split(text.lower()) if p and p != "and"]
    if not parts:
        return None
    for part in parts:
        if part not in _WORDS:
            return None
        value = _WORDS[part]
        if value == 100:
            current = max(current, 1) * 100
        else:
            current += value
    total += current
    return total


@lru_cache(maxsize=16384)
def _parse(text: str) -> float | None:
    for m in _DURATION.finditer(text):
        if m.group("paren"):
            number: float | None = float(m.group("paren"))
        elif m.group("num")[0].isdigit():
            number = float(m.group("num"))
        else:
            number = _words_to_number(m.group("num"))
        if number is None:
            continue
        return number * _unit_days(m.group("unit"))
    cut = _PAREN_ONLY.search(text)  # a cut-off restatement: "(6) months", "60) days"
    return float(cut.group("paren")) * _unit_days(cut.group("unit")) if cut else None


def _unit_days(unit: str) -> float:
    return DAYS_PER_UNIT[_SPACES.sub(" ", unit.lower()).rstrip("s")]


def parse_duration_days(value: Any) -> float | None:
    """The first duration written in ``value``, in days; None when there is none.

    "2 years" → 730.5, "thirty-six (36) months" → 1095.75, "90 days" → 90, "successive 1 year"
    → 365.25 (a year is 365.25 days, a month a twelfth of that).
    """
    if isinstance(value, bool) or value is None:
        return None
    return _parse(as_text(value))


def score_duration_field(
    pred: Any, gold: Any, settings: FieldSettings = DEFAULT_FIELD_SETTINGS
) -> FieldScore:
    """1.0 iff both durations parse and agree within ``duration_tolerance_days``, 0.0 if they
    differ; a side without a duration falls back to ``score_name_field``."""
    if is_blank(pred):
        return FieldScore(float(is_blank(gold)), "no prediction", "duration")
    p, g = parse_duration_days(pred), parse_duration_days(gold)
    if p is None or g is None:
        fallback = score_name_field(pred, gold, settings)
        side = "prediction" if p is None else "expected value"
        return FieldScore(
            fallback.score, f"{side} has no duration; name match: {fallback.reason}", "duration"
        )
    if abs(p - g) <= settings.duration_tolerance_days:
        return FieldScore(1.0, f"same duration ({g:g} days)", "duration")
    return FieldScore(0.0, f"durations differ ({p:g} vs {g:g} days)", "duration")
