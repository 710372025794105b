"""The paper export that predictions and gold both take, its JSON Schema and its reader.

One JSON object a paper: ``metadata`` (title, doi, abstract, keywords), ``authors``,
``references``, ``sections``, ``extraction`` (producer, converter, abstention markers) and
``schema_version``. Exports older than schema 11 name the metadata block ``info``; it is read
the same way. Unknown keys are kept and ignored, so a producer may add its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from assay._io.readers import json_type

#: the schema version this suite writes; exports below 11 name the metadata block ``info``
SCHEMA_VERSION = 11
#: front-matter fields an extractor may abstain on (``extraction.abstained``)
ABSTAIN_FIELDS = ("title", "doi", "abstract", "authors", "keywords")
#: abstaining on the whole front matter abstains on every field above but the DOI (bibr's rule)
FRONT_MATTER = "front_matter"
FRONT_MATTER_FIELDS = ("title", "abstract", "authors", "keywords")

Text = str | None


class _Block(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True, populate_by_name=True)


def _text(value: Any) -> Any:
    """Numbers are accepted where text is expected (a year of 2011, a volume of 12)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(int(value)) if float(value).is_integer() else str(value)
    return value


class Metadata(_Block):
    """Title, DOI, abstract and keywords of the paper itself."""

    title: Text = None
    doi: Text = None
    abstract: Text = None
    keywords: list[str] = Field(default_factory=list)


class Author(_Block):
    """One author as printed: ``full_name`` is the name as printed ("given family")."""

    given: Text = None
    family: Text = None
    full_name: Text = Field(None, description="the full printed name")
    affiliations: list[str] = Field(default_factory=list)
    email: Text = None
    orcid: Text = None
    corresponding: bool | None = None

    def printed_name(self) -> str:
        """The full printed name: "given family" (bibr's form), else ``full_name`` when the
        export has no name parts (a string-name as CERMINE prints it)."""
        parts = " ".join(p.strip() for p in (self.given, self.family) if p and p.strip())
        return parts or (self.full_name or "").strip()

    def family_name(self) -> str:
        """The family name, else the last word of the printed name."""
        if self.family and self.family.strip():
            return self.family.strip()
        words = self.printed_name().split()
        return words[-1] if words else ""


class RefAuthor(_Block):
    """An author (or editor) of a cited work."""

    given: Text = None
    family: Text = None
    full_name: Text = None

    def family_name(self) -> str:
        """The family name; from a full name, the part before a comma, else the last word."""
        if self.family and self.family.strip():
            return self.family.strip()
        name = (self.full_name or "").strip()
        if "," in name:
            return name.split(",", 1)[0].strip()
        words = name.split()
        return words[-1] if words else ""

    def listed_name(self) -> str:
        """The author as bibr lists a cited author: the family name, else the name as given,
        whole (a group author, "National High Blood Pressure Education Program Working Group";
        its last word alone would read as another first author)."""
        return (self.family or "").strip() or (self.full_name or "").strip()


def _ref_person(value: Any) -> Any:
    return {"full_name": value} if isinstance(value, str) else value


class Reference(_Block):
    """One cited work; ``raw`` is the citation string as printed; editors stay apart."""

    doi: Text = None
    title: Text = None
    year: Text = None
    authors: list[RefAuthor] = Field(default_factory=list)
    editors: list[RefAuthor] = Field(default_factory=list)
    authors_text: Text = Field(
        None, description="the author list exactly as printed (bibr's bib[].authors string)"
    )
    container: Text = Field(None, description="journal, book or proceedings title")
    volume: Text = None
    issue: Text = None
    pages: Text = Field(None, description="the page range as printed, e.g. 161-82")
    first_page: Text = Field(None, description="first page as printed (bibr's bib[].first_page)")
    last_page: Text = Field(None, description="last page as printed (bibr's bib[].last_page)")
    raw: Text = Field(None, description="the raw citation string as printed")

    @field_validator("year", "volume", "issue", "pages", "first_page", "last_page", mode="wrap")
    @classmethod
    def _numbers(cls, value: Any, handler: Any) -> Any:
        if value is None or isinstance(value, str):
            return value
        return handler(_text(value))

    @field_validator("authors", "editors", mode="before")
    @classmethod
    def _people(cls, value: Any) -> Any:
        return [_ref_person(v) for v in value] if isinstance(value, list) else value


class Section(_Block):
    """A section of the body (or the abstract, typed ``abstract``)."""

    type: str = "unknown"
    title: Text = None
    text: str = ""


class Extraction(_Block):
    """Who produced the export, how it was converted, and what the producer abstained on."""

    producer: Text = None
    producer_version: Text = None
    converter: Text = None
    abstained: list[str] = Field(
        default_factory=list,
        description=f"front-matter fields the producer abstained on: {', '.join(ABSTAIN_FIELDS)}"
        f" or {FRONT_MATTER} for all of them but doi",
    )


class PaperExport(_Block):
    """One paper: what both predictions and gold are."""

    schema_version: int | None = None
    metadata: Metadata = Field(default_factory=Metadata)
    authors: list[Author] = Field(default_factory=list)
    references: list[Reference] = Field(default_factory=list)
    sections: list[Section] = Field(default_factory=list)
    extraction: Extraction = Field(default_factory=Extraction)

    def abstained_fields(self) -> frozenset[str]:
        """The front-matter fields abstained on. ``front_matter`` expands to every field but
        ``doi``: as in bibr, the paper's DOI comes from its own identity path and stays scored
        (an explicit ``doi`` mark still suppresses it)."""
        marks = {m.strip().lower() for m in self.extraction.abstained}
        fields = {m for m in marks if m in ABSTAIN_FIELDS}
        if FRONT_MATTER in marks:
            fields |= set(FRONT_MATTER_FIELDS)
        return frozenset(fields)


BLOCKS = ("metadata", "info", "authors", "references", "sections", "extraction")
ExportProblem = Literal["not_object", "no_blocks", "invalid"]


class ExportError(ValueError):
    """An export that cannot be read: the message names the field and what was expected."""


def parse_export(record: Mapping[str, Any]) -> PaperExport:
    """Validate one export; ``info`` is read as ``metadata`` (exports older than schema 11).

    Raises ExportError naming the offending field when a block has the wrong shape, or when
    the object holds none of the export blocks (it is then not a paper export at all).
    """
    if not isinstance(record, Mapping):
        raise ExportError(f"expected a JSON object, found {json_type(record)}")
    data = dict(record)
    if "metadata" not in data and "info" in data:
        data["metadata"] = data.pop("info")
    if not any(block in data for block in BLOCKS):
        raise ExportError(
            "not a paper export: none of the blocks metadata (or info), authors, references, "
            "sections, extraction"
        )
    for block in ("metadata", "extraction"):
        if data.get(block) is None:
            data.pop(block, None)
    for block in ("authors", "references", "sections"):
        if data.get(block) is None:
            data.pop(block, None)
    try:
        return PaperExport.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "<root>"
        more = f" (and {len(err.errors()) - 1} more)" if len(err.errors()) > 1 else ""
        raise ExportError(f"field {loc}: {first['msg']}{more}") from None


def missing_blocks(record: Mapping[str, Any]) -> list[str]:
    """Blocks an export leaves out (read as empty): named in the item's flags."""
    present = set(record)
    if "info" in present:
        present.add("metadata")
    return [b for b in ("metadata", "authors", "references") if b not in present]


_SUFFIXES = re.compile(r"(\.(gold|grobid|tei|cermine|jats|export|sectiongold|nxml|xml))+$", re.I)


def paper_id(filename_stem: str) -> str:
    """The paper id of a file: its stem without producer suffixes (``x.grobid.tei`` → ``x``)."""
    return _SUFFIXES.sub("", filename_stem) or filename_stem


def export_json_schema() -> dict[str, Any]:
    """The JSON Schema of the export (what docs/schemas/biblio-export.schema.json holds)."""
    schema = PaperExport.model_json_schema(mode="validation")
    schema["properties"]["info"] = {
        "$ref": "#/$defs/Metadata",
        "description": "the metadata block under its name before schema 11 (read as metadata)",
    }
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://assay.invalid/schemas/biblio-export.schema.json"
    schema["title"] = "assay biblio paper export"
    schema["description"] = (
        f"One paper, prediction or gold (schema_version {SCHEMA_VERSION}). Exports older than "
        "schema 11 name the metadata block 'info'; readers accept both."
    )
    return schema
