"""One ContractEval pair scored into its statistics row.

The rubric itself — TP / FN / TN / FP, the "no related clause" test and the token-set Jaccard,
quirks included — is :mod:`assay._legal.contracteval`, shared with the task-aware dispatcher
(``score_task("contracteval", ...)``). This module adds what a run of the suite needs: the
confusion columns per category (``tp[cat]`` …), the laziness columns, the flags of a bad row and
the details the report shows beside each pair.
"""

from __future__ import annotations

from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._fields.display import display_value
from assay._labels import is_error_output
from assay._legal.contracteval import contracteval_outcome, pair_jaccard, said_no_related
from assay.metrics.spec import mean_columns
from assay.suites.contracteval._lib.mapping import BEST_CONTAINMENT_FIELD
from assay.suites.contracteval.settings import ContractEvalSettings

OUTCOMES = ("tp", "fn", "tn", "fp")
#: characters of a gold clause or an answer kept per pair for the report
CLAUSE_CHARS = 240


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _category_key(category: Any) -> str:
    return str(category).strip() if category is not None else ""


def score_pair(item: Item, settings: ContractEvalSettings) -> ItemScore:
    """The pair's outcome as 0/1 columns (pooled and, with ``per_category``, per category),
    ``correct`` and ``pairs``, ``positive``, the "no related clause" columns and ``jaccard``
    (positive pairs only); an ``ERROR:`` output is scored as the text it is and flagged."""
    spans: list[str] = list(item.gold.get(settings.spans_field) or [])
    category = _category_key(item.gold.get(settings.category_field))
    raw = item.pred.get(settings.output_field) if item.pred is not None else None
    output = raw if isinstance(raw, str) and item.status == "ok" else None
    outcome = contracteval_outcome(spans, output)
    positive = bool(spans)
    no_related = said_no_related(output)
    jac = pair_jaccard(spans, output)
    stats: dict[str, float] = {}
    for suffix in ("", f"[{category}]") if settings.per_category else ("",):
        for o in OUTCOMES:
            stats[f"{o}{suffix}"] = float(outcome == o)
        stats[f"correct{suffix}"] = float(outcome in ("tp", "tn"))
        stats[f"pairs{suffix}"] = 1.0
    stats.update(
        {
            "positive": float(positive),
            "said_no_related": float(no_related),
            "false_no_related": float(no_related and positive),
            **mean_columns("jaccard", jac),
        }
    )
    flags: list[str] = [item.status] if item.status != "ok" else []
    if is_error_output(raw):
        flags.append("error_row")
    if output is None:
        flags.append("no_output")
    return ItemScore(
        stats=stats,
        scores={"correct": stats["correct"], "jaccard": jac},
        flags=tuple(flags),
        details={
            "category": category,
            "outcome": outcome,
            "positive": positive,
            "said_no_related": no_related,
            "n_gold_spans": len(spans),
            "best_containment": _number(item.gold.get(BEST_CONTAINMENT_FIELD)),
            # compact, for the report's gold beside prediction (never scored from)
            "gold": display_value(spans, chars=CLAUSE_CHARS) or "(no clause)",
            **(
                {"predicted": shown}
                if (shown := display_value(output, chars=CLAUSE_CHARS)) is not None
                else {}
            ),
        },
    )
