"""The failure-mode taxonomy (seed 000 §15): one set of modes every report aggregates.

Sorter/subtype modes: function_over_form (doc_type wrong: the document's function overrode its
contract form), other_fallback (answered "other" for a filed family), equivalent_family (a
defensible equivalent, recovered by the equiv accuracy), family_confusion (a wrong family).
Docclass modes: doc_type_miss (primary class wrong), subclass_miss (primary right, subclass
wrong).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from assay._labels.equivalences import equivalent

SORTER_FAILURE_MODES = (
    "function_over_form",
    "other_fallback",
    "equivalent_family",
    "family_confusion",
)
DOCCLASS_FAILURE_MODES = ("doc_type_miss", "subclass_miss")
#: carried from a row into its failure record when present
CARRIED_FIELDS = ("reasoning", "filename", "confidence")


def classify_failure(
    *,
    doc_type_ok: bool,
    expected: str | None,
    predicted: str | None,
    equivalences: frozenset[frozenset[str]] = frozenset(),
    other_label: str = "other",
) -> str | None:
    """Sorter failure mode of one row, None when the doc_type and the subtype are both right."""
    if not doc_type_ok:
        return "function_over_form"
    if predicted == expected:
        return None
    if predicted == other_label:
        return "other_fallback"
    if equivalent(expected, predicted, equivalences):
        return "equivalent_family"
    return "family_confusion"


def classify_docclass_failure(*, doc_type_ok: bool, subclass_ok: bool | None) -> str | None:
    """Docclass failure mode: doc_type_miss, subclass_miss, or None (a row without subclass
    gold, ``subclass_ok`` None, fails only on its doc_type)."""
    if not doc_type_ok:
        return "doc_type_miss"
    if subclass_ok is False:
        return "subclass_miss"
    return None


def summarize_failures(
    rows: Sequence[Mapping[str, Any]], *, modes: Sequence[str] = SORTER_FAILURE_MODES
) -> dict[str, Any]:
    """{n_total, n_failed, n_ok, mode_counts, rate, mode_rate, failures} over rows carrying a
    ``failure_mode`` (None = ok); each failure keeps expected / predicted / equiv_recovered and
    reasoning / filename / confidence when the row has them."""
    failed = [r for r in rows if r.get("failure_mode") is not None]
    counts = Counter(str(r["failure_mode"]) for r in failed)
    mode_counts = {m: counts.get(m, 0) for m in modes}
    mode_counts.update({m: n for m, n in sorted(counts.items()) if m not in mode_counts})
    failures = []
    for r in failed:
        rec: dict[str, Any] = {
            "id": r.get("id"),
            "expected": r.get("expected"),
            "predicted": r.get("predicted"),
            "failure_mode": r["failure_mode"],
        }
        if "equiv_recovered" in r:
            rec["equiv_recovered"] = r["equiv_recovered"]
        rec.update({k: r[k] for k in CARRIED_FIELDS if r.get(k) is not None})
        failures.append(rec)
    n = len(rows)
    return {
        "n_total": n,
        "n_failed": len(failed),
        "n_ok": n - len(failed),
        "mode_counts": mode_counts,
        "rate": len(failed) / n if n else None,
        # over all rows, as ``rate`` (seed 000 §15): the modes' rates sum to ``rate``
        "mode_rate": {m: (c / n if n else None) for m, c in mode_counts.items()},
        "failures": failures,
    }
