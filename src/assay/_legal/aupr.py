"""MAUD's official metric: the area under the precision-recall curve over the model's class
scores (TheAtticusProject/maud@4640316, ``src/maud/pr_curves.py``), restated.

For a question with classes 1..k and a row's scores L (logits or any real scores, one per class),
class i ranks the rows by ``2·L_i − Σ_j L_j`` (for k = 2, ``L_i − L_other``); its positives are
the rows whose gold is i, **flipped to the minority**: when class i holds more than half of the
question's rows, the positives are the rows that are *not* i and the scores are negated. The
class's AP is scikit-learn's ``average_precision_score`` (MAUD: ``−Σ diff(recall)·precision[:-1]``
on ``precision_recall_curve``, the same sum): Σ over the distinct scores t, high to low, of
(recall(t) − recall(t⁺))·precision(t), ties one threshold. A question's AUPR is the mean of its
classes' APs; MAUD's headline, the mean over questions. Checked against MAUD's own function on 40
synthetic questions, ties included (``tests/differential/test_maud_aupr.py``).

A row without usable scores (no answer, a failed row, a score missing for a class) is not a case
MAUD has: here it ranks below every scored row for every class, tied with the others like it,
and stays in the denominator (a miss for each class it is a positive of).

:func:`maud_aupr` is the definition; the maud suite computes the same AP from per-row threshold
columns so the bootstrap resamples it (:func:`ap_columns`, the ``average_precision`` kind).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
#: the score of a row without usable scores: below every real score, in either orientation
UNSCORED = -math.inf


def class_scores(scores: Mapping[str, float] | None, classes: Sequence[str]) -> list[float]:
    """``2·L_i − Σ_j L_j`` for each class i of ``classes`` (the question's classes); all
    ``UNSCORED`` when a class has no finite score."""
    if scores is None:
        return [UNSCORED] * len(classes)
    values = [scores.get(c) for c in classes]
    if any(v is None or not math.isfinite(v) for v in values):
        return [UNSCORED] * len(classes)
    # MAUD's arithmetic, ``2 * L[:, i] - L.sum(axis=1)`` summed left to right: a correctly
    # rounded sum (fsum) would make or break ties of rounded scores and move the AP (0.0045 on
    # one of the 40 differential questions)
    total = sum(values)  # type: ignore[arg-type]
    return [2 * v - total for v in values]  # type: ignore[operator]


def average_precision(positive: Sequence[bool], score: Sequence[float]) -> float:
    """scikit-learn's ``average_precision_score(positive, score)``: Σ over the distinct scores,
    high to low, of the recall gained there times the precision at it; NaN without positives."""
    y = np.asarray(positive, dtype=bool)
    s = np.asarray(score, dtype=np.float64)
    n_pos = int(y.sum())
    if n_pos == 0:
        return math.nan
    order = np.argsort(-s, kind="stable")
    y, s = y[order], s[order]
    last = np.r_[s[1:] != s[:-1], True]  # the last row of each run of equal scores
    tp = np.cumsum(y)[last].astype(np.float64)
    seen = (np.flatnonzero(last) + 1).astype(np.float64)
    recall_gain = np.diff(np.r_[0.0, tp]) / n_pos
    return float(np.sum(recall_gain * (tp / seen)))


def minority_flip(gold: Sequence[str], cls: str) -> bool:
    """MAUD's ``auto_minority``: True when ``cls`` holds more than half of the rows."""
    return sum(g == cls for g in gold) > len(gold) / 2


def question_aupr(
    gold: Sequence[str], scores: Sequence[Mapping[str, float] | None], classes: Sequence[str]
) -> tuple[float, dict[str, float]]:
    """One question: the mean over ``classes`` of each class's AP (see the module docstring),
    and the APs."""
    per_row = [class_scores(s, classes) for s in scores]
    aps: dict[str, float] = {}
    for i, c in enumerate(classes):
        y = [g == c for g in gold]
        s = [row[i] for row in per_row]
        if minority_flip(gold, c):
            y = [not v for v in y]
            s = [-v if v != UNSCORED else UNSCORED for v in s]
        aps[c] = average_precision(y, s)
    defined = [v for v in aps.values() if not math.isnan(v)]
    return (float(np.mean(defined)) if defined else math.nan), aps


def maud_aupr(
    gold: Sequence[str],
    scores: Sequence[Mapping[str, float] | None],
    questions: Sequence[str] | None = None,
) -> dict[str, Any]:
    """MAUD's AUPR: per question (``questions``, else one question), the mean of its classes'
    APs over the classes its gold holds; the headline, the mean over questions."""
    qs = list(questions) if questions is not None else [""] * len(gold)
    out: dict[str, Any] = {}
    for q in sorted(set(qs)):
        at = [k for k, x in enumerate(qs) if x == q]
        g = [gold[k] for k in at]
        value, aps = question_aupr(g, [scores[k] for k in at], sorted(set(g)))
        out[q] = {"aupr": value, "ap": aps, "n": len(at)}
    values = [v["aupr"] for v in out.values() if not math.isnan(v["aupr"])]
    return {"aupr": float(np.mean(values)) if values else math.nan, "questions": out}


@dataclass(frozen=True)
class ClassPlan:
    """What one class's AP columns need from the whole sample: whether it is flipped to the
    minority, and the thresholds (its distinct oriented scores, high to low, UNSCORED last)."""

    cls: str
    flip: bool
    thresholds: tuple[float, ...]

    def columns(self) -> list[str]:
        n = len(self.thresholds)
        return [f"ap[{self.cls}]:pos@{k}" for k in range(n)] + [
            f"ap[{self.cls}]:neg@{k}" for k in range(n)
        ]


#: the most thresholds a class gets (distinct scores beyond it are binned at sample quantiles:
#: the AP is then that of the binned scores, and the run says so)
MAX_THRESHOLDS = 512


def plan_classes(
    gold: Sequence[str], scores: Sequence[Mapping[str, float] | None], classes: Sequence[str]
) -> tuple[list[ClassPlan], bool]:
    """Each class's plan from the sample, and whether some class's scores were binned."""
    per_row = [class_scores(s, classes) for s in scores]
    plans, binned = [], False
    for i, c in enumerate(classes):
        flip = minority_flip(gold, c)
        values = np.array([row[i] for row in per_row], dtype=np.float64)
        finite = values[np.isfinite(values)]
        oriented = -finite if flip else finite
        distinct = np.unique(oriented)[::-1]
        if distinct.size > MAX_THRESHOLDS - 1:
            binned = True
            distinct = np.unique(np.quantile(oriented, np.linspace(1, 0, MAX_THRESHOLDS - 1)))[::-1]
        plans.append(ClassPlan(c, flip, (*distinct.tolist(), UNSCORED)))
    return plans, binned


def ap_columns(
    plans: Sequence[ClassPlan], gold: str, scores: Mapping[str, float] | None
) -> dict[str, float]:
    """One row's columns: for each class, positive and negative (after the minority flip) at
    every threshold its oriented score reaches (``pos@k`` = y·[s ≥ t_k], ``neg@k`` =
    (1 − y)·[s ≥ t_k]); column sums over any (re)sample give TP and FP at each threshold."""
    classes = [p.cls for p in plans]
    row = class_scores(scores, classes)
    out: dict[str, float] = {}
    for plan, s in zip(plans, row, strict=True):
        y = (gold == plan.cls) != plan.flip
        s = UNSCORED if s == UNSCORED else (-s if plan.flip else s)
        names = plan.columns()
        n = len(plan.thresholds)
        for k, t in enumerate(plan.thresholds):
            hit = float(s >= t)
            out[names[k]] = hit * y
            out[names[n + k]] = hit * (not y)
    return out


def ap_from_sums(sums: FloatArray, n_thresholds: int) -> FloatArray:
    """AP from the column sums (..., 2T) of one class: TP and FP at each threshold, high to
    low; NaN where a (re)sample has no positive."""
    tp = sums[..., :n_thresholds]
    fp = sums[..., n_thresholds:]
    n_pos = tp[..., -1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(tp + fp > 0, tp / (tp + fp), 0.0)
        gain = np.diff(tp, axis=-1, prepend=0.0) / n_pos
        ap = np.sum(gain * precision, axis=-1)
    out: FloatArray = np.where(n_pos[..., 0] > 0, ap, np.nan)
    return out
