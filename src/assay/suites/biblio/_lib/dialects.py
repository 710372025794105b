"""Which export shape a file is in, and its translation into the one model the metrics read.

A results or gold directory may hold exports of several shapes; each file is detected on its
own and the dialect is recorded with the paper. The dialects:

``assay-11``
    assay's own shape (``docs/schemas/biblio-export.schema.json``): ``schema_version`` the
    integer 11 (or absent), ``metadata`` (``info`` before schema 11), ``authors``,
    ``references``, ``sections``, ``extraction`` with string fields.
``bibr-12``
    bibr's export schema 12.x (``schema_version`` a string "12.<minor>" at the root):
    ``metadata``, ``author[]`` with affiliations in the ``affiliation[]`` table (linked by
    ``author_ids``), ``bib[]`` with the printed ``authors`` string and printed
    ``first_page``/``last_page``, ``section[]`` + ``text[]`` rows, ``source.file_name`` and
    ``extraction.producer``/``converter`` objects ``{name, version, build_sha}``.
``bibr-11``
    bibr 11.x: the same tables, ``author[].affiliation`` a string, ``bib[].author`` a
    structured split beside the printed ``authors``, ``extraction.bibr_version``.
``bibr-10``
    bibr before 11: no root ``schema_version``, the metadata block named ``info``.

The rules follow bibr's evaluator where a value could be read two ways: a group author's name is
``literal`` (read as its family name), a front-matter abstention is a blocking
``VAL_METADATA_MULTI_ITEM`` issue of the validation block (``extraction.validation``, at the root
before 12), and a text row without a section that is a caption or footnote belongs to a section of
that kind. A file whose ``schema_version`` names no known dialect, or that lacks a block its
dialect requires, is an ``ExportError`` naming the key: never read as an empty paper.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from assay._io.readers import json_type
from assay.suites.biblio._lib.export import FRONT_MATTER, ExportError, PaperExport, parse_export

ASSAY = "assay-11"
BIBR_12 = "bibr-12"
BIBR_11 = "bibr-11"
BIBR_10 = "bibr-10"
DIALECTS = (ASSAY, BIBR_12, BIBR_11, BIBR_10)

#: blocks each dialect must hold (present, of the right JSON type); empty lists are fine
REQUIRED: dict[str, tuple[tuple[str, type], ...]] = {
    ASSAY: (("metadata", dict), ("authors", list), ("references", list)),
    BIBR_12: (
        ("metadata", dict),
        ("author", list),
        ("bib", list),
        ("section", list),
        ("text", list),
        ("extraction", dict),
    ),
    BIBR_11: (("metadata", dict), ("author", list), ("bib", list)),
    BIBR_10: (("info", dict), ("author", list), ("bib", list)),
}
_BIBR_VERSION = re.compile(r"^(\d+)\.(\d+)(?:\.\d+)?$")
#: bibr's blocking validation code for "the front matter was not asserted"
FRONT_MATTER_ABSTENTION = "VAL_METADATA_MULTI_ITEM"
#: assay's block names → bibr's, to name a field of a bibr export in an error
_BIBR_KEYS = {"authors": "author", "references": "bib", "sections": "section"}


def detect(record: Mapping[str, Any]) -> str:
    """The dialect of one export, from its root ``schema_version`` (bibr dispatches on it the
    same way) and, without one, from its block names."""
    if not isinstance(record, Mapping):
        raise ExportError(f"expected a JSON object, found {json_type(record)}")
    if "schema_version" in record:
        version = record["schema_version"]
        if isinstance(version, bool):
            raise ExportError(f"schema_version: expected a string or 11, found {version!r}")
        if isinstance(version, int) or (isinstance(version, str) and version.isdigit()):
            if int(version) == 11:
                return ASSAY
            raise ExportError(
                f"schema_version: unknown schema {version!r} (known: assay 11, bibr '11.x', "
                "'12.x' and bibr exports before 11 without it)"
            )
        match = _BIBR_VERSION.match(version) if isinstance(version, str) else None
        if match and match.group(1) in ("11", "12"):
            return BIBR_12 if match.group(1) == "12" else BIBR_11
        if version is None and ("authors" in record or "references" in record):
            return ASSAY
        raise ExportError(
            f"schema_version: unknown schema {version!r} (known: assay 11, bibr '11.x', '12.x')"
        )
    if "author" in record or "bib" in record:
        return BIBR_10
    return ASSAY


def _check_required(record: Mapping[str, Any], dialect: str) -> None:
    for key, kind in REQUIRED[dialect]:
        if dialect == ASSAY and key == "metadata" and "metadata" not in record:
            key = "info" if "info" in record else key
        if key not in record or record[key] is None:
            raise ExportError(f"{dialect} export without its required '{key}' block")
        if not isinstance(record[key], kind):
            raise ExportError(
                f"field {key}: expected a JSON {'object' if kind is dict else 'array'}, "
                f"found {json_type(record[key])}"
            )


def read_export(record: Mapping[str, Any]) -> tuple[str, PaperExport]:
    """Detect, check the required blocks, translate and validate: (dialect, export)."""
    dialect = detect(record)
    if dialect == ASSAY and not any(
        k in record for k in ("metadata", "info", "authors", "references", "sections")
    ):
        raise ExportError(
            "not a paper export: none of the blocks metadata (or info), authors, references, "
            "sections; nor bibr's author and bib"
        )
    _check_required(record, dialect)
    if dialect == ASSAY:
        return dialect, parse_export(record)
    try:
        return dialect, parse_export(_from_bibr(record, dialect))
    except ExportError as err:  # name the field as the file spells it
        message = str(err)
        for ours, theirs in _BIBR_KEYS.items():
            message = message.replace(f"field {ours}.", f"field {theirs}.")
        raise ExportError(message) from None


def _str(value: Any) -> str | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return str(int(value)) if float(value).is_integer() else str(value)
    return value if isinstance(value, str) else None


def _rows(record: Mapping[str, Any], key: str) -> list[dict[str, Any]]:
    value = record.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ExportError(f"field {key}: expected a JSON array, found {json_type(value)}")
    for i, row in enumerate(value):
        if not isinstance(row, dict):
            raise ExportError(f"field {key}.{i}: expected a JSON object, found {json_type(row)}")
    return value


def _affiliations(record: Mapping[str, Any], author: Mapping[str, Any]) -> list[str]:
    """An author's affiliation strings: 11 and earlier carry ``author[].affiliation`` (bibr joins
    the byline parts with "; "); 12 links ``affiliation[]`` rows by ``author_ids``."""
    if "affiliation" in author:
        value = author["affiliation"]
        if isinstance(value, list):
            return [v for v in value if isinstance(v, str) and v.strip()]
        return [value] if isinstance(value, str) and value.strip() else []
    aid = author.get("author_id")
    return [
        row["text"]
        for row in _rows(record, "affiliation")
        if isinstance(row.get("text"), str) and aid in (row.get("author_ids") or [])
    ]


def _person(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        return {"full_name": value}
    if isinstance(value, dict):
        return {
            "given": _str(value.get("given")) or None,
            "family": _str(value.get("family")) or _str(value.get("literal")) or None,
        }
    return {}


def _producer(value: Any) -> tuple[str | None, str | None]:
    """``{name, version}`` (12) or a plain string: (name, version)."""
    if isinstance(value, dict):
        return _str(value.get("name")), _str(value.get("version"))
    return _str(value), None


def _abstained(record: Mapping[str, Any]) -> list[str]:
    extraction = record.get("extraction")
    validation = extraction.get("validation") if isinstance(extraction, dict) else None
    if not isinstance(validation, dict):
        validation = record.get("validation")
    issues = validation.get("issues") if isinstance(validation, dict) else None
    for issue in issues if isinstance(issues, list) else []:
        if (
            isinstance(issue, dict)
            and issue.get("blocking")
            and issue.get("code") == FRONT_MATTER_ABSTENTION
        ):
            return [FRONT_MATTER]
    return []


def _sections(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``section[]`` with the text of its ``text[]`` rows (document order, one row a line);
    caption and footnote rows without a section make sections of their kind, as bibr groups
    them."""
    sections = _rows(record, "section")
    texts = _rows(record, "text")
    by_section: dict[Any, list[str]] = {}
    kind_of_text = {
        row.get("text_id"): kind
        for kind in ("figure", "table", "footnote")
        for row in _rows(record, kind)
        if row.get("text_id") is not None
    }
    loose: dict[str, list[str]] = {}
    for row in texts:
        text = row.get("text")
        if not isinstance(text, str) or not text:
            continue
        sid = row.get("section_id")
        if sid is not None:
            by_section.setdefault(sid, []).append(text)
        elif row.get("text_id") in kind_of_text:
            loose.setdefault(kind_of_text[row["text_id"]], []).append(text)
    out = [
        {
            "type": (_str(s.get("section_type")) or "unknown").lower(),
            "title": _str(s.get("header")),
            "text": "\n".join(by_section.get(s.get("section_id"), [])),
        }
        for s in sections
    ]
    out += [{"type": kind, "title": None, "text": "\n".join(t)} for kind, t in loose.items()]
    return out


def _from_bibr(record: Mapping[str, Any], dialect: str) -> dict[str, Any]:
    """A bibr export as the assay-shaped dict ``parse_export`` validates."""
    block = record.get("metadata") if dialect != BIBR_10 else record.get("info")
    meta: dict[str, Any] = block if isinstance(block, dict) else {}
    texts = {row.get("text_id"): row.get("text") for row in _rows(record, "text")}
    authors = []
    for a in _rows(record, "author"):
        authors.append(
            {
                "given": _str(a.get("given")) or None,
                "family": _str(a.get("family")) or _str(a.get("literal")) or None,
                "affiliations": _affiliations(record, a),
                "email": _str(a.get("email")) or None,
                "orcid": _str(a.get("orcid")) or None,
                "corresponding": a.get("corresponding"),
            }
        )
    refs = []
    for b in _rows(record, "bib"):
        printed = b.get("authors")
        split = b.get("author")
        structured: list[Any] = split if isinstance(split, list) else []
        if isinstance(printed, list):  # bibr 10 and earlier: a list of names
            structured, printed = printed, None
        edited = b.get("editor")
        editors: list[Any] = edited if isinstance(edited, list) else []
        raw = texts.get(b.get("text_id")) if b.get("text_id") is not None else None
        refs.append(
            {
                "doi": _str(b.get("doi")),
                "title": _str(b.get("title")),
                "year": _str(b.get("year")) or _str(b.get("publication_year")),
                "authors": [_person(p) for p in structured],
                "authors_text": _str(printed),
                "editors": [_person(p) for p in editors],
                "container": _str(b.get("container")) or _str(b.get("journal")),
                "volume": _str(b.get("volume")),
                "issue": _str(b.get("issue")),
                "first_page": _str(b.get("first_page")),
                "last_page": _str(b.get("last_page")),
                "raw": raw if isinstance(raw, str) else None,
            }
        )
    found = record.get("extraction")
    extraction: dict[str, Any] = found if isinstance(found, dict) else {}
    producer, version = _producer(extraction.get("producer"))
    if producer is None and extraction.get("bibr_version") is not None:
        producer, version = "bibr", _str(extraction.get("bibr_version"))
    converter, conv_version = _producer(extraction.get("converter"))
    keywords = meta.get("keywords")
    src = record.get("source")
    source: dict[str, Any] = src if isinstance(src, dict) else {}
    return {
        "metadata": {
            "title": meta.get("title"),
            "doi": meta.get("doi"),
            "abstract": meta.get("abstract"),
            "keywords": [k for k in keywords if isinstance(k, str)]
            if isinstance(keywords, list)
            else [],
        },
        "authors": authors,
        "references": refs,
        "sections": _sections(record),
        "extraction": {
            "producer": producer,
            "producer_version": version,
            "converter": f"{converter} {conv_version}".strip() if converter else None,
            "abstained": _abstained(record),
            "source_file_name": _str(source.get("file_name")),
            "paper_id": _str(record.get("paper_id")),
        },
    }


def source_file_stem(record: Mapping[str, Any]) -> str:
    """The stem of ``source.file_name`` (bibr's filename join key; "" when absent)."""
    source = record.get("source")
    name = source.get("file_name") if isinstance(source, dict) else None
    if not isinstance(name, str) or not name.strip():
        info = record.get("metadata", record.get("info"))
        name = info.get("file_name") if isinstance(info, dict) else None
    if not isinstance(name, str) or not name.strip():
        return ""
    base = name.strip().replace("\\", "/").rsplit("/", 1)[-1]
    return base.rsplit(".", 1)[0] if "." in base else base


SECTION_GOLD_BIBR = "bibr-sectiongold"
SECTION_GOLD_ASSAY = "assay-sectiongold"


def read_section_gold(record: Mapping[str, Any]) -> tuple[str, PaperExport]:
    """A ``*.sectiongold.json``: bibr's ``{paper_id, text_layer_usable, sections: {type:
    {text, provenance, pages}}}``, or assay's ``{sections: [{type, title, text}]}``.

    bibr's reference sections whose heading is not printed (``provenance: unanchored``) are
    left out, as bibr's scorer leaves them out; an artifact whose text layer is not usable
    (``text_layer_usable: false``) is refused by name, since bibr does not score it either.
    """
    if not isinstance(record, Mapping):
        raise ExportError(f"expected a JSON object, found {json_type(record)}")
    if "sections" not in record:
        raise ExportError("section gold without its required 'sections' block")
    sections = record["sections"]
    if isinstance(sections, list):
        return SECTION_GOLD_ASSAY, parse_export({"sections": sections})
    if not isinstance(sections, dict):
        raise ExportError(
            f"field sections: expected a JSON object or array, found {json_type(sections)}"
        )
    if record.get("text_layer_usable") is False:
        raise ExportError("text_layer_usable is false: the artifact has no usable text layer")
    out = []
    for kind, entry in sections.items():
        if not isinstance(entry, dict):
            raise ExportError(f"field sections.{kind}: expected a JSON object")
        if entry.get("provenance") == "unanchored":
            continue
        text = entry.get("text")
        if text is not None and not isinstance(text, str):
            raise ExportError(f"field sections.{kind}.text: expected a string")
        out.append({"type": str(kind).lower(), "title": None, "text": text or ""})
    return SECTION_GOLD_BIBR, parse_export({"sections": out})
