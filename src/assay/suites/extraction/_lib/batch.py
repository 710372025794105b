"""The list fields' similarity matrices of many documents, computed together per element type,
and their optimal assignments, computed together for the whole batch."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from assay._fields import Embedder, element_type, is_entity_list
from assay._fields.batched import element_similarity_matrices
from assay._matching.optimal import optimal_assignments
from assay.suites.extraction._lib.rows import DocumentInput, ListMatch, list_items
from assay.suites.extraction.settings import ExtractionSettings

FloatMatrix = NDArray[np.float64]


def list_similarities(
    docs: Sequence[DocumentInput], s: ExtractionSettings, *, embedder: Embedder | None = None
) -> list[dict[str, ListMatch]]:
    """Per document, each list field's (predicted × expected) similarity matrix and its
    assignment, for the fields where both lists have items: what ``score_document`` would
    compute field by field."""
    wanted: dict[str, list[tuple[int, str, list[str], list[str]]]] = defaultdict(list)
    for k, doc in enumerate(docs):
        for name in doc.fields:
            kind = doc.types[name]
            if is_entity_list(kind):
                p_items, g_items = list_items(doc, name, s)
                if p_items and g_items:
                    wanted[element_type(kind)].append((k, name, p_items, g_items))
    found: list[tuple[int, str, FloatMatrix]] = []
    for element, requests in wanted.items():
        pairs = [(p, g) for _, _, p, g in requests]
        sims = element_similarity_matrices(pairs, element, s, embedder=embedder)
        found.extend((k, name, sim) for (k, name, _, _), sim in zip(requests, sims, strict=True))
    assignments = optimal_assignments([sim for _, _, sim in found], s.bipartite_match_threshold)
    out: list[dict[str, ListMatch]] = [{} for _ in docs]
    for (k, name, sim), assignment in zip(found, assignments, strict=True):
        out[k][name] = ListMatch(sim, assignment)
    return out
