"""Corporate suffixes written with dots or spaces between their letters ("L.P.", "L. L. C.",
"p.l.c.", "S.p.A."), collapsed to one word before names and ids are tokenized.

Tokenized as they stand, "Borealis L.P." is "borealis l p": two one-letter tokens that any
other "… L.P." shares, so that Jaro–Winkler was trusted between different firms (issue 34: on
CUAD's party names, pairs of distinct firms sharing only such a suffix matched 46% of the time,
"Sanofi Pasteur S.A." / "SAGEM S.A." 0.627), and an id kept "LP" where "Borealis LP" dropped it.
Collapsed, the suffix is one suffix token ("borealis lp"), which names treat as no evidence and
ids drop. Only runs whose letters spell a known suffix are collapsed: "e.l.f." and "U.S.A."
stay as they are.
"""

from __future__ import annotations

import re
from functools import lru_cache

from assay._fields.settings import DEFAULT_CORPORATE_SUFFIXES

#: the letters of every suffix that may be written dotted, lowercased
DOTTED_SUFFIXES = frozenset(s.lower() for s in DEFAULT_CORPORATE_SUFFIXES)
#: a run of single letters each followed by a dot (a space may follow the dot), the last one's
#: dot optional at the end of a word: "L.P.", "L. P.", "L.L.C", "p.l.c.", "S.p.A."
_DOTTED = re.compile(r"(?<![^\W\d_])(?:[A-Za-z]\.\s?)+[A-Za-z](?:\.|(?![^\W\d_]))")
_SPACE_OR_DOT = re.compile(r"[.\s]")


@lru_cache(maxsize=65536)
def collapse_dotted_suffixes(text: str) -> str:
    """``text`` with each dotted run of single letters that spells a corporate suffix written
    as that one word: "Borealis L.P." → "Borealis LP", "Acme, L. L. C." → "Acme, LLC"; other
    runs ("e.l.f. Beauty", "U.S.A.") unchanged."""
    if "." not in text:
        return text
    return _DOTTED.sub(_collapse, text)


def _collapse(match: re.Match[str]) -> str:
    run = match.group(0)
    letters = _SPACE_OR_DOT.sub("", run)
    if letters.lower() in DOTTED_SUFFIXES:
        return letters + (" " if run[-1].isspace() else "")
    return run
