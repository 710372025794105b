"""One MAUD merger agreement scored into its statistics row.

The row's columns are the hierarchical scorer's, shared with the docclass suite:
:func:`assay._legal.hierarchical.score_row` (doc_type, then the consideration type as the
subclass, strict and equiv). What MAUD adds is its subclass normalization,
:func:`assay._legal.answers.normalize_maud_consideration` (shared with the dispatcher's
``maud_docclass`` kind): MAUD's label surface ("Mixed Cash & Stock (Election)"), the alias
table, a key found in the text; unknown answers degrade to ``other``. With the model's class
scores (``predicted_scores``), the row also carries the columns of MAUD's official metric, the
AUPR over those scores (:mod:`assay._legal.aupr`).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore, LoadedInputs
from assay._io.records import SourceRecord
from assay._labels import is_blank, is_error_output
from assay._legal.answers import normalize_maud_consideration
from assay._legal.aupr import ap_columns, plan_classes
from assay._legal.hierarchical import score_row as hierarchical_row
from assay.suites.maud.settings import MaudSettings


def subclass_key(value: Any) -> str:
    """A consideration type: all_cash, all_stock, mixed_cash_stock, mixed_cash_stock_election
    or other."""
    return normalize_maud_consideration(value)


def class_scores(value: Any) -> dict[str, float] | None:
    """The model's scores per consideration type (``predicted_scores``), keys normalized as the
    answers are; None unless a JSON object of finite numbers whose keys stay distinct."""
    if not isinstance(value, dict) or not value:
        return None
    out: dict[str, float] = {}
    for label, score in value.items():
        if isinstance(score, bool) or not isinstance(score, int | float):
            return None
        key = subclass_key(label)
        if key in out or not math.isfinite(score):
            return None
        out[key] = float(score)
    return out


def row_scores(item: Item, settings: MaudSettings) -> dict[str, float] | None:
    """The row's usable class scores (None for a missing or failed row, or none given)."""
    if item.status != "ok" or item.pred is None:
        return None
    return class_scores(item.pred.get(settings.scores_field))


def score_row(item: Item, settings: MaudSettings) -> ItemScore:
    """The hierarchical row with the consideration type as the subclass; with class scores in
    the run (``prepare`` planned them), a row with consideration gold adds its AP columns
    (:func:`assay._legal.aupr.ap_columns`: MAUD's AUPR, resampled with the rest)."""
    score = hierarchical_row(item, settings, subclass_key)
    plans = settings._aupr_plans
    gold = score.details.get("expected_subclass")
    if not plans or gold is None:
        return score
    unusable = "error_row" in score.flags or "blank" in score.flags
    scores = None if unusable else row_scores(item, settings)
    stats = {**score.stats, **ap_columns(plans, str(gold), scores)}
    details = {**score.details, "scores_usable": scores is not None}
    return replace(score, stats=stats, details=details)


def aupr_plan(loaded: LoadedInputs, settings: MaudSettings) -> MaudSettings:
    """``settings`` with the AUPR plan of the sample (``_aupr_plans``) when some prediction
    carries class scores: the consideration types of the gold rows, each one's minority flip
    and thresholds from every gold row with consideration gold and its prediction's scores
    (a gold row without a usable prediction ranks last, as in scoring)."""
    field = settings.scores_field
    preds: dict[str, SourceRecord] = {}
    for r in loaded.predictions:
        if isinstance(r, SourceRecord) and r.id is not None:
            preds.setdefault(r.id, r)
    if not any(field in r.record for r in preds.values()):
        return settings
    gold: list[str] = []
    scores: list[dict[str, float] | None] = []
    for r in loaded.gold:
        if not isinstance(r, SourceRecord):
            continue
        raw = r.record.get(settings.expected_subclass_field)
        if is_blank(raw):
            continue
        gold.append(subclass_key(raw))
        pred = preds.get(r.id) if r.id is not None else None
        usable = pred is not None and not _unusable(pred.record.get(settings.predicted_field))
        scores.append(class_scores(pred.record.get(field)) if usable and pred else None)
    if not gold:
        return settings
    plans, binned = plan_classes(gold, scores, sorted(set(gold)))
    out = settings.model_copy()
    out._aupr_plans = tuple(plans)
    out._aupr_binned = binned
    out._aupr_complete = all(s is not None for s in scores)
    return out


def _unusable(answer: Any) -> bool:
    return is_error_output(answer) or is_blank(answer)
