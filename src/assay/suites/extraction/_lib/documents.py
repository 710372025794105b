"""The canonical records of the extraction suite, and the document a scored item is read into.

``load`` turns every gold and prediction record into a canonical record: the expected or the
extracted object under ``OBJECT``, with what travels with it (the source text, the doc class,
the labeled CUAD categories, the master labels) under their own keys (``gold_record``,
``pred_record``). Scoring reads an item's two records back into a ``DocumentInput``
(``read_document``): the chunks merged, the field types resolved, the schema checked and the
source document indexed for the audit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from assay._engine.item import Item
from assay._io.records import ParseFailure, ReadResult, SourceRecord, missing_field
from assay.suites.extraction._lib.audit import SourceIndex
from assay.suites.extraction._lib.chunks import merge_chunks, parse_json_object
from assay.suites.extraction._lib.rows import DocumentInput, resolve_types
from assay.suites.extraction._lib.schema import schema_errors
from assay.suites.extraction._lib.sources import SourceText, document_key, source_file
from assay.suites.extraction.settings import ExtractionSettings

#: keys of the canonical records ``load`` builds (the object itself and what travels with it)
OBJECT, SOURCE, DOC_CLASS, CATEGORIES, MASTER = (
    "_object",
    "_source_text",
    "_doc_class",
    "_categories",
    "_master",
)


def object_of(
    res: SourceRecord, field: str | None, drop: set[str], role: str
) -> tuple[dict[str, Any] | None, str | None]:
    """The extracted (or expected) object of a record, and a reason when there is none."""
    if field is None:
        return {k: v for k, v in res.record.items() if k not in drop}, None
    if field not in res.record:
        return None, missing_field(role, field, res.record)
    obj, reason = parse_json_object(res.record[field])
    if obj is None:
        return None, f"{role} field {field!r}: {reason}"
    return obj, None


def gold_record(
    res: ReadResult,
    s: ExtractionSettings,
    reserved: set[str],
    source_dir: Path | None,
    master: dict[str, dict[str, str]],
) -> ReadResult:
    """The canonical gold record of ``res`` (a failure when it holds no expected object)."""
    if isinstance(res, ParseFailure):
        return res
    obj, reason = object_of(res, s.expected_field, reserved, "gold")
    if obj is None:
        return ParseFailure(res.file, res.line, reason or "", res.id)
    record: dict[str, Any] = {OBJECT: obj}
    text: str | SourceText | None = res.record.get(s.source_field)
    if text is None and source_dir is not None and res.id is not None:
        text = source_file(source_dir, res.id)  # read when its block is scored
    if isinstance(text, str | SourceText):
        record[SOURCE] = text
    doc_class = res.record.get(s.doc_class_field, s.doc_class)
    if doc_class is not None:
        record[DOC_CLASS] = str(doc_class)
    categories = res.record.get(s.categories_field)
    if isinstance(categories, dict):
        record[CATEGORIES] = categories
    if master and res.id is not None and document_key(res.id) in master:
        record[MASTER] = master[document_key(res.id)]
    return SourceRecord(res.id, record, res.file, res.line)


def pred_record(res: ReadResult, s: ExtractionSettings, reserved: set[str]) -> ReadResult:
    """The canonical prediction record of ``res`` (a failure when it holds no object)."""
    if isinstance(res, ParseFailure):
        return res
    obj, reason = object_of(res, s.predicted_field, reserved, "prediction")
    if obj is None:
        return ParseFailure(res.file, res.line, reason or "", res.id)
    record: dict[str, Any] = {OBJECT: obj}
    text = res.record.get(s.source_field)
    if isinstance(text, str):
        record[SOURCE] = text
    return SourceRecord(res.id, record, res.file, res.line)


class FieldTypes(NamedTuple):
    """A document's field types (``resolve_types``), the types its schema check reads (the
    declared ones it has no field for too) and the field names it knows besides the gold's."""

    types: dict[str, str]
    schema_types: dict[str, str]
    known: frozenset[str]


#: the ``FieldTypes`` of the documents read so far, by (doc class, fields) (``field_types_of``)
TypesCache = dict[tuple[str | None, tuple[str, ...]], FieldTypes]


def field_types_of(
    fields: list[str],
    gold: dict[str, Any],
    doc_class: str | None,
    s: ExtractionSettings,
    cache: TypesCache,
) -> FieldTypes:
    """The ``FieldTypes`` of a document; kept in ``cache`` (read-only then) for the next documents
    of its class and fields when every field's type is declared, as it then reads nothing of
    the document's gold."""
    key = (doc_class, tuple(fields))
    found = cache.get(key)
    if found is not None:
        return found
    declared = {**s.field_types, **s.doc_classes.get(doc_class or "", {})}
    types = resolve_types(fields, gold, doc_class, s)
    found = FieldTypes(
        types,
        {**types, **{k: v for k, v in declared.items() if k not in types}},
        frozenset(declared).union(fields),
    )
    if all(declared.get(f) for f in fields):
        cache[key] = found
    return found


def read_document(
    item: Item,
    s: ExtractionSettings,
    types_cache: TypesCache | None = None,
) -> tuple[DocumentInput, dict[str, Any]]:
    """What one item's row is scored from, and the chunk-merge note for its details
    (``types_cache``: the ``FieldTypes`` of the documents before it, ``field_types_of``)."""
    gold_obj: dict[str, Any] = item.gold[OBJECT]
    doc_class = item.gold.get(DOC_CLASS)
    pred_obj: dict[str, Any] | None = None
    merge_note: dict[str, Any] = {"n_chunks": 0, "chunked": False}
    if item.status == "ok" and item.pred is not None:
        pred_obj = dict(item.pred[OBJECT])
        chunks = pred_obj.pop(s.chunks_field, None)
        if isinstance(chunks, list):
            merged = merge_chunks(chunks, confidence_field=s.confidence_field)
            pred_obj = {**pred_obj, **merged.value}
            merge_note = {
                "n_chunks": merged.n_chunks,
                "chunked": True,
                "chunks_skipped": list(merged.skipped),
            }
        else:
            merge_note = {"n_chunks": 1, "chunked": False}
    fields = list(s.fields) if s.fields is not None else list(gold_obj)
    field_types = field_types_of(
        fields, gold_obj, doc_class, s, {} if types_cache is None else types_cache
    )
    if pred_obj is None:
        errors = [item.error or "no prediction"]
        reasoning = None
    else:
        reasoning = pred_obj.pop(s.reasoning_field, None)
        pred_obj.pop(s.confidence_field, None)
        errors = schema_errors(
            pred_obj,
            field_types.schema_types,
            field_types.known.union(gold_obj),
            json_schema=s.json_schema if isinstance(s.json_schema, dict) else None,
            allow_unknown=s.allow_unknown_fields,
            max_list_items=s.max_list_items,
        )
    text = item.gold.get(SOURCE)
    raw: bytes | None = None
    if isinstance(text, SourceText):
        raw, text = text.ascii_bytes(), text.text()
    if text is None and item.pred is not None:
        text = item.pred.get(SOURCE)
    doc = DocumentInput(
        gold=gold_obj,
        pred=pred_obj,
        types=field_types.types,
        fields=fields,
        source=SourceIndex(text, raw) if isinstance(text, str) and text else None,
        categories=item.gold.get(CATEGORIES, {}),
        master=item.gold.get(MASTER, {}),
        schema_errors=errors,
        reasoning=reasoning,
    )
    note = {
        **merge_note,
        "doc_class": doc_class,
        "doc_verification": doc.source is not None and s.doc_verification,
    }
    return doc, note
