"""Field types and dispatch: declared types, the name heuristic for unmapped fields."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from assay._fields.containment import score_containment_field
from assay._fields.dates import score_date_field
from assay._fields.durations import score_duration_field
from assay._fields.embedding import Embedder
from assay._fields.entity_list import ELEMENT_TYPES, score_entity_list
from assay._fields.free_text import score_free_text_field
from assay._fields.ids import score_id_field
from assay._fields.money import score_money_field
from assay._fields.names import score_name_field
from assay._fields.result import FieldScore
from assay._fields.settings import DEFAULT_FIELD_SETTINGS, FieldSettings

FieldScorer = Callable[[Any, Any, FieldSettings], FieldScore]

#: the scalar scorers by type name (entity lists dispatch through ``score_field``)
FIELD_SCORERS: Mapping[str, FieldScorer] = {
    "id": score_id_field,
    "date": score_date_field,
    "money": score_money_field,
    "duration": score_duration_field,
    "name": score_name_field,
    "free_text": score_free_text_field,
    "containment": score_containment_field,
}
SCALAR_TYPES = tuple(FIELD_SCORERS)
#: the scalar scorers ``score_field`` calls with the settings alone (name and free text also
#: take the embedder)
_SETTINGS_ONLY: Mapping[str, FieldScorer] = {
    k: v for k, v in FIELD_SCORERS.items() if k not in ("name", "free_text")
}

_HEURISTIC: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("date", ("date", "deadline")),
    ("free_text", ("clause", "description", "summary", "obligation", "provision", "text")),
    ("money", ("amount", "price", "fee", "value", "payment", "cost", "salary", "consideration")),
    ("duration", ("duration", "period", "notice", "_term", "term_")),
    ("id", ("_id", "number", "docket", "reference", "cik", "ein")),
)


def is_entity_list(field_type: str) -> bool:
    """True for ``entity_list`` and compound ``entity_list:<element>`` types."""
    return field_type == "entity_list" or field_type.startswith("entity_list:")


def element_type(field_type: str) -> str:
    """The element type of an entity-list type (``entity_list`` alone means names)."""
    return field_type.split(":", 1)[1] if ":" in field_type else "name"


def check_field_type(field_type: str) -> str:
    """The type itself when it is known; a ValueError naming the known types otherwise."""
    if field_type in FIELD_SCORERS:
        return field_type
    if is_entity_list(field_type) and element_type(field_type) in ELEMENT_TYPES:
        return field_type
    known = [*SCALAR_TYPES, "entity_list", *(f"entity_list:{e}" for e in ELEMENT_TYPES)]
    raise ValueError(f"unknown field type {field_type!r}; known: {', '.join(known)}")


def infer_field_type(
    name: str, expected: Any = None, settings: FieldSettings = DEFAULT_FIELD_SETTINGS
) -> str:
    """The type of a field no doc class maps, from its name (and list shape).

    In order: ``containment_fields`` → containment; a list value or a ``partial_gt_fields`` name
    or a plural clause/obligation/provision name → entity_list (``entity_list:free_text`` for
    clause-like names, else names); names with date / clause-description-summary-obligation /
    amount-price-fee-value / duration-period-notice-term / id-number-docket-reference → date /
    free_text / money / duration / id; anything else → name.
    """
    key = name.lower()
    if name in settings.containment_fields:
        return "containment"
    heuristic = next((t for t, words in _HEURISTIC if any(w in key for w in words)), "name")
    list_like = (
        isinstance(expected, list)
        or name in settings.partial_gt_fields
        or (heuristic == "free_text" and key.endswith("s"))
    )
    if list_like:
        return "entity_list:free_text" if heuristic == "free_text" else "entity_list:name"
    return heuristic


def score_field(
    pred: Any,
    gold: Any,
    field_type: str,
    settings: FieldSettings = DEFAULT_FIELD_SETTINGS,
    *,
    field_name: str | None = None,
    embedder: Embedder | None = None,
) -> FieldScore:
    """Score one field by its declared type (``entity_list:<element>`` included).

    The scalar types without an embedder argument are looked up first (one dict look-up for
    the common case; ``test_score_field_dispatches_to_the_scalar_scorer``); every other type
    goes through ``check_field_type`` as before."""
    scorer = _SETTINGS_ONLY.get(field_type)
    if scorer is not None:
        return scorer(pred, gold, settings)
    check_field_type(field_type)
    if is_entity_list(field_type):
        return score_entity_list(
            pred,
            gold,
            settings,
            element=element_type(field_type),
            partial_gt=field_name is not None and field_name in settings.partial_gt_fields,
            embedder=embedder,
        )
    if field_type == "name":
        return score_name_field(pred, gold, settings, embedder=embedder)
    if field_type == "free_text":
        return score_free_text_field(pred, gold, settings, embedder=embedder)
    return FIELD_SCORERS[field_type](pred, gold, settings)
