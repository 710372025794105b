"""What a field scorer returns: a value in [0, 1] and the reason, plus the list audit numbers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class FieldScore:
    """One field's content score in [0, 1], the rule that decided it, and the declared type."""

    score: float
    reason: str
    field_type: str = ""
    details: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class EntityListScore(FieldScore):
    """An entity list's score plus the raw counts behind it.

    ``score`` is F1, or GT coverage (recall with instantiated labels) for partial-GT fields;
    ``precision``/``recall``/``f1`` are always the raw bipartite-matching numbers (None when
    undefined: no predicted items, or no expected items).
    """

    precision: float | None = None
    recall: float | None = None
    f1: float | None = None
    n_predicted: int = 0
    n_expected: int = 0
    matched: int = 0
    #: (predicted index, expected index, similarity) of every accepted match
    pairs: tuple[tuple[int, int, float], ...] = ()
    #: expected indices counted as instantiated by the partial-GT rules (role word, contained)
    instantiated: tuple[tuple[int, str], ...] = ()
    partial_gt: bool = False
