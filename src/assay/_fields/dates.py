"""Date fields (seed 000 §3): parse both sides to a date, then exact, containment, partial credit.

Parsing is deterministic and never reads the clock: numeric, ISO, month-name and ordinal-prose
dates are matched by regular expressions (two-digit years pivot at 50: "9/9/97" → 1997,
"11/4/10" → 2010); anything else goes to python-dateutil with two sentinel defaults (a part that
differs between the two parses was not in the text, so it is missing, never "today"), then to
dateparser (other languages) with the relative-date parsers off. A date without a year is no date.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from assay._fields._text import as_text, contains_phrase, is_blank, token_set, tokens
from assay._fields.names import score_name_field
from assay._fields.result import FieldScore
from assay._fields.settings import DEFAULT_FIELD_SETTINGS, FieldSettings

#: two-digit years below this are 20xx, the rest 19xx (fixed, so results never depend on today)
TWO_DIGIT_YEAR_PIVOT = 50

_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_MONTH = (
    r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_BLANK = r"(?:\[[\s·•●*]*\]|_+)"
_ORD = r"(?:st|nd|rd|th)?"
_PATTERNS = [
    re.compile(r"(?<!\d)(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?!\d)"),
    re.compile(
        rf"(?<![\d/.])(?P<m>\d{{1,2}}|{_BLANK})\s?[/.\-]\s?(?P<d>\d{{1,2}}|{_BLANK})\s?[/.\-]\s?"
        rf"(?P<y>\d{{4}}|\d{{2}}(?:{_BLANK})?|{_BLANK})(?![\d/])"
    ),
    re.compile(
        rf"(?<![a-z0-9])(?P<d>\d{{1,2}}|{_BLANK}){_ORD}\s+(?:(?:day\s+)?of\s+)?"
        rf"(?:{_MONTH}|(?P<mblank>{_BLANK})),?\s+(?:in\s+the\s+year\s+)?"
        rf"(?P<y>\d{{4}}|\d{{2}}{_BLANK}|{_BLANK})(?!\d)"
    ),
    re.compile(
        rf"(?<![a-z]){_MONTH}\s*(?P<d>\d{{1,2}}|{_BLANK}){_ORD},?\s*(?P<y>\d{{4}}|\d{{2}}{_BLANK})"
        r"(?!\d)"
    ),
    re.compile(rf"(?<![a-z0-9]){_MONTH},?\s+(?:of\s+)?(?P<y>\d{{4}})(?!\d)"),
]
_BARE_YEAR = re.compile(r"^\s*(?P<y>\d{4})\s*\.?\s*$")
_OCR_TOKEN = re.compile(r"(?<![a-z])[0-9oOIl|]*[0-9][0-9oOIl|]*(?![a-z])|(?<=\d)[oOIl|]+(?=\d)")
#: the letters OCR reads for digits, and the digit each stands for
_OCR_DIGITS = {"o": "0", "O": "0", "I": "1", "l": "1", "|": "1"}
_OCR_MAP = str.maketrans(_OCR_DIGITS)
_TEMPLATE = re.compile(r"_{2,}|\[[\s·•●*]*\]|\b(?:19|20)_+")
_SPLIT_ORDINAL = re.compile(r"(?<=\d)\s*(s\s?t|n\s?d|r\s?d|t\s?h)\b")
_ORDINAL_WORDS = {
    w: i + 1
    for i, w in enumerate(
        [
            "first",
            "second",
            "third",
            "fourth",
            "fifth",
            "sixth",
            "seventh",
            "eighth",
            "ninth",
            "tenth",
            "eleventh",
            "twelfth",
            "thirteenth",
            "fourteenth",
            "fifteenth",
            "sixteenth",
            "seventeenth",
            "eighteenth",
            "nineteenth",
            "twentieth",
            "twenty-first",
            "twenty-second",
            "twenty-third",
            "twenty-fourth",
            "twenty-fifth",
            "twenty-sixth",
            "twenty-seventh",
            "twenty-eighth",
            "twenty-ninth",
            "thirtieth",
            "thirty-first",
        ]
    )
}
_ORDINAL_DAY = re.compile(
    r"\b(" + "|".join(sorted(_ORDINAL_WORDS, key=len, reverse=True)) + r")(?=\s+(?:day\s+)?of\s)"
)
_HAS_DIGIT = re.compile(r"\d")
_SPACES = re.compile(r"\s+")
_HAS_YEAR = re.compile(r"(?<!\d)[12]\d{3}(?!\d)")
#: languages dateparser tries (a fixed list: detecting among all of them costs seconds)
DATEPARSER_LANGUAGES = ("en", "fr", "de", "es", "it", "nl", "pt")


@dataclass(frozen=True, order=True)
class ParsedDate:
    """A calendar date whose month and day may be unknown (a bare year, "March 2024")."""

    year: int
    month: int | None = None
    day: int | None = None

    @property
    def full(self) -> bool:
        return self.month is not None and self.day is not None

    def ordinal(self) -> int | None:
        """Days since 0001-01-01 for a full date (translation-invariant for MAE and R²)."""
        if not self.full:
            return None
        assert self.month is not None and self.day is not None
        return dt.date(self.year, self.month, self.day).toordinal()

    def __str__(self) -> str:
        if self.full:
            return f"{self.year:04d}-{self.month:02d}-{self.day:02d}"
        if self.month is not None:
            return f"{self.year:04d}-{self.month:02d}"
        return f"{self.year:04d}"


@lru_cache(maxsize=16384)
def _clean(text: str) -> str:
    """Lowercase with OCR artifacts repaired ("2O24" → "2024", "15t h" → "15th") and ordinal
    day words as numbers ("first day of July" → "1 day of july")."""
    text = _OCR_TOKEN.sub(lambda m: m.group(0).translate(_OCR_MAP), text)
    text = _SPACES.sub(" ", text.lower())
    text = _SPLIT_ORDINAL.sub(lambda m: m.group(1).replace(" ", ""), text)
    if "of" not in text:  # an ordinal day word is always followed by "of"
        return text
    return _ORDINAL_DAY.sub(lambda m: str(_ORDINAL_WORDS[m.group(1)]), text)


def _year(text: str) -> int | None:
    if not text.isdigit():
        return None
    value = int(text)
    if len(text) == 2:
        return 2000 + value if value < TWO_DIGIT_YEAR_PIVOT else 1900 + value
    return value if 1000 <= value <= 2999 else None


def _part(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None


def _build(year: int | None, month: int | None, day: int | None) -> ParsedDate | None:
    """A ParsedDate when the parts form a real (possibly partial) date, else None."""
    if year is None or not 1000 <= year <= 2999:
        return None
    if month is not None and not 1 <= month <= 12:
        return None
    if month is None:
        return ParsedDate(year)
    if day is None:
        return ParsedDate(year, month)
    try:
        dt.date(year, month, day)
    except ValueError:
        return None
    return ParsedDate(year, month, day)


def _from_match(m: re.Match[str]) -> ParsedDate | None:
    groups = m.groupdict()
    year = _year(groups.get("y") or "")
    month = _MONTHS[groups["mon"][:3]] if groups.get("mon") else _part(groups.get("m"))
    day = _part(groups.get("d"))
    return _build(year, month, day if month is not None else None)


@lru_cache(maxsize=16384)
def _candidates(text: str) -> tuple[tuple[ParsedDate, int, int], ...]:
    found: list[tuple[ParsedDate, int, int]] = []
    taken: list[tuple[int, int]] = []
    for pattern in _PATTERNS:
        for m in pattern.finditer(text):
            start, end = m.span()
            if any(start < e and s < end for s, e in taken):
                continue
            parsed = _from_match(m)
            taken.append((start, end))
            if parsed is not None:
                found.append((parsed, start, end))
    found.sort(key=lambda c: c[1])
    return tuple(found)


#: a text that is exactly one ISO, m/d/yyyy or "Month d, yyyy" date (the common field values)
_SIMPLE = re.compile(
    r"(?P<iy>\d{4})-(?P<im>\d{1,2})-(?P<id>\d{1,2})"
    r"|(?P<um>\d{1,2})/(?P<ud>\d{1,2})/(?P<uy>\d{4})"
    r"|(?P<lmon>[A-Za-z]{3,9}) (?P<ld>\d{1,2}), (?P<ly>\d{4})"
)
_MONTH_NAMES = {
    name: k + 1
    for k, name in enumerate((
        "january", "february", "march", "april", "may", "june", "july", "august", "september",
        "october", "november", "december",
    ))
}  # fmt: skip


def _simple_date(text: str) -> ParsedDate | None:
    """The full date of a text that is exactly one ISO, m/d/yyyy or "Month d, yyyy" date, or
    None (then the general parser decides). For such a text the regular expressions find
    just that date, so this is what they return, without cleaning and five scans. Twin:
    ``_parse_general`` (``test_simple_dates_parse_as_the_general_parser_reads_them``, in
    tests/suites/extraction); 6.7x it on 672 m/d/yyyy dates, caches empty (1.1 vs 7.5 ms)."""
    m = _SIMPLE.fullmatch(text)
    if m is None:
        return None
    iy, um, lmon = m.group("iy", "um", "lmon")
    if iy is not None:
        parts = (_year(iy), int(m.group("im")), int(m.group("id")))
    elif um is not None:
        parts = (_year(m.group("uy")), int(um), int(m.group("ud")))
    else:
        month = _MONTH_NAMES.get(lmon.lower())
        if month is None:
            return None
        parts = (_year(m.group("ly")), month, int(m.group("ld")))
    found = _build(*parts)
    return found if found is not None and found.full else None


def date_candidates(text: str) -> list[ParsedDate]:
    """Every date written in ``text`` in a format the regular expressions know, in order.

    Used for containment (a label holding several dates) and to ground predicted dates in a
    source document ("dates grounded by parsing date candidates in any format").
    """
    simple = _simple_date(text)
    if simple is not None:
        return [simple]
    if not _HAS_DIGIT.search(text):
        return []
    return [c[0] for c in _candidates(_clean(text))]


#: each month's first three letters, by month number: every month name the parser reads
#: starts with them (``_MONTH``)
_MONTH_KEYS = ("", *_MONTHS)
#: ``_OCR_MAP`` for ASCII bytes (bytes.translate is ~9x faster than str.translate by a dict)
_OCR_BYTES = bytes.maketrans(
    "".join(_OCR_DIGITS).encode("ascii"), "".join(_OCR_DIGITS.values()).encode("ascii")
)
#: the digits of 0-31 as bytes (the months and days ``_may_write`` looks for)
_NUMBERS = tuple(str(k).encode("ascii") for k in range(32))


def _may_write(text: str, month: int, day: int) -> bool:
    """False when the ASCII ``text`` cannot write a full date of this month and day in any
    format the parser knows, so its cleaning and scans are skipped (``writes_date``).

    The rule: a written full date's month is its digits (``"3"`` in ``"03/14"``) or a month name
    starting with its three letters, and its day is its digits or an ordinal day word followed
    by "of". Cleaning (``_clean``) only turns OCR letters into digits (never makes a letter),
    joins no letters and turns ordinal words into days (never a month), so in the cleaned text
    a month's digits are in ``text`` with every OCR letter a digit, its name in ``text``
    lowercased, and a day's digits there too unless "of" is there. ASCII only: in other text
    ``\\d`` also reads non-ASCII digits.
    """
    digits = text.encode("ascii").translate(_OCR_BYTES)
    lowered = text.lower()
    if _NUMBERS[month] not in digits and _MONTH_KEYS[month] not in lowered:
        return False
    return _NUMBERS[day] in digits or "of" in lowered


def writes_date(text: str, date: ParsedDate) -> bool:
    """``date in date_candidates(text)``, without the scans when they cannot find it.

    A candidate's day comes from one or two digits of the cleaned text, so a full date whose
    day's digits are not in the cleaned text is not among the candidates; in ASCII text a full
    date whose month and day cannot be written is not looked for at all (``_may_write``: the
    audit's windows around a year, most of them writing some other date).

    Twin: that membership (``test_writes_date_equals_membership_in_the_candidates``, in
    tests/fields/test_fields_scalar_fast_paths.py). The pre-check skipped 2,328 of 2,462
    audit windows when it came (commit b614049); with that commit's other scalar shortcuts,
    scalar scoring of 1,000 extraction documents took ~0.6-0.7x the CPU.
    """
    month, day = date.month, date.day
    # no candidate is an impossible date (``_build`` checks them): a month or day out of range
    # is never written
    if (
        type(month) is int
        and type(day) is int
        and text.isascii()
        and not (0 < month < 13 and 0 < day < 32 and _may_write(text, month, day))
    ):
        return False
    simple = _simple_date(text)
    if simple is not None:
        return simple == date
    if not _HAS_DIGIT.search(text):
        return False
    cleaned = _clean(text)
    if date.full and str(date.day) not in cleaned:
        return False
    return any(c[0] == date for c in _candidates(cleaned))


_SENTINELS = (dt.datetime(4, 1, 1), dt.datetime(8, 2, 2))


def _dateutil(text: str) -> ParsedDate | None:
    from dateutil import parser

    results = []
    for default in _SENTINELS:
        try:
            results.append(parser.parse(text, default=default, fuzzy=True))
        except (ValueError, OverflowError, TypeError):
            return None
    a, b = results
    if a.year != b.year:
        return None
    month = a.month if a.month == b.month else None
    day = a.day if a.day == b.day and month is not None else None
    return _build(a.year, month, day)


def _dateparser(text: str) -> ParsedDate | None:
    import dateparser  # type: ignore[import-untyped]

    base = {
        "PARSERS": ["custom-formats", "absolute-time"],
        "RELATIVE_BASE": dt.datetime(4, 1, 1),
        "REQUIRE_PARTS": ["year"],
        "DATE_ORDER": "MDY",
    }
    if not _HAS_YEAR.search(text):
        return None
    langs = list(DATEPARSER_LANGUAGES)
    first = dateparser.parse(
        text, languages=langs, settings={**base, "PREFER_DAY_OF_MONTH": "first"}
    )
    if first is None:
        return None
    last = dateparser.parse(text, languages=langs, settings={**base, "PREFER_DAY_OF_MONTH": "last"})
    with_month = dateparser.parse(
        text, languages=langs, settings={**base, "REQUIRE_PARTS": ["year", "month"]}
    )
    month = first.month if with_month is not None else None
    day = first.day if last is not None and last.day == first.day and month else None
    return _build(first.year, month, day)


@lru_cache(maxsize=16384)
def _parse(text: str) -> tuple[ParsedDate | None, bool]:
    """The first date written in ``text`` (``parse_date``) and whether ``text`` is exactly one
    simple full date (``_simple_date``), cached together: the scorer asks both of the same
    texts, and the audit and the regression pairs parse them again."""
    simple = _simple_date(text)
    if simple is not None:
        return simple, True
    return _parse_general(text), False


def _parse_general(text: str) -> ParsedDate | None:
    if not text.strip() or not _HAS_DIGIT.search(text):
        return None
    cleaned = _clean(text)
    found = _candidates(cleaned)
    if found:
        return found[0][0]
    bare = _BARE_YEAR.match(cleaned)
    if bare:
        return _build(_year(bare.group("y")), None, None)
    if _TEMPLATE.search(cleaned):
        # a blank template that still writes its year ("[·], 2019") is that year, else nothing
        year = _HAS_YEAR.search(cleaned)
        return _build(int(year.group(0)), None, None) if year else None
    found_du = _dateutil(cleaned)
    if found_du is not None and found_du.full:
        return found_du
    # dateutil missed a part (or everything): dateparser reads other languages; keep the
    # reading with more parts, dateutil's on a tie
    found_dp = _dateparser(text)
    return max((found_du, found_dp), key=_precision) if found_dp else found_du


def _precision(value: ParsedDate | None) -> int:
    if value is None:
        return -1
    return (value.month is not None) + (value.day is not None)


def parse_date(value: Any) -> ParsedDate | None:
    """The first date written in ``value`` (possibly partial), or None when there is none.

    Formats: ISO, m/d/yyyy and m/d/yy (US order), "March 3, 2024", "3 March 2024",
    "10th day of January 2000", "March 2024", a bare year, CUAD's "[]/[]/2020" (year only),
    OCR digit confusions, and whatever dateutil/dateparser read without inventing a part.
    """
    if type(value) is str:  # the common case first: the cached parse of the text itself
        return _parse(value)[0]
    if isinstance(value, dt.datetime):
        return ParsedDate(value.year, value.month, value.day)
    if isinstance(value, dt.date):
        return ParsedDate(value.year, value.month, value.day)
    return _parse(as_text(value))[0]


#: a CUAD date that states its month and day and at most the start of its year:
#: "12/01/[]", "09/14/200[]", "04/30/20[]"
_YEARLESS = re.compile(
    r"^\s*(?P<m>\d{1,2})\s?/\s?(?P<d>\d{1,2})\s?/\s?(?P<y>\d{0,3})\s?\[[\s·•●*]*\]\s*$"
)


@lru_cache(maxsize=4096)
def yearless_date(text: str) -> tuple[int, int, str] | None:
    """(month, day, the year's first digits) of a CUAD date written without (all of) its year
    ("12/01/[]" → (12, 1, ""), "09/14/200[]" → (9, 14, "200")); None for anything else."""
    m = _YEARLESS.match(text)
    if m is None:
        return None
    month, day = int(m.group("m")), int(m.group("d"))
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return month, day, m.group("y")


def _score_yearless(pred: Any, stated: tuple[int, int, str]) -> FieldScore:
    """A prediction against a year-less expected date, on what it states: 1.0 when a date the
    prediction writes has that month and day and a year starting with the stated digits."""
    month, day, prefix = stated
    want = f"{month:02d}/{day:02d}/{prefix or ''}…"
    if is_blank(pred):
        return FieldScore(0.0, f"no prediction; expected {want}", "date")
    text = as_text(pred)
    found = date_candidates(text) or [d for d in [_parse(text)[0]] if d is not None]
    for d in found:
        if d.month == month and d.day == day and f"{d.year:04d}".startswith(prefix):
            return FieldScore(
                1.0, f"same month, day and stated year digits ({d} vs {want})", "date"
            )
    return FieldScore(0.0, f"no date with the stated month, day and year digits ({want})", "date")


def is_null_expectation(gold: Any, settings: FieldSettings = DEFAULT_FIELD_SETTINGS) -> bool:
    """True when an expected date holds no real date: a blank template or a label only.

    "_____ day of ____, 19", "[]/[]/[]", "Effective Date:", "the date of the Closing" are null
    expectations; a parseable date ("11/4/10", even "[]/[]/2020") never is, nor a month and day
    without their year ("12/01/[]", scored on what it states), nor a word answer such as
    "perpetual" (it falls back to name matching).
    """
    text = as_text(gold)
    # ``is_blank(text) or parse_date(text) is not None``, the cached parse read directly
    if not text.strip() or _parse(text)[0] is not None or yearless_date(text) is not None:
        return False
    if _TEMPLATE.search(text):
        return True
    words = tokens(text)
    return bool(words) and set(words) <= {w.lower() for w in settings.date_label_words}


def _phrase_level(text: str) -> bool:
    """A date phrase precise to the month or day: three or more tokens, or an explicit month."""
    return len(tokens(text)) >= 3 or bool(token_set(text) & _MONTH_WORDS)


_MONTH_WORDS = frozenset({
    "jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june",
    "jul", "july", "aug", "august", "sep", "sept", "september", "oct", "october", "nov",
    "november", "dec", "december",
})  # fmt: skip


def _partial(p: ParsedDate, g: ParsedDate, s: FieldSettings) -> tuple[float, str]:
    """Partial credit on shared components (both sides parsed, not equal)."""
    if p.full and g.full and p == g:
        return 1.0, f"same date ({g})"
    if p.year == g.year and p.month is not None and p.month == g.month:
        return s.date_partial_month, f"same year and month ({p} vs {g})"
    po, go = p.ordinal(), g.ordinal()
    if po is not None and go is not None and abs(po - go) <= s.date_cluster_days:
        return s.date_partial_cluster, f"within {s.date_cluster_days} days ({p} vs {g})"
    if p.year == g.year:
        return s.date_partial_year, f"same year only ({p} vs {g})"
    return 0.0, f"different dates ({p} vs {g})"


def score_date_field(
    pred: Any, gold: Any, settings: FieldSettings = DEFAULT_FIELD_SETTINGS
) -> FieldScore:
    """Date score, in order: null expectation; exact; containment; partial credit; name match.

    - a month and day without (all of) their year (CUAD's "12/01/[]", "09/14/200[]"): 1.0
      when the prediction writes that month and day in a year starting with the stated digits,
      else 0.0 (issue 34: they were null expectations, a right answer 0.0);
    - null expectation (template/label-only gold): empty prediction 1.0, anything else 0.0;
    - both parse to the same date → 1.0: the same full date, or the same partial date when the
      label itself is partial (CUAD's "[]/[]/2004"); a bare year against a full date stays
      partial credit;
    - containment: the label's month/day-level date phrase is inside the prediction or vice
      versa, or a full date written in one side equals the other side's date → 1.0;
    - partial credit (best over the dates written): same year and month 0.67, within 45 days
      0.67, same year only 0.33, else 0.0;
    - a side with no date at all ("perpetual") falls back to ``score_name_field``.
    """
    stated = yearless_date(gold) if type(gold) is str else None
    if stated is not None:
        return _score_yearless(pred, stated)
    if is_null_expectation(gold, settings):
        if is_blank(pred):
            return FieldScore(1.0, "null expectation: no date expected, none predicted", "date")
        return FieldScore(0.0, "null expectation: no date expected, one predicted", "date")
    if is_blank(pred):
        return FieldScore(float(is_blank(gold)), "no prediction", "date")
    ptext, gtext = as_text(pred), as_text(gold)
    # ``parse_date`` of each text, and whether it is exactly one simple date, cached together
    (p, p_simple), (g, g_simple) = _parse(ptext), _parse(gtext)
    if p is not None and g is not None and p == g:
        # the answer states exactly what the label states: a full date, or a CUAD partial
        # date ("[]/[]/2004", "1/[]/2020") answered with the same year (and month)
        return FieldScore(1.0, f"same date ({g})", "date")
    if p_simple and g_simple and p is not None and g is not None:
        # two texts of exactly one (different) full date each: three tokens apiece, so
        # neither phrase contains the other, and each writes only its own date
        best = _partial(p, g, settings)
        return FieldScore(best[0], best[1], "date")
    if (_phrase_level(gtext) and contains_phrase(ptext, gtext)) or (
        _phrase_level(ptext) and contains_phrase(gtext, ptext)
    ):
        return FieldScore(1.0, "date phrase contained", "date")
    p_all = date_candidates(ptext) or ([p] if p else [])
    g_all = date_candidates(gtext) or ([g] if g else [])
    if g is not None and g.full and g in p_all:
        return FieldScore(1.0, f"expected date {g} written in the prediction", "date")
    if p is not None and p.full and p in g_all:
        return FieldScore(1.0, f"predicted date {p} is one of the expected dates", "date")
    if p_all and g_all:
        best = max((_partial(pc, gc, settings) for pc in p_all for gc in g_all), key=lambda r: r[0])
        return FieldScore(best[0], best[1], "date")
    fallback = score_name_field(ptext, gtext, settings)
    side = "prediction" if p is None else "expected value"
    return FieldScore(fallback.score, f"{side} has no date; name match: {fallback.reason}", "date")
