"""The extraction suite's settings section (``extraction:`` in assay.yaml).

It extends the field scorers' thresholds (``assay._fields.FieldSettings``) with where the fields
live in the records, the doc classes that map fields to types, the factuality audit, the chunk
merge, the diagnostics and the miss-attribution families. Mapping-valued options also accept a
JSON string, so every one of them can be given on the command line.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator

from assay._fields import FieldSettings, check_field_type
from assay._io.strict import loads_lenient
from assay._judge import JudgeSettings

#: CUAD clause families for miss attribution (seed 000 §16): keywords matched in order
DEFAULT_MISS_FAMILIES: dict[str, list[str]] = {
    "license grant": ["license", "licence", "sublicense", "right to use"],
    "minimum commitment": ["minimum", "at least", "shall purchase", "commitment"],
    "ip ownership": ["intellectual property", "ownership", "shall own", "owns", "title to"],
    "anti-assignment": ["assign", "transfer this agreement"],
    "audit": ["audit", "inspect", "books and records"],
    "revenue sharing": ["royalt", "revenue", "profit", "commission"],
    "cap on liability": ["liability", "liable", "in no event"],
    "exclusivity": ["exclusive", "exclusivity", "sole supplier"],
    "non-compete": ["compete", "competitive", "competing"],
    "termination": ["terminat", "expire", "expiration"],
    "confidentiality": ["confidential", "non-disclosure", "disclose"],
    "insurance": ["insurance", "insured"],
    "warranty": ["warrant"],
    "indemnification": ["indemnif", "hold harmless"],
    "payment": ["pay", "invoice", "fee", "price"],
}


class ExtractionSettings(FieldSettings):
    """Where the fields are, how they are typed and audited (plus the field thresholds)."""

    id_field: str = Field("id", description="record field holding the document id")
    expected_field: str | None = Field(
        "expected", description="gold record field holding the expected object (null: the record)"
    )
    predicted_field: str | None = Field(
        "predicted",
        description="prediction record field holding the extracted object or its JSON text "
        "(null: the record)",
    )
    source: str | None = Field(
        None, description="directory of source documents, <id>.txt (enables doc verification)"
    )
    source_field: str = Field(
        "source_text", description="gold/prediction record field with the source text inline"
    )
    doc_class_field: str = Field("doc_class", description="gold record field naming the doc class")
    doc_class: str | None = Field(None, description="doc class when the gold names none")
    field_types: dict[str, str] = Field(
        default={}, description="field → type for every doc class (JSON mapping)"
    )
    doc_classes: dict[str, dict[str, str]] = Field(
        default={},
        description="doc class → {field → type} (JSON mapping)",
        json_schema_extra={"cli": False},
    )
    fields: list[str] | None = Field(
        None, description="score only these fields (default: every field of the gold object)"
    )
    json_schema: str | dict[str, Any] | None = Field(
        None, description="JSON Schema (file path or mapping) predictions must conform to"
    )
    allow_unknown_fields: bool = Field(
        False, description="without a schema, fields the gold does not know keep schema_valid"
    )
    max_list_items: int = Field(
        1000, ge=1, description="longer predicted lists are invalid and truncated for scoring"
    )
    doc_verification: bool = Field(
        True, description="ground predicted items in the source document when there is one"
    )
    verification_token_coverage: float = Field(
        0.7, ge=0, le=1, description="token coverage in the document that grounds an item"
    )
    presence_threshold: float = Field(
        0.7, ge=0, le=1, description="coverage of a labeled clause that makes a category present"
    )
    categories_field: str = Field(
        "categories", description="gold field: CUAD category → labeled clause text(s)"
    )
    category_fields: dict[str, str] = Field(
        default={},
        description="CUAD category → the field its clauses go to (JSON)",
        json_schema_extra={"cli": False},
    )
    reasoning_field: str = Field(
        "reasoning", description="predicted trace: {entries: [{field, evidence}]} (never scored)"
    )
    chunks_field: str = Field(
        "chunks", description="prediction field holding per-chunk outputs to merge"
    )
    confidence_field: str = Field("confidence", description="merged by max across chunks")
    posthoc_fields: list[str] | None = Field(
        None, description="list fields summed by the post-hoc metrics (default: every list field)"
    )
    master_labels: str | None = Field(
        None, description="master-labels CSV of normalized answers for the diagnostics"
    )
    master_labels_key: str = Field(
        "Filename", description="master-labels column naming the document"
    )
    master_labels_columns: dict[str, str] = Field(
        default={},
        description="field → master-labels column (JSON mapping)",
        json_schema_extra={"cli": False},
    )
    miss_families: dict[str, list[str]] = Field(
        default={k: list(v) for k, v in DEFAULT_MISS_FAMILIES.items()},
        description="miss attribution: family → keywords, first match wins (JSON mapping)",
        json_schema_extra={"cli": False},
    )
    store_items: bool = Field(
        True, description="keep predicted and expected list items in the run (for misses)"
    )
    judge: JudgeSettings = Field(
        default_factory=JudgeSettings,
        description="the --judge pass's endpoint, model, limits, cache and prices "
        "(assay extraction judge)",
        json_schema_extra={"cli": False},
    )
    embedding_backend: str | None = Field(
        None,
        description="the embedder the rescue ran with, set by the suite when embedding_enabled "
        "(not an option): 'wordllama-<version>:<variant>', or 'off: <why>' when it could not "
        "load (seed 000 §3 degrades silently to the string score; the record names it)",
        json_schema_extra={"cli": False},
    )

    @field_validator(
        "field_types",
        "doc_classes",
        "category_fields",
        "master_labels_columns",
        "miss_families",
        mode="before",
    )
    @classmethod
    def _json_mapping(cls, value: Any) -> Any:
        """A mapping given as JSON text (a command-line option) is parsed."""
        if isinstance(value, str):
            try:
                return loads_lenient(value)
            except ValueError as err:  # not JSON, or beyond the depth and size limits
                raise ValueError(f"expected a JSON mapping: {err}") from None
        return value

    @field_validator("json_schema", mode="before")
    @classmethod
    def _inline_schema(cls, value: Any) -> Any:
        if isinstance(value, str) and value.lstrip().startswith("{"):
            try:
                return loads_lenient(value)
            except ValueError as err:  # not JSON, or beyond the depth and size limits
                raise ValueError(f"invalid inline JSON Schema: {err}") from None
        return value

    @field_validator("field_types")
    @classmethod
    def _known_types(cls, value: dict[str, str]) -> dict[str, str]:
        for name, kind in value.items():
            try:
                check_field_type(kind)
            except ValueError as err:
                raise ValueError(f"field {name!r}: {err}") from None
        return value

    @field_validator("doc_classes")
    @classmethod
    def _known_class_types(cls, value: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        for doc_class, mapping in value.items():
            for name, kind in mapping.items():
                try:
                    check_field_type(kind)
                except ValueError as err:
                    raise ValueError(f"doc class {doc_class!r}, field {name!r}: {err}") from None
        return value
