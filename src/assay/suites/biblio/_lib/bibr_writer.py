"""Write an export in bibr's 12.2 shape, so a converter's output is a bibr export.

Seed 002's GROBID converter writes each TEI file "as a bibr export, with extraction.producer
naming GROBID and extraction.converter the converter"; ``assay biblio grobid-tei --format
bibr-12`` (and ``jats-gold``) do so with this module. Every key bibr's 12.2 schema requires is
written, in its order, with its value formats: DOIs bare and lower-case (null when not a DOI),
ORCID iDs as https URIs, 1-based ids, section types from bibr's closed vocabulary, ``year`` an
integer. The printed citation string (``raw``) is kept as a text row of a ``references``
section, linked from its ``bib[].text_id``, so reading the file back loses nothing the metrics
use.

The value rules this shape cannot carry otherwise:

- a reference's printed author list is ``authors_text`` when the export has one, else the
  family names joined by ", " (what bibr's evaluator reads of a structured list);
- ``pages`` "161-82" becomes ``first_page`` "161", ``last_page`` "82" (as printed);
- ``source.file_name`` is the paper's PDF, ``<paper id>.pdf``, on both sides (bibr's harness
  joins by it when a DOI is missing; ``grobid-run`` names its inputs so), ``sha256`` the digest
  of the file converted, ``input_format`` ``tei`` or ``jats``;
- section types map to bibr's vocabulary (introduction → intro, methods → method,
  conclusion → discussion, acknowledgements → acknowledgment, others → unknown).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from assay.suites.biblio._lib.export import PaperExport, parse_export
from assay.suites.biblio._lib.normalize import extract_year, normalize_doi, normalize_orcid
from assay.suites.biblio._lib.references import page_pair
from assay.suites.biblio._lib.sections import section_type_key

SCHEMA_VERSION = "12.2"
_DOI = re.compile(r"^10\.[0-9]{4,9}/[^\sA-Z]+$")
#: bibr 12's section_type vocabulary
SECTION_TYPES = frozenset(
    {
        "title",
        "abstract",
        "intro",
        "method",
        "results",
        "discussion",
        "references",
        "acknowledgment",
        "funding",
        "keywords",
        "endnote",
        "appendix",
        "data_availability",
        "author_contributions",
        "coi",
        "ethics",
        "footnote",
        "table",
        "figure",
        "unknown",
    }
)


def bibr_section_type(kind: str) -> str:
    """A section type in bibr's vocabulary (unknown when it has no counterpart)."""
    key = section_type_key(kind)
    return key if key in SECTION_TYPES else "unknown"


def _doi(value: str | None) -> str | None:
    doi = normalize_doi(value)
    return doi if doi and _DOI.match(doi) else None


def _orcid(value: str | None) -> str | None:
    orcid = normalize_orcid(value)
    return f"https://orcid.org/{orcid}" if orcid else None


def _year(value: str | None) -> int | None:
    year = extract_year(value)
    return int(year) if year else None


def _software(text: str | None, fallback: str) -> dict[str, Any]:
    """``{name, version, build_sha}`` from "name version" (version "unknown" when absent)."""
    parts = (text or "").split()
    name = parts[0] if parts else fallback
    return {"name": name, "version": " ".join(parts[1:]) or "unknown", "build_sha": None}


def to_bibr12(
    record: Mapping[str, Any],
    *,
    paper_id: str,
    file_name: str,
    input_format: str,
    sha256: str | None,
    converter: tuple[str, str],
    completed_at: str | None = None,
) -> dict[str, Any]:
    """The bibr 12.2 export of an assay-shaped export record (see the module docstring)."""
    export: PaperExport = parse_export(record)
    m, ex = export.metadata, export.extraction
    authors: list[dict[str, Any]] = []
    affiliations: dict[str, list[int]] = {}
    for aid, a in enumerate(export.authors, start=1):
        given, family = (a.given or None), (a.family or None)
        if not given and not family and a.full_name:
            words = a.full_name.split()
            given, family = " ".join(words[:-1]) or None, words[-1]
        authors.append(
            {
                "author_id": aid,
                "given": given,
                "family": family,
                "suffix": None,
                "literal": None,
                "email": a.email or None,
                "corresponding": bool(a.corresponding),
                "orcid": _orcid(a.orcid),
                "role": [],
                "credit_roles": [],
            }
        )
        for text in a.affiliations:
            affiliations.setdefault(text, []).append(aid)
    sections: list[dict[str, Any]] = []
    texts: list[dict[str, Any]] = []

    def add_text(text: str, section_id: int) -> int:
        texts.append(
            {
                "text": text,
                "text_id": len(texts) + 1,
                "paragraph_id": section_id,
                "section_id": section_id,
                "page_number": None,
                "formatted": None,
            }
        )
        return len(texts)

    def add_section(header: str | None, kind: str) -> int:
        sid = len(sections) + 1
        sections.append(
            {
                "section_id": sid,
                "header": header,
                "level": 1,
                "parent_section_id": None,
                "section_type": kind,
            }
        )
        return sid

    for s in export.sections:
        sid = add_section(s.title, bibr_section_type(s.type))
        for line in (x for x in s.text.split("\n") if x.strip()):
            add_text(line, sid)
    ref_section = add_section(None, "references") if any(r.raw for r in export.references) else 0
    bib = []
    for bid, r in enumerate(export.references, start=1):
        first, last = page_pair(r)
        # each author's family name, a family-less one (a group author) written whole: its last
        # word alone ("Adolescents") would be another first author to bibr's first-word rule
        printed = r.authors_text or ", ".join(filter(None, (a.listed_name() for a in r.authors)))
        bib.append(
            {
                "bib_id": bid,
                "text_id": add_text(r.raw, ref_section) if r.raw and r.raw.strip() else None,
                "bib_type": None,
                "doi": _doi(r.doi),
                "title": r.title or None,
                "authors": printed or None,
                "editors": ", ".join(e.family_name() for e in r.editors if e.family_name()) or None,
                "publisher": None,
                "year": _year(r.year),
                "year_suffix": None,
                "date": None,
                "published_date": None,
                "container": r.container or None,
                "volume": r.volume or None,
                "issue": r.issue or None,
                "first_page": first or None,
                "last_page": last or None,
            }
        )
    producer = _software(
        f"{ex.producer or ''} {ex.producer_version or ''}".strip() or None, "unknown"
    )
    return {
        "paper_id": paper_id,
        "schema_version": SCHEMA_VERSION,
        "source": {"file_name": file_name, "sha256": sha256, "input_format": input_format},
        "metadata": {
            "title": m.title or None,
            "abstract": m.abstract or None,
            "keywords": list(m.keywords),
            "doi": _doi(m.doi),
        },
        "author": authors,
        "affiliation": [
            {"affiliation_id": i, "text": text, "author_ids": ids}
            for i, (text, ids) in enumerate(affiliations.items(), start=1)
        ],
        "funding": [],
        "text": texts,
        "section": sections,
        "url": [],
        "bib": bib,
        "xref": [],
        "figure": [],
        "table": [],
        "footnote": [],
        "eq": [],
        "metadata_match": [],
        "affiliation_match": [],
        "funding_match": [],
        "bib_match": [],
        "extraction": {
            "producer": producer,
            "converter": {"name": converter[0], "version": converter[1], "build_sha": None},
            "completed_at": completed_at or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "ocr": None,
            "llm": None,
            "warnings": [],
        },
    }
