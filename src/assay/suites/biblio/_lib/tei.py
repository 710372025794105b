"""GROBID TEI → paper export (the prediction side when scoring GROBID).

Carries every field the biblio metrics credit when GROBID emits it: title, DOI, abstract,
keywords, authors with given names, affiliations (the raw string when GROBID included it),
email, ORCID and the corresponding role; references with DOIs found at any level of the
``biblStruct``, editors kept apart from authors, and the raw citation string. GROBID does not
classify body sections, so every body section is typed ``unknown``.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from assay._io.xml import XmlError, children, find_all, first, local_name, parse_xml, text_of
from assay.suites.biblio._lib.export import SCHEMA_VERSION
from assay.suites.biblio._lib.normalize import normalize_doi

__all__ = ["TEI_CONVERTER", "TEI_PRODUCER", "tei_to_export"]

#: the producer and converter an export converted from TEI records (``extraction``): data
#: written into every export, so the strings stay as they are whatever the module is called
TEI_PRODUCER = "GROBID"
TEI_CONVERTER = "assay.adapters.tei"
#: the names of assay 0.1 (``assay.adapters.tei.CONVERTER``), kept for one version
PRODUCER, CONVERTER = TEI_PRODUCER, TEI_CONVERTER
_XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


def _pers(pers: etree._Element | None) -> dict[str, Any]:
    if pers is None:
        return {"given": None, "family": None, "full_name": None}
    given = " ".join(text_of(f) for f in children(pers, "forename") if text_of(f))
    family = " ".join(text_of(s) for s in children(pers, "surname") if text_of(s))
    full = " ".join(p for p in (given, family) if p) or text_of(pers)
    return {"given": given or None, "family": family or None, "full_name": full or None}


def _affiliation(aff: etree._Element) -> str:
    """The raw affiliation string when GROBID kept it, else its parts joined by commas."""
    raw = next((n for n in children(aff, "note") if n.get("type") == "raw_affiliation"), None)
    if raw is not None:
        return text_of(raw, skip=("label",))
    parts = [text_of(o) for o in children(aff, "orgName")]
    address = next(children(aff, "address"), None)
    if address is not None:
        parts += [text_of(a) for a in children(address)]
    return ", ".join(p for p in parts if p)


def _author(author: etree._Element) -> dict[str, Any] | None:
    pers = next(children(author, "persName"), None)
    if pers is None:
        return None  # GROBID lists affiliation-only <author> elements; they are not people
    orcid = next(
        (text_of(i) for i in children(author, "idno") if (i.get("type") or "").upper() == "ORCID"),
        "",
    )
    email = next(children(author, "email"), None)
    roles = (author.get("role") or "").lower().split()
    return {
        **_pers(pers),
        "affiliations": list(
            dict.fromkeys(
                a for a in (_affiliation(x) for x in children(author, "affiliation")) if a
            )
        ),
        "email": text_of(email) or None,
        "orcid": orcid or None,
        "corresponding": True if "corresp" in roles else None,
    }


def _doi_anywhere(bibl: etree._Element) -> str:
    for idno in find_all(bibl, "idno"):
        if (idno.get("type") or "").upper() == "DOI":
            doi = normalize_doi(text_of(idno))
            if doi:
                return doi
    for ptr in find_all(bibl, "ptr"):
        doi = normalize_doi(ptr.get("target"))
        if doi:
            return doi
    return ""


def _people(parent: etree._Element | None, name: str) -> list[dict[str, Any]]:
    if parent is None:
        return []
    out = []
    for person in children(parent, name):
        pers = next(children(person, "persName"), None)
        if pers is not None:
            out.append(_pers(pers))
        elif text_of(person):
            out.append({"given": None, "family": None, "full_name": text_of(person)})
    return out


def _scope(imprint: etree._Element | None, unit: str) -> str:
    if imprint is None:
        return ""
    for scope in children(imprint, "biblScope"):
        if scope.get("unit") == unit:
            start, end = scope.get("from"), scope.get("to")
            if start or end:
                return "-".join(p for p in (start, end) if p)
            return text_of(scope)
    return ""


def _reference(bibl: etree._Element) -> dict[str, Any]:
    analytic = next(children(bibl, "analytic"), None)
    monogr = next(children(bibl, "monogr"), None)
    a_title = text_of(first(analytic, "title")) if analytic is not None else ""
    m_titles = list(children(monogr, "title")) if monogr is not None else []
    m_title = next((text_of(t) for t in m_titles if text_of(t)), "")
    if a_title:
        title, container = a_title, m_title
    else:
        title, container = m_title, ""
    authors = _people(analytic, "author") or _people(monogr, "author")
    editors = _people(monogr, "editor") + _people(analytic, "editor")
    imprint = next(children(monogr, "imprint"), None) if monogr is not None else None
    year = ""
    if imprint is not None:
        date = next(
            (d for d in children(imprint, "date") if d.get("type") in (None, "published")), None
        )
        if date is not None:
            year = (date.get("when") or text_of(date))[:4]
    raw = next((n for n in children(bibl, "note") if n.get("type") == "raw_reference"), None)
    doi = _doi_anywhere(bibl)
    return {
        "doi": doi or None,
        "title": title or None,
        "year": year or None,
        "authors": authors,
        "editors": editors,
        "container": container or None,
        "volume": _scope(imprint, "volume") or None,
        "issue": _scope(imprint, "issue") or None,
        "pages": _scope(imprint, "page") or None,
        "raw": text_of(raw) if raw is not None else None,
    }


def _sections(text_el: etree._Element | None) -> list[dict[str, Any]]:
    body = next(children(text_el, "body"), None) if text_el is not None else None
    if body is None:
        return []
    out = []
    for div in children(body, "div"):
        head = next(children(div, "head"), None)
        text = text_of(div, skip=("head", "figure", "formula", "note"))
        if text or head is not None:
            out.append({"type": "unknown", "title": text_of(head) or None, "text": text})
    return out


def tei_to_export(data: bytes, *, converter: str = TEI_CONVERTER) -> dict[str, Any]:
    """Convert one GROBID TEI document (bytes) to an export dict; XmlError when unreadable."""
    root = parse_xml(data)
    header = next(children(root, "teiHeader"), None)
    if local_name(root) != "TEI" or header is None:
        raise XmlError(f"not a GROBID TEI document: root <{local_name(root)}> without teiHeader")
    file_desc = next(children(header, "fileDesc"), None)
    title_stmt = first(file_desc, "titleStmt")
    title = text_of(first(title_stmt, "title"))
    source = first(file_desc, "sourceDesc")
    bibl = first(source, "biblStruct")
    analytic = first(bibl, "analytic")
    doi = ""
    if bibl is not None:
        doi = next(
            (
                normalize_doi(text_of(i))
                for i in find_all(bibl, "idno")
                if (i.get("type") or "").upper() == "DOI"
            ),
            "",
        )
    authors: list[dict[str, Any]] = []
    if analytic is not None:
        for author_el in children(analytic, "author"):
            converted = _author(author_el)
            if converted is not None:
                authors.append(converted)
    if any(a["corresponding"] for a in authors):
        for person in authors:
            person["corresponding"] = bool(person["corresponding"])
    profile = next(children(header, "profileDesc"), None)
    abstract = text_of(first(profile, "abstract")) if profile is not None else ""
    keywords = [text_of(t) for t in find_all(profile, "term")] if profile is not None else []
    app = next(
        (a for a in find_all(header, "application") if (a.get("ident") or "").upper() == "GROBID"),
        None,
    )
    text_el = next(children(root, "text"), None)
    back = next(children(text_el, "back"), None) if text_el is not None else None
    refs = (
        [_reference(b) for lb in find_all(back, "listBibl") for b in children(lb, "biblStruct")]
        if back is not None
        else []
    )
    return {
        "schema_version": SCHEMA_VERSION,
        "metadata": {
            "title": title or None,
            "doi": doi or None,
            "abstract": abstract or None,
            "keywords": [k for k in keywords if k],
        },
        "authors": authors,
        "references": refs,
        "sections": _sections(text_el),
        "extraction": {
            "producer": TEI_PRODUCER,
            "producer_version": app.get("version") if app is not None else None,
            "converter": converter,
            "abstained": [],
        },
    }
