"""Miss attribution (seed 000 §16): why a list field's score plateaus, from a stored run.

1. Unmatched spans: for each expected span, its best similarity to any predicted item as the
   scorer computes it (element scorer, then the embedding rescue); below the match threshold on
   every item, it is part of the score's residual.
2. Containment test: an unmatched span whose tokens are ≥ 0.7 covered by some longer predicted
   item is a boundary/segmentation artifact (fixable by grain); otherwise a content omission
   (fixable by scope).
3. Family decomposition: each unmatched span is put in the first family (a configurable
   keyword table, CUAD clause categories by default) whose keyword it contains.
4. Recovery check: the same extraction on a candidate run says which spans and families a
   change recovered (and which it newly missed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from assay._engine.run import Run
from assay._fields import Embedder, element_similarity_matrix, load_embedder
from assay._fields.names import normalized_name
from assay._fields.text import coverage
from assay.suites.extraction.settings import ExtractionSettings


@dataclass(frozen=True)
class Miss:
    """One expected span no predicted item reaches, with the evidence for its class."""

    doc_id: str
    field: str
    span: str
    best_similarity: float
    best_item: str | None
    kind: str  # "boundary" (contained in a longer item) or "omission"
    containing_item: str | None
    family: str


def run_settings(run: Run) -> ExtractionSettings:
    """The extraction settings a run was scored with."""
    if run.task != "extraction":
        raise ValueError(f"run {run.run_id} is a {run.task!r} run, not an extraction run")
    return ExtractionSettings.model_validate(run.settings.get("extraction", {}))


def family_of(span: str, families: Mapping[str, Sequence[str]]) -> str:
    """The first family one of whose keywords occurs in the normalized span, else "other"."""
    text = " " + normalized_name(span) + " "
    for family, words in families.items():
        if any(normalized_name(w) and normalized_name(w) in text for w in words):
            return family
    return "other"


def document_misses(
    doc_id: str,
    field: str,
    predicted: Sequence[str],
    expected: Sequence[str],
    element: str,
    s: ExtractionSettings,
    *,
    embedder: Embedder | None = None,
) -> list[Miss]:
    """The unmatched expected spans of one (document, list field)."""
    if not expected:
        return []
    sim = element_similarity_matrix(predicted, expected, element, s, embedder=embedder)
    out = []
    for j, span in enumerate(expected):
        best = float(sim[:, j].max()) if len(predicted) else 0.0
        if best >= s.bipartite_match_threshold:
            continue
        best_item = predicted[int(sim[:, j].argmax())] if len(predicted) else None
        containing = None
        for item in predicted:
            if len(item) >= len(span) and (coverage(span, item) or 0.0) >= (
                s.verification_token_coverage
            ):
                containing = item
                break
        out.append(
            Miss(
                doc_id=doc_id,
                field=field,
                span=span,
                best_similarity=round(best, 6),
                best_item=best_item,
                kind="boundary" if containing is not None else "omission",
                containing_item=containing,
                family=family_of(span, s.miss_families),
            )
        )
    return out


def run_misses(
    run: Run, fields: Sequence[str] | None = None, *, embedder: Embedder | None = None
) -> tuple[list[Miss], int]:
    """Every unmatched expected span of the run's stored lists, and the number of spans."""
    s = run_settings(run)
    if embedder is None:
        embedder, _ = load_embedder(s)
    misses: list[Miss] = []
    n_spans = 0
    for item in run.items:
        lists = item.details.get("lists", {})
        for name in sorted(lists):
            if fields and name not in fields:
                continue
            stored = lists[name]
            n_spans += len(stored["expected"])
            misses += document_misses(
                item.id,
                name,
                stored["predicted"],
                stored["expected"],
                stored["element"],
                s,
                embedder=embedder,
            )
    return misses, n_spans


def miss_table(misses: Sequence[Miss], n_spans: int) -> dict[str, Any]:
    """Counts by class and family, largest family first (ties by name)."""
    families = Counter(m.family for m in misses)
    return {
        "n_expected_spans": n_spans,
        "n_unmatched": len(misses),
        "n_boundary": sum(1 for m in misses if m.kind == "boundary"),
        "n_omission": sum(1 for m in misses if m.kind == "omission"),
        "families": dict(sorted(families.items(), key=lambda kv: (-kv[1], kv[0]))),
        "by_field": dict(sorted(Counter(m.field for m in misses).items())),
    }


def recovery(base: Sequence[Miss], candidate: Sequence[Miss]) -> dict[str, Any]:
    """Spans the candidate recovered (missed by base, not by candidate) and newly missed."""

    def key(m: Miss) -> tuple[str, str, str]:
        return (m.doc_id, m.field, m.span)

    base_keys = {key(m) for m in base}
    cand_keys = {key(m) for m in candidate}
    recovered = [m for m in base if key(m) not in cand_keys]
    new = [m for m in candidate if key(m) not in base_keys]
    return {
        "n_recovered": len(recovered),
        "n_newly_missed": len(new),
        "n_still_missed": len(base_keys & cand_keys),
        "recovered_families": dict(sorted(Counter(m.family for m in recovered).items())),
        "newly_missed_families": dict(sorted(Counter(m.family for m in new).items())),
        "recovered": [asdict(m) for m in recovered],
        "newly_missed": [asdict(m) for m in new],
    }
