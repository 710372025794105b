"""Seed 001's entry rules: which text of an entry each metric scores.

* an entry whose expected text is blank (no non-blank reference) is left out of chrF, BLEU and
  TER: its statistics row is all zeros, so it adds nothing to any corpus sum or resample;
* a blank prediction is scored as the string ``"EMPTY"`` (so it is penalised, never skipped);
* an error entry (its ``error`` field is set) is left out of ``exact_match_rate`` but its
  prediction is still scored by chrF, BLEU and TER (blank → "EMPTY").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

EMPTY = "EMPTY"


def is_blank(text: object) -> bool:
    """True for None and for strings of whitespace only."""
    return text is None or (isinstance(text, str) and not text.strip())


def references_of(expected: object) -> tuple[str, ...]:
    """The non-blank references of an entry: ``expected`` may be one string or a list."""
    if isinstance(expected, str):
        return () if is_blank(expected) else (expected,)
    if isinstance(expected, Sequence):
        return tuple(r for r in expected if isinstance(r, str) and not is_blank(r))
    return ()


def normalize_for_match(text: str) -> str:
    """Whitespace-normalized text for the recomputed exact match."""
    return " ".join(text.split())


@dataclass(frozen=True)
class Segment:
    """One entry as the metrics see it (after the entry rules)."""

    id: str
    source: str
    references: tuple[str, ...]
    hypothesis: str
    error: bool
    exact_match: bool

    @property
    def has_reference(self) -> bool:
        return bool(self.references)


def hypothesis_text(predicted: object, empty: str = EMPTY) -> str:
    """The text scored for a prediction: ``empty`` when blank or absent."""
    return predicted if isinstance(predicted, str) and not is_blank(predicted) else empty


def recomputed_exact_match(references: Sequence[str], predicted: object) -> bool:
    """Whitespace-normalized equality with any reference; False without a reference."""
    if not isinstance(predicted, str) or is_blank(predicted):
        return False
    pred = normalize_for_match(predicted)
    return any(normalize_for_match(r) == pred for r in references)


def segment_from_entry(
    entry: Mapping[str, Any],
    *,
    empty: str = EMPTY,
    use_report_exact_match: bool = True,
) -> Segment:
    """Apply the entry rules to a seed-001 entry dict (id, source, expected, predicted, error,
    exact_match); ``expected`` may also be a list of references."""
    refs = references_of(entry.get("expected"))
    predicted = entry.get("predicted")
    flag = entry.get("exact_match")
    if use_report_exact_match and isinstance(flag, bool):
        exact = flag
    else:
        exact = recomputed_exact_match(refs, predicted)
    return Segment(
        id=str(entry.get("id", "")),
        source=str(entry.get("source") or ""),
        references=refs,
        hypothesis=hypothesis_text(predicted, empty),
        error=not is_blank(entry.get("error")) and entry.get("error") is not False,
        exact_match=exact,
    )
