"""The MAUD suite's run summaries: the hierarchical ones, shared with the docclass suite and
defined in :func:`assay._legal.hierarchical.hierarchical_summaries` (the consideration type as
the subclass: its support and confusion, the doc_type confusion, ``equiv_recovered``,
``input_mode_counts``, ``failure_insights``); MAUD adds ``official_metric``: what MAUD's own
number is and whether this run computed it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._legal.aupr import MAX_THRESHOLDS
from assay._legal.hierarchical import hierarchical_summaries
from assay.suites.maud.settings import MaudSettings

NO_SCORES = (
    "MAUD's official metric is the AUPR over the model's class scores; these rows carry none "
    "(field {field!r}), so this run reports accuracy figures, not MAUD's number"
)


def official_metric(scores: Sequence[ItemScore], settings: MaudSettings) -> dict[str, Any]:
    """MAUD's number and how this run stands to it: ``aupr`` computed (how many rows had no
    usable scores and rank last) or not (why)."""
    plans = settings._aupr_plans
    if not plans:
        return {
            "name": "aupr",
            "computed": False,
            "note": NO_SCORES.format(field=settings.scores_field),
        }
    rows = [sc for sc in scores if "scores_usable" in sc.details]
    return {
        "name": "aupr",
        "computed": True,
        "metric": "aupr",
        "rows": len(rows),
        "rows_without_scores": sum(not sc.details["scores_usable"] for sc in rows),
        "flipped_to_minority": [p.cls for p in plans if p.flip],
        "binned": settings._aupr_binned,
    }


def summaries(
    items: Sequence[Item], scores: Sequence[ItemScore], settings: MaudSettings
) -> dict[str, Any]:
    """The hierarchical summaries of the run, MAUD's official metric's status, and a warning
    when a class's scores were binned or rows had no usable scores."""
    out = {
        **hierarchical_summaries(items, scores),
        "official_metric": official_metric(scores, settings),
    }
    official = out["official_metric"]
    warnings = []
    if not official["computed"]:
        warnings.append(official["note"])
    else:
        if official["binned"]:
            warnings.append(
                f"aupr: a consideration type has more than {MAX_THRESHOLDS - 1} distinct scores; "
                "they were binned at sample quantiles (the AP of the binned scores)"
            )
        if official["rows_without_scores"]:
            warnings.append(
                f"aupr: {official['rows_without_scores']} row(s) without usable class scores "
                "rank below every scored row (MAUD has no such rows)"
            )
    if warnings:
        out["warnings"] = warnings
    return out
