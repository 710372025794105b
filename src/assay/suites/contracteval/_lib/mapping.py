"""The ContractEval mapping scorer (seed 000 §17): a one-pass extraction run's spans mapped to
CUAD categories, so stored runs are scored with ContractEval's exact rubric.

Each predicted span goes to the category it covers: reasoning-trace routing first (an entry
``{field|category, evidence}`` naming a category), then verbatim label containment (the span
holds a stripped gold span of the category), then every category whose best gold span is
≥ ``min_containment`` token-contained in the span. A category's answer is the union of its
spans (one per line), else "No related clause.".

Caveat printed with every result: a one-pass extractor never claims a category the gold marks
absent (absent categories have no gold span to attract a span), so precision is structurally
1.0; the discriminating axes are recall, F2, Jaccard and the false "no related clause" rate.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay._fields import coverage_matrix
from assay._io.decoding import read_bytes
from assay._io.strict import loads_lenient
from assay._legal.contracteval import NO_RELATED_ANSWER, strip_answer
from assay.errors import InputError

STRUCTURAL_PRECISION_CAVEAT = (
    "mapping caveat: a one-pass extractor never claims a category the gold marks absent, so "
    "precision is structurally 1.0; compare recall, F2, Jaccard and the false 'no related "
    "clause' rate"
)
DEFAULT_BANDS = (0.7, 0.5, 0.3)
#: written on mapped positive rows so the suite can report the coverage bands
BEST_CONTAINMENT_FIELD = "best_containment"


def normalize_filename(name: str) -> str:
    """Aggressive filename key: basename, extension dropped, lowercase, non-alphanumerics
    removed, so "ACME_Inc 10-K.pdf" and "acme inc 10 k" join."""
    base = Path(str(name)).name
    base = re.sub(r"\.(pdf|txt|md|json|htm|html)$", "", base, flags=re.IGNORECASE)
    return re.sub(r"[^a-z0-9]", "", base.lower())


def _routed(entry: Mapping[str, Any], categories: Sequence[str]) -> str | None:
    tag = entry.get("category", entry.get("field"))
    if not isinstance(tag, str):
        return None
    key = normalize_filename(tag)
    return next((c for c in categories if normalize_filename(c) == key), None)


def map_spans(
    spans: Sequence[str],
    gold: Mapping[str, Sequence[str]],
    *,
    reasoning: Sequence[Mapping[str, Any]] = (),
    min_containment: float = 0.5,
) -> dict[str, list[str]]:
    """Category → the predicted spans mapped to it (every gold category present, maybe [])."""
    cats = sorted(gold)
    mapped: dict[str, list[str]] = {c: [] for c in cats}
    routed: set[str] = set()
    for entry in reasoning:
        cat = _routed(entry, cats)
        evidence = entry.get("evidence")
        if cat is not None and isinstance(evidence, str) and evidence.strip():
            mapped[cat].append(evidence)
            routed.add(evidence)
    rest = [s for s in spans if s not in routed and s.strip()]
    for cat in cats:
        labels = [strip_answer(g) for g in gold[cat] if strip_answer(g)]
        if not labels or not rest:
            continue
        cover = coverage_matrix(list(rest), labels)
        for i, span in enumerate(rest):
            verbatim = any(lab in span for lab in labels)
            if verbatim or cover[i].max() >= min_containment:
                mapped[cat].append(span)
    return {c: list(dict.fromkeys(v)) for c, v in mapped.items()}


def mapped_answer(spans: Sequence[str]) -> str:
    """The union of a category's spans, one per line, else the benchmark's refusal."""
    return "\n".join(spans) if spans else NO_RELATED_ANSWER


@dataclass(frozen=True)
class CoverageBands:
    """Share of positive pairs whose gold spans are, on average, token-contained in the
    document's best predicted span at ≥ each threshold (the semantic lens)."""

    thresholds: tuple[float, ...]
    shares: tuple[float | None, ...]
    n_positive: int

    def to_json(self) -> dict[str, Any]:
        return {
            "n_positive": self.n_positive,
            **{f"containment>={t}": s for t, s in zip(self.thresholds, self.shares, strict=True)},
        }


def best_containment(gold_spans: Sequence[str], spans: Sequence[str]) -> float:
    """Mean over gold spans of the best coverage by any predicted span (0 without spans)."""
    labels = [g for g in gold_spans if g.strip()]
    if not labels or not spans:
        return 0.0
    return float(coverage_matrix(list(spans), labels).max(axis=0).mean())


def coverage_bands(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
    thresholds: Sequence[float] = DEFAULT_BANDS,
) -> CoverageBands:
    """``pairs`` = (gold spans, the document's predicted spans) per positive pair."""
    scores = [best_containment(g, s) for g, s in pairs if g]
    n = len(scores)
    return CoverageBands(
        tuple(thresholds),
        tuple((sum(v >= t for v in scores) / n if n else None) for t in thresholds),
        n,
    )


def run_spans(run_path: Path) -> dict[str, list[str]]:
    """Normalized document key → every predicted list item an extraction run stored
    (``store_items``), in field order."""
    try:
        data = loads_lenient(read_bytes(run_path))
    except (OSError, ValueError) as exc:  # unreadable, not UTF-8, not JSON, beyond the limits
        raise InputError(f"{run_path}: not a readable run JSON ({exc})") from exc
    if not isinstance(data, dict) or data.get("task") != "extraction":
        raise InputError(f"{run_path}: --mapping-from needs an extraction run")
    out: dict[str, list[str]] = {}
    for item in data.get("items", []):
        lists = (item.get("details") or {}).get("lists") or {}
        spans = [
            str(v)
            for _, entry in sorted(lists.items())
            if isinstance(entry, dict)
            for v in entry.get("predicted") or []
        ]
        out[normalize_filename(str(item.get("id")))] = spans
    if not any(out.values()):
        raise InputError(
            f"{run_path}: the run stores no list items (score it with store_items: true)"
        )
    return out


def mapping_rows(
    rows: Sequence[Mapping[str, Any]],
    spans_by_doc: Mapping[str, Sequence[str]],
    *,
    contract_field: str = "contract",
    category_field: str = "category",
    spans_field: str = "gold_spans",
    min_containment: float = 0.5,
) -> tuple[list[dict[str, Any]], CoverageBands, list[str]]:
    """ContractEval rows with ``output`` filled by the mapping, the coverage bands and the
    contracts with no document in the run (their rows keep a null output: FP / FN)."""
    by_doc: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        by_doc.setdefault(normalize_filename(str(row.get(contract_field))), []).append(row)
    out: list[dict[str, Any]] = []
    band_pairs: list[tuple[Sequence[str], Sequence[str]]] = []
    unmatched: list[str] = []
    for doc, doc_rows in by_doc.items():
        spans = spans_by_doc.get(doc)
        if spans is None:
            unmatched.append(str(doc_rows[0].get(contract_field)))
        gold = {str(r.get(category_field)): list(r.get(spans_field) or []) for r in doc_rows}
        mapped = map_spans(spans or [], gold, min_containment=min_containment)
        for r in doc_rows:
            cat = str(r.get(category_field))
            answer = mapped_answer(mapped[cat]) if spans is not None else None
            row = {**r, "output": answer}
            if r.get(spans_field):
                gold_spans = list(r.get(spans_field) or [])
                band_pairs.append((gold_spans, list(spans or [])))
                row[BEST_CONTAINMENT_FIELD] = best_containment(gold_spans, list(spans or []))
            out.append(row)
    return out, coverage_bands(band_pairs), unmatched
