"""The extraction suite (seed 000 §3, §4, §16): typed field scoring of extracted JSON objects,
optimal list matching, the factuality audit, run-level diagnostics and miss attribution."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

from assay._engine.item import Item
from assay._engine.spill import record_list
from assay._engine.task import BlockSummaries, ItemScore, LoadedInputs, Task
from assay._fields import load_embedder
from assay._io.readers import read_records
from assay._io.records import ParseFailure, ReadResult, SourceRecord
from assay.errors import UsageError
from assay.metrics import MetricSpec
from assay.suites.extraction.audit import SourceIndex
from assay.suites.extraction.batch import list_similarities
from assay.suites.extraction.chunks import merge_chunks, parse_json_object
from assay.suites.extraction.diagnostics import SummaryPart, merge_summary_parts, summary_part
from assay.suites.extraction.metrics import extraction_metric_specs
from assay.suites.extraction.rows import (
    DocumentInput,
    DocumentScore,
    resolve_types,
    score_document,
)
from assay.suites.extraction.schema import schema_errors
from assay.suites.extraction.settings import ExtractionSettings
from assay.suites.extraction.sources import (
    SourceText,
    check_source_dir,
    document_key,
    load_json_schema,
    load_master_labels,
    source_file,
)

#: keys of the canonical records ``load`` builds (the object itself and what travels with it)
OBJECT, SOURCE, DOC_CLASS, CATEGORIES, MASTER = (
    "_object",
    "_source_text",
    "_doc_class",
    "_categories",
    "_master",
)


def _object_of(
    res: SourceRecord, field: str | None, drop: set[str], role: str
) -> tuple[dict[str, Any] | None, str | None]:
    """The extracted (or expected) object of a record, and a reason when there is none."""
    if field is None:
        return {k: v for k, v in res.record.items() if k not in drop}, None
    if field not in res.record:
        return None, f"{role} record has no field {field!r}"
    obj, reason = parse_json_object(res.record[field])
    if obj is None:
        return None, f"{role} field {field!r}: {reason}"
    return obj, None


class ExtractionTask(Task[ExtractionSettings], BlockSummaries[ExtractionSettings]):
    """Structured extraction: one gold and one predicted JSON object per document."""

    name: ClassVar[str] = "extraction"
    description: ClassVar[str] = (
        "structured extraction: typed field scores, list matching, factuality audit"
    )
    metrics_version: ClassVar[int] = 1
    settings_model = ExtractionSettings
    #: documents scored together: their list matrices are computed in one vectorized pass
    batch_size: ClassVar[int] = 64
    #: the summaries read a block's ids and cut scores only (``summary_part``): each block's
    #: documents (85 kB sources in the gold records) can go once it is scored
    release_scored: ClassVar[bool] = True

    def load(
        self, pred: Path, gold: tuple[Path, ...], settings: ExtractionSettings
    ) -> LoadedInputs:
        """Predictions and gold (one file or directory each, or one file holding both)."""
        if len(gold) > 1:
            raise UsageError("extraction takes one gold file or directory")
        pred_raw = record_list(read_records(pred, id_field=settings.id_field))
        gold_raw = (
            record_list(read_records(gold[0], id_field=settings.id_field)) if gold else pred_raw
        )
        source_dir = check_source_dir(settings.source) if settings.source else None
        master = (
            load_master_labels(
                settings.master_labels, settings.master_labels_key, settings.master_labels_columns
            )
            if settings.master_labels
            else {}
        )
        reserved = {
            settings.id_field,
            settings.source_field,
            settings.doc_class_field,
            settings.categories_field,
        }
        # record_list: plain lists, or on the out-of-core path lists on disk (``spooling``)
        golds = record_list(self._gold(r, settings, reserved, source_dir, master) for r in gold_raw)
        del gold_raw
        preds = record_list(self._pred(r, settings, reserved) for r in pred_raw)
        return LoadedInputs(preds, golds, (pred,), gold or (pred,))

    def _gold(
        self,
        res: ReadResult,
        s: ExtractionSettings,
        reserved: set[str],
        source_dir: Path | None,
        master: dict[str, dict[str, str]],
    ) -> ReadResult:
        if isinstance(res, ParseFailure):
            return res
        obj, reason = _object_of(res, s.expected_field, reserved, "gold")
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

    def _pred(self, res: ReadResult, s: ExtractionSettings, reserved: set[str]) -> ReadResult:
        if isinstance(res, ParseFailure):
            return res
        obj, reason = _object_of(res, s.predicted_field, reserved, "prediction")
        if obj is None:
            return ParseFailure(res.file, res.line, reason or "", res.id)
        record: dict[str, Any] = {OBJECT: obj}
        text = res.record.get(s.source_field)
        if isinstance(text, str):
            record[SOURCE] = text
        return SourceRecord(res.id, record, res.file, res.line)

    def prepare(self, loaded: LoadedInputs, settings: ExtractionSettings) -> ExtractionSettings:
        """A JSON Schema named by path is read once, so the run records its content."""
        if isinstance(settings.json_schema, str):
            return settings.model_copy(
                update={"json_schema": load_json_schema(settings.json_schema)}
            )
        return settings

    def score_item(self, item: Item, settings: ExtractionSettings) -> ItemScore:
        return self.score_batch([item], settings)[0]

    def score_batch(self, items: Sequence[Item], settings: ExtractionSettings) -> list[ItemScore]:
        """The items' rows, with every list field's similarity matrices computed for the whole
        batch at once (``list_similarities``)."""
        embedder, _ = load_embedder(settings)
        types: dict[tuple[str | None, tuple[str, ...]], _Types] = {}
        prepared = [_document(item, settings, types) for item in items]
        matrices = list_similarities([doc for doc, _ in prepared], settings, embedder=embedder)
        return [
            _item_score(
                item, doc, note, score_document(doc, settings, embedder=embedder, similarity=sim)
            )
            for item, (doc, note), sim in zip(items, prepared, matrices, strict=True)
        ]

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: ExtractionSettings
    ) -> list[MetricSpec]:
        return extraction_metric_specs(scores, settings)

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: ExtractionSettings
    ) -> dict[str, Any]:
        return self.merge_summaries([self.summarize_block(items, scores, settings)], settings)

    def summarize_block(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: ExtractionSettings
    ) -> SummaryPart:
        """The block's documents with only what the summaries read (``SummaryPart``)."""
        return summary_part(items, scores, settings)

    def merge_summaries(self, parts: Sequence[Any], settings: ExtractionSettings) -> dict[str, Any]:
        _, status = load_embedder(settings)
        return merge_summary_parts(parts, settings, embedding=status.line())

    def cli_group(self) -> Any:
        from assay._cli.extraction import extraction_group

        return extraction_group


class _Types(NamedTuple):
    """A document's field types (``resolve_types``), the types its schema check reads (the
    declared ones it has no field for too) and the field names it knows besides the gold's."""

    types: dict[str, str]
    schema_types: dict[str, str]
    known: frozenset[str]


def _field_types(
    fields: list[str],
    gold: dict[str, Any],
    doc_class: str | None,
    s: ExtractionSettings,
    cache: dict[tuple[str | None, tuple[str, ...]], _Types],
) -> _Types:
    """The ``_Types`` of a document; kept in ``cache`` (read-only then) for the next documents
    of its class and fields when every field's type is declared, as it then reads nothing of
    the document's gold."""
    key = (doc_class, tuple(fields))
    found = cache.get(key)
    if found is not None:
        return found
    declared = {**s.field_types, **s.doc_classes.get(doc_class or "", {})}
    types = resolve_types(fields, gold, doc_class, s)
    found = _Types(
        types,
        {**types, **{k: v for k, v in declared.items() if k not in types}},
        frozenset(declared).union(fields),
    )
    if all(declared.get(f) for f in fields):
        cache[key] = found
    return found


def _document(
    item: Item,
    s: ExtractionSettings,
    types_cache: dict[tuple[str | None, tuple[str, ...]], _Types] | None = None,
) -> tuple[DocumentInput, dict[str, Any]]:
    """What one item's row is scored from, and the chunk-merge note for its details
    (``types_cache``: the ``_Types`` of the documents before it, ``_field_types``)."""
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
    field_types = _field_types(
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


def _item_score(
    item: Item, doc: DocumentInput, note: dict[str, Any], result: DocumentScore
) -> ItemScore:
    """The item's score from its row: the row's dicts themselves, made for this item by
    ``score_document`` (not copied), with the chunk-merge note and each field's score added."""
    flags = result.flags if item.status == "ok" else (item.status, *result.flags)
    details = result.details
    details.update(note)  # no key of the note is a key of the row's details
    scores = result.scores
    shown = details["fields"]
    for name in doc.fields:
        scores[f"{name}_score"] = shown[name]["score"]
    return ItemScore(stats=result.stats, scores=scores, flags=flags, details=details)
