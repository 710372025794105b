"""One document scored into its statistics row (seed 000 §3–§4).

Each expected field is scored by its type (``assay._fields``: id, date, money, duration, name,
free text, containment, entity lists matched optimally at ``bipartite_match_threshold``), and
every predicted value is audited: it is true when it matches a gold label or is grounded in the
source document. From these, per document:

- ``overall_extraction_score`` = mean field score over the expected fields (non-null expected
  value; a missing or failed prediction scores 0 on each);
- ``field_presence`` = share of those fields the model populated (null-expectation dates
  excluded);
- ``schema_valid`` = 1.0 iff the prediction parses and conforms to the schema;
- ``category_presence`` = share of the document's labeled CUAD categories whose clause the
  extraction covers (token coverage, or embedding similarity, ≥ ``presence_threshold``);
- ``overall_verified_precision`` = mean ``verified_precision`` = (GT-matched + doc-grounded) /
  n_predicted over every audited field the model populated;
- per field: ``{field}_score``, and for a list field ``{field}_f1`` (the same list score),
  ``{field}_precision`` (matched_gt / n_predicted) and ``{field}_verified_precision``;
- the counts the run-level metrics sum: ``posthoc.*`` (the audit's n_predicted, matched_gt,
  true_items), ``list.tp/fp/fn``, ``pairs.exact/partial/miss``, the regression errors and the
  span-count drift.

The row is ``score_document``'s (``_lib/rows.py``); a batch of documents has its list fields'
similarity matrices computed together first (``list_similarities``), the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._fields import load_embedder
from assay.suites.extraction._lib.batch import list_similarities
from assay.suites.extraction._lib.documents import TypesCache, read_document
from assay.suites.extraction._lib.rows import DocumentInput, DocumentScore, score_document
from assay.suites.extraction.settings import ExtractionSettings


def score_documents(items: Sequence[Item], settings: ExtractionSettings) -> list[ItemScore]:
    """The items' rows, with every list field's similarity matrices computed for the whole
    batch at once (``list_similarities``)."""
    embedder, _ = load_embedder(settings)
    types: TypesCache = {}
    prepared = [read_document(item, settings, types) for item in items]
    matrices = list_similarities([doc for doc, _ in prepared], settings, embedder=embedder)
    return [
        item_score(
            item, doc, note, score_document(doc, settings, embedder=embedder, similarity=sim)
        )
        for item, (doc, note), sim in zip(items, prepared, matrices, strict=True)
    ]


def item_score(
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
