"""JATS (publisher XML) → paper export: the gold side of the biblio suite.

Title, DOI, the main abstract (not digests, teasers or table-of-contents abstracts; a
structured abstract's sections joined), the direct-child authors of the article's contrib
groups (a collaboration is one author: its member list is not searched, which a ``.//contrib``
search would over-count), affiliations through ``xref``, references from ``element-citation``,
``mixed-citation`` and ``citation`` with DOIs from ``pub-id`` or doi.org links, and body sections.
"""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

from assay._io.xml import (
    XmlError,
    children,
    find_all,
    first,
    local_name,
    parse_xml,
    text_of,
)
from assay.suites.biblio._lib.export import SCHEMA_VERSION
from assay.suites.biblio._lib.normalize import normalize_doi

__all__ = ["JATS_CONVERTER", "jats_to_export", "section_type"]

#: the converter an export converted from JATS records (``extraction.converter``): data
#: written into every export, so the string stays as it is whatever the module is called
JATS_CONVERTER = "assay.adapters.jats"
#: the name of assay 0.1 (``assay.adapters.jats.CONVERTER``), kept for one version
CONVERTER = JATS_CONVERTER
#: abstract types that are not the paper's main abstract
SECONDARY_ABSTRACTS = frozenset(
    {
        "executive-summary",
        "teaser",
        "toc",
        "web-summary",
        "graphical",
        "short",
        "precis",
        "editor-summary",
        "digest",
        "lay-summary",
        "plain-language-summary",
        "author-highlights",
        "highlights",
    }
)
_SKIPPED_KWD_GROUPS = frozenset({"research-organism", "subject", "heading"})
_AFF_MARK = re.compile(r"^[\s\d*†‡§¶#,a-z]{0,3}(?=[A-Z\s])")
_SECTION_TYPES = (
    ("introduction", ("intro", "background")),
    ("methods", ("method", "materials", "experimental", "patients", "study design")),
    ("results", ("result", "findings")),
    ("discussion", ("discussion",)),
    ("conclusion", ("conclusion", "concluding")),
    ("acknowledgements", ("acknowledg",)),
)
_BODY_SKIP = (
    "title",
    "label",
    "fig",
    "table-wrap",
    "fig-group",
    "disp-formula",
    "supplementary-material",
)


def section_type(title: str, declared: str | None = None) -> str:
    """A section's type: its declared ``sec-type`` (first of a list), else inferred from the
    title (introduction, methods, results, discussion, conclusion, acknowledgements), else other.
    """
    if declared:
        head = declared.split("|")[0].strip().lower()
        for kind, words in _SECTION_TYPES:
            if any(w in head for w in words):
                return kind
        return head
    low = title.lower()
    for kind, words in _SECTION_TYPES:
        if any(w in low for w in words):
            return kind
    return "other"


def _person(name_el: etree._Element) -> dict[str, Any]:
    """A ``name`` or ``string-name`` element as given/family/full_name."""
    family = text_of(first(name_el, "surname"))
    given = text_of(first(name_el, "given-names"))
    if not family and not given:
        full = text_of(name_el)
        return {"given": None, "family": None, "full_name": full or None}
    full = " ".join(p for p in (given, family) if p)
    return {"given": given or None, "family": family or None, "full_name": full or None}


def _article_meta(root: etree._Element) -> etree._Element | None:
    front = next(children(root, "front"), None)
    return next(children(front, "article-meta"), None) if front is not None else None


def _doi_from(el: etree._Element) -> str:
    for pid in find_all(el, "pub-id", "article-id", "object-id"):
        if (pid.get("pub-id-type") or "").lower() == "doi":
            return normalize_doi(text_of(pid))
    for link in find_all(el, "ext-link", "uri", "comment"):
        href = link.get("{http://www.w3.org/1999/xlink}href") or ""
        for candidate in (href, text_of(link)):
            if "doi" in candidate.lower() or candidate.strip().startswith("10."):
                doi = normalize_doi(candidate)
                if doi:
                    return doi
    return ""


def _main_abstract(meta: etree._Element) -> str:
    abstracts = list(children(meta, "abstract"))
    chosen = next((a for a in abstracts if not a.get("abstract-type")), None)
    if chosen is None:
        chosen = next(
            (a for a in abstracts if a.get("abstract-type", "").lower() not in SECONDARY_ABSTRACTS),
            None,
        )
    if chosen is None:
        return ""
    parts = [
        text_of(child, skip=("label",))
        for child in children(chosen)
        if local_name(child) not in ("title", "label")
    ]
    return " ".join(p for p in parts if p)


def _affiliations(meta: etree._Element) -> dict[str, str]:
    out: dict[str, str] = {}
    for aff in find_all(meta, "aff"):
        aid = aff.get("id")
        text = _AFF_MARK.sub("", text_of(aff, skip=("label",))).strip(" ,;")
        if aid and text:
            out[aid] = text
    return out


def _contribs(meta: etree._Element) -> list[etree._Element]:
    """Author contribs that are direct children of the article's own contrib groups."""
    out = []
    for group in children(meta, "contrib-group"):
        for contrib in children(group, "contrib"):
            if contrib.get("contrib-type", "author").lower() == "author":
                out.append(contrib)
    return out


def _author(contrib: etree._Element, affs: dict[str, str]) -> dict[str, Any]:
    collab = next(children(contrib, "collab"), None)
    name_el = next(children(contrib, "name", "string-name"), None)
    if collab is not None and name_el is None:
        person: dict[str, Any] = {
            "given": None,
            "family": None,
            "full_name": text_of(collab, skip=("contrib-group", "xref", "fn", "address")) or None,
        }
    elif name_el is not None:
        person = _person(name_el)
    else:
        person = {"given": None, "family": None, "full_name": None}
    aff_texts = [
        affs[rid]
        for x in children(contrib, "xref")
        if x.get("ref-type") == "aff"
        for rid in (x.get("rid") or "").split()
        if rid in affs
    ]
    aff_texts += [text_of(a, skip=("label",)) for a in children(contrib, "aff")]
    email_el = first(contrib, "email")
    orcid = next(
        (
            text_of(c)
            for c in children(contrib, "contrib-id")
            if (c.get("contrib-id-type") or "").lower() == "orcid"
        ),
        "",
    )
    corresp = contrib.get("corresp") == "yes" or any(
        x.get("ref-type") == "corresp" for x in children(contrib, "xref")
    )
    return {
        **person,
        "affiliations": list(dict.fromkeys(a for a in aff_texts if a)),
        "email": text_of(email_el) or None,
        "orcid": orcid or None,
        "corresponding": True if corresp else None,
    }


def _assign_corresp_emails(
    meta: etree._Element, contribs: list[etree._Element], authors: list[dict[str, Any]]
) -> None:
    """Corresponding-author emails printed in author notes go to the author they name."""
    for note in find_all(meta, "corresp"):
        emails = [text_of(e) for e in find_all(note, "email") if text_of(e)]
        nid = note.get("id")
        linked = [
            i
            for i, c in enumerate(contribs)
            if nid
            and any(
                x.get("ref-type") == "corresp" and nid in (x.get("rid") or "").split()
                for x in children(c, "xref")
            )
        ]
        if not linked:
            note_text = text_of(note).lower()
            linked = [
                i
                for i, a in enumerate(authors)
                if a.get("family") and a["family"].lower() in note_text
            ][:1]
        for i, email in zip(linked, emails, strict=False):
            authors[i]["corresponding"] = True
            if not authors[i]["email"]:
                authors[i]["email"] = email
    if any(a["corresponding"] for a in authors):
        for a in authors:
            a["corresponding"] = bool(a["corresponding"])


def _people(cit: etree._Element, kind: str) -> list[dict[str, Any]]:
    groups = [
        g for g in children(cit, "person-group") if g.get("person-group-type", "author") == kind
    ]
    if groups:
        names = [n for g in groups for n in children(g, "name", "string-name", "collab")]
    elif kind == "author":
        names = list(children(cit, "name", "string-name", "collab"))
    else:
        names = []
    out = []
    for n in names:
        if local_name(n) == "collab":
            out.append({"given": None, "family": None, "full_name": text_of(n)})
        else:
            out.append(_person(n))
    return out


def _reference(ref: etree._Element) -> dict[str, Any] | None:
    cits = [
        c for c in find_all(ref, "element-citation", "mixed-citation", "citation", "nlm-citation")
    ]
    if not cits:
        return None
    structured = next((c for c in cits if local_name(c) == "element-citation"), cits[0])
    printed = next((c for c in cits if local_name(c) == "mixed-citation"), None)
    title = text_of(first(structured, "article-title", "chapter-title"))
    source = text_of(first(structured, "source"))
    pub_type = (structured.get("publication-type") or structured.get("citation-type") or "").lower()
    container: str | None = source or None
    if not title and pub_type not in ("journal", ""):
        title, container = source, None
    fpage = text_of(first(structured, "fpage"))
    lpage = text_of(first(structured, "lpage"))
    pages = "-".join(p for p in (fpage, lpage) if p) or text_of(first(structured, "elocation-id"))
    year = text_of(first(structured, "year"))
    doi = ""
    for c in cits:
        doi = doi or _doi_from(c)
    raw = text_of(printed, skip=("label",)) if printed is not None else ""
    return {
        "doi": doi or None,
        "title": title or None,
        "year": year or None,
        "authors": _people(structured, "author"),
        "editors": _people(structured, "editor"),
        "container": container,
        "volume": text_of(first(structured, "volume")) or None,
        "issue": text_of(first(structured, "issue")) or None,
        "pages": pages or None,
        "raw": raw or None,
    }


def _sections(root: etree._Element) -> list[dict[str, Any]]:
    body = next(children(root, "body"), None)
    if body is None:
        return []
    out: list[dict[str, Any]] = []
    loose: list[str] = []
    for child in children(body):
        if local_name(child) == "sec":
            title = text_of(next(children(child, "title"), None))
            out.append(
                {
                    "type": section_type(title, child.get("sec-type")),
                    "title": title or None,
                    "text": text_of(child, skip=_BODY_SKIP),
                }
            )
        elif local_name(child) not in _BODY_SKIP:
            text = text_of(child, skip=_BODY_SKIP)
            if text:
                loose.append(text)
    if loose:
        out.insert(0, {"type": "body", "title": None, "text": " ".join(loose)})
    return out


def jats_to_export(
    data: bytes, *, producer: str = "JATS", converter: str = JATS_CONVERTER
) -> dict[str, Any]:
    """Convert one JATS article (bytes) to an export dict; XmlError when it cannot be read."""
    root = parse_xml(data)
    meta = _article_meta(root)
    if local_name(root) != "article" or meta is None:
        raise XmlError(f"not a JATS article: root <{local_name(root)}> without front/article-meta")
    title_group = next(children(meta, "title-group"), None)
    title_el = (
        next(children(title_group, "article-title"), None) if title_group is not None else None
    )
    title = text_of(title_el, skip=("xref", "fn"))
    doi = next(
        (
            normalize_doi(text_of(a))
            for a in children(meta, "article-id")
            if (a.get("pub-id-type") or "").lower() == "doi"
        ),
        "",
    )
    keywords = [
        text_of(k)
        for g in children(meta, "kwd-group")
        if (g.get("kwd-group-type") or "").lower() not in _SKIPPED_KWD_GROUPS
        for k in children(g, "kwd")
        if text_of(k)
    ]
    affs = _affiliations(meta)
    contribs = _contribs(meta)
    authors = [_author(c, affs) for c in contribs]
    if affs and authors and not any(a["affiliations"] for a in authors):
        shared = list(affs.values())
        for a in authors:
            a["affiliations"] = list(shared)
    _assign_corresp_emails(meta, contribs, authors)
    back = next(children(root, "back"), None)
    refs = []
    if back is not None:
        for ref in find_all(back, "ref"):
            converted = _reference(ref)
            if converted is not None:
                refs.append(converted)
    return {
        "schema_version": SCHEMA_VERSION,
        "metadata": {
            "title": title or None,
            "doi": doi or None,
            "abstract": _main_abstract(meta) or None,
            "keywords": keywords,
        },
        "authors": authors,
        "references": refs,
        "sections": _sections(root),
        "extraction": {"producer": producer, "converter": converter, "abstained": []},
    }
