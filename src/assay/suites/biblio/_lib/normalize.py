"""Normalization of the fields the metrics compare: DOIs, titles, names, years, pages, ids."""

from __future__ import annotations

import re

from assay._engine.keys import normalize_doi as core_normalize_doi

_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d|21\d\d)(?!\d)")
_ORCID = re.compile(r"(\d{4})-?(\d{4})-?(\d{4})-?(\d{3}[\dX])", re.I)


_GLUED_URL = re.compile(r"(https?://|www\.)", re.I)


def normalize_doi(value: str | None) -> str:
    """``assay._engine.keys.normalize_doi`` with "" for no DOI (the metrics compare strings), after
    cutting a URL glued to the DOI's suffix by text extraction, as bibr does
    (``10.1000/abc.1http://www.x.org`` → ``10.1000/abc.1``).

    ``https://doi.org/10.1000/ABC.`` → ``10.1000/abc``. Text without a ``10.`` DOI body is "".
    """
    if not value:
        return ""
    text = value.strip()
    body = text.lower().find("10.")
    slash = text.find("/", body) if body >= 0 else -1
    if slash >= 0:
        glued = _GLUED_URL.search(text, slash + 1)
        if glued:
            text = text[: glued.start()]
    return core_normalize_doi(text) or ""


def extract_year(value: str | None) -> str:
    """The first plausible four-digit year (1500-2199) in ``value``; "" if none."""
    if not value:
        return ""
    match = _YEAR.search(str(value))
    return match.group(1) if match else ""


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
