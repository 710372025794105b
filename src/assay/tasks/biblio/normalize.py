"""Normalization of the fields the metrics compare: DOIs, titles, names, years, pages, ids."""

from __future__ import annotations

import re
from functools import lru_cache

from assay.core.keys import normalize_doi as core_normalize_doi
from assay.text import normalize_text, word_tokens

_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d|21\d\d)(?!\d)")
_ORCID = re.compile(r"(\d{4})-?(\d{4})-?(\d{4})-?(\d{3}[\dX])", re.I)
_PAGE_PART = re.compile(r"[A-Za-z]*\d+[A-Za-z]*|[ivxlcdm]+", re.I)


def normalize_doi(value: str | None) -> str:
    """``assay.core.keys.normalize_doi`` with "" for no DOI (the metrics compare strings).

    ``https://doi.org/10.1000/ABC.`` → ``10.1000/abc``. Text without a ``10.`` DOI body is "".
    """
    return core_normalize_doi(value) or ""


@lru_cache(maxsize=65536)
def title_key(value: str) -> str:
    """A title for exact comparison: casefold, NFKD, Latin accents off, punctuation and
    whitespace collapsed to single spaces (``word_tokens`` joined)."""
    return " ".join(word_tokens(value))


@lru_cache(maxsize=65536)
def fuzzy_key(value: str) -> str:
    """Text for rapidfuzz scorers: ``normalize_text`` then punctuation to spaces, collapsed."""
    return " ".join(word_tokens(normalize_text(value)))


@lru_cache(maxsize=65536)
def family_key(value: str) -> str:
    """A family name for exact recall checks: letters and digits only, normalized."""
    return "".join(word_tokens(value))


def extract_year(value: str | None) -> str:
    """The first plausible four-digit year (1500-2199) in ``value``; "" if none."""
    if not value:
        return ""
    match = _YEAR.search(str(value))
    return match.group(1) if match else ""


def volume_key(value: str | None) -> str:
    """A volume (or issue) for comparison: letters and digits only, lower case."""
    return "".join(word_tokens(value or ""))


@lru_cache(maxsize=65536)
def page_range(value: str | None) -> tuple[str, str]:
    """(first page, last page) with an abbreviated last page expanded (``161-82`` → 161, 182).

    Pages are compared on their alphanumeric parts, so ``e1002`` and ``S12`` work; a single
    page gives (page, "").
    """
    parts = _PAGE_PART.findall(value or "")
    if not parts:
        return "", ""
    first = parts[0].lower()
    last = parts[1].lower() if len(parts) > 1 else ""
    if first.isdigit() and last.isdigit() and len(last) < len(first):
        last = first[: len(first) - len(last)] + last
    return first, last


def normalize_email(value: str | None) -> str:
    """Lower-cased, stripped email without a ``mailto:`` prefix; "" if none."""
    if not value:
        return ""
    text = value.strip().lower()
    return text[7:] if text.startswith("mailto:") else text


def normalize_orcid(value: str | None) -> str:
    """The 16-character ORCID iD (``0000-0002-1825-0097``) from any URL or spacing; "" if none."""
    if not value:
        return ""
    match = _ORCID.search(value.replace(" ", ""))
    return "-".join(match.groups()).upper() if match else ""
