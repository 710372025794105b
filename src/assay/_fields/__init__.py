"""Typed field scorers (seed 000 §3): pure functions ``(pred, gold, settings) -> FieldScore``.

Each scorer returns a value in [0, 1] and the reason; ``score_field`` dispatches on a declared
type (``id``, ``date``, ``money``, ``duration``, ``name``, ``free_text``, ``containment``,
``entity_list[:<element>]``) and ``infer_field_type`` is the name heuristic for unmapped fields.
"""

from assay._fields.containment import coverage_matrix, score_containment_field
from assay._fields.dates import (
    ParsedDate,
    date_candidates,
    is_null_expectation,
    parse_date,
    score_date_field,
)
from assay._fields.durations import parse_duration_days, score_duration_field
from assay._fields.embedding import (
    Embedder,
    EmbeddingStatus,
    cosine_matrix,
    load_embedder,
    rescue_matrix,
)
from assay._fields.entity_list import (
    ELEMENT_TYPES,
    as_items,
    element_similarity_matrix,
    entity_list_from_similarity,
    score_entity_list,
)
from assay._fields.free_text import score_free_text_field, token_f1_matrices, token_f1_matrix
from assay._fields.ids import normalize_id, score_id_field
from assay._fields.money import parse_money, score_money_field
from assay._fields.names import name_similarity, name_similarity_matrix, score_name_field
from assay._fields.result import EntityListScore, FieldScore
from assay._fields.settings import DEFAULT_FIELD_SETTINGS, FieldSettings
from assay._fields.types import (
    FIELD_SCORERS,
    SCALAR_TYPES,
    check_field_type,
    element_type,
    infer_field_type,
    is_entity_list,
    score_field,
)

__all__ = [
    "DEFAULT_FIELD_SETTINGS",
    "ELEMENT_TYPES",
    "FIELD_SCORERS",
    "SCALAR_TYPES",
    "Embedder",
    "EmbeddingStatus",
    "EntityListScore",
    "FieldScore",
    "FieldSettings",
    "ParsedDate",
    "as_items",
    "check_field_type",
    "cosine_matrix",
    "coverage_matrix",
    "date_candidates",
    "element_similarity_matrix",
    "element_type",
    "entity_list_from_similarity",
    "infer_field_type",
    "is_entity_list",
    "is_null_expectation",
    "load_embedder",
    "name_similarity",
    "name_similarity_matrix",
    "normalize_id",
    "parse_date",
    "parse_duration_days",
    "parse_money",
    "rescue_matrix",
    "score_containment_field",
    "score_date_field",
    "score_duration_field",
    "score_entity_list",
    "score_field",
    "score_free_text_field",
    "score_id_field",
    "score_money_field",
    "score_name_field",
    "token_f1_matrices",
    "token_f1_matrix",
]
