"""Unicode normalization shared by every task suite: case, compatibility forms, Latin accents."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable

# Everything the character sets below select (combining marks, general category M, letters
# named LATIN ...) lives in planes 0 and 1 plus the variation-selector supplement (E0100-E01EF)
# of plane 14; planes 2-3 are ideographs and the rest is unassigned or private use. Scanning
# only these ranges keeps the one-off cost near 0.1 s; a test checks them against a full scan.
_SCAN_RANGES = (range(0x20000), range(0xE0000, 0xE1000))


def _ranges_body(code_points: list[int]) -> str:
    """Body of a regex character class (no brackets) holding exactly `code_points` (sorted)."""
    parts: list[str] = []
    start = prev = -2
    for cp in [*code_points, -2]:
        if cp != prev + 1:
            if start >= 0:
                parts.append(f"\\U{start:08x}-\\U{prev:08x}")
            start = cp
        prev = cp
    return "".join(parts)


def _char_set(keep: Callable[[str], bool], ranges: Iterable[range] = _SCAN_RANGES) -> str:
    """Regex atom matching one code point that `keep` accepts.

    Astral code points sit behind a cheap guard: `re` checks BMP sets with a bitmap but walks
    astral ranges one by one, which would otherwise cost that walk at every position.
    """
    selected = [cp for r in ranges for cp in r if keep(chr(cp))]
    bmp = _ranges_body([cp for cp in selected if cp <= 0xFFFF])
    astral = _ranges_body([cp for cp in selected if cp > 0xFFFF])
    branches = [f"[{bmp}]"] if bmp else []
    if astral:
        branches.append(f"(?=[\\U00010000-\\U0010ffff])[{astral}]")
    return f"(?:{'|'.join(branches)})" if branches else "(?!)"


@functools.cache
def _latin_marks() -> re.Pattern[str]:
    """A run of combining marks (canonical class != 0) right after a LATIN ... character."""
    latin = _char_set(lambda ch: unicodedata.name(ch, "").startswith("LATIN"))
    marks = _char_set(lambda ch: unicodedata.combining(ch) != 0)
    return re.compile(f"(?<={latin}){marks}+")


def strip_latin_diacritics(text: str) -> str:
    """Remove accents from Latin letters only, so other scripts keep their meaningful marks.

    Rule: NFKD, drop combining marks (``unicodedata.combining != 0``) that follow a base whose
    Unicode name starts with "LATIN", then NFC. Letters with no decomposition (Polish ł,
    Vietnamese đ, œ, ø) are unchanged; Greek tonos, Cyrillic breve, Devanagari, Arabic and
    Hebrew marks are kept.
    """
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFC", _latin_marks().sub("", decomposed))


def normalize_text(text: str) -> str:
    """Canonical form for comparing answers: casefold, NFKD, Latin accents stripped, NFC.

    "Ångström" -> "angstrom", "ﬁ" -> "fi", "ＡＢＣ" -> "abc", "Straße" -> "strasse". Casefolding
    is applied again after NFKD because compatibility decompositions can yield upper case or
    foldable marks ("℃" -> "°C", "ͺ" -> " " + U+0345); without it the result is not idempotent.
    """
    if text.isascii():
        return text.lower()
    return strip_latin_diacritics(unicodedata.normalize("NFKD", text.casefold()).casefold())
