"""The MAUD suite's metrics: the hierarchical ones, shared with the docclass suite and defined
in :func:`assay._legal.hierarchical.hierarchical_specs`, with the consideration type as the
subclass; MAUD adds none.

- ``doc_type_accuracy``: share of rows with the right primary class (headline);
- ``subclass_accuracy``: share of rows *with consideration gold* whose consideration type is
  right (headline);
- ``subclass_accuracy_equiv``: the same, accepting mixed_cash_stock ↔ mixed_cash_stock_election;
- ``exact_match``: doc_type right and, when gold has one, consideration type right (headline);
- ``confidence``: mean model-reported confidence (diagnostic);
- ``per_class_accuracy[c]``, ``per_subclass_accuracy[s]``: per primary class / consideration
  type (diagnostic);
- ``aupr`` (with the model's class scores only): **MAUD's official metric**, the mean over the
  consideration types of the average precision of the rows ranked by ``2·L_i − Σ_j L_j``, each
  class flipped to the minority (:mod:`assay._legal.aupr`); headline when every row with
  consideration gold has scores, core otherwise; ``aupr[c]``, one type's AP (diagnostic).
  Without scores there is no ``aupr``: the accuracy figures above are not MAUD's number.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from assay._engine.task import ItemScore
from assay._legal.aupr import ClassPlan, ap_from_sums
from assay._legal.hierarchical import hierarchical_specs
from assay.metrics.kinds import FloatArray, register_kind
from assay.metrics.spec import MetricSpec
from assay.suites.maud.settings import MaudSettings

#: the metric kind of MAUD's AUPR
AUPR_KIND = "maud_aupr"


def _ranked_sample(rng: np.random.Generator, n: int) -> FloatArray:
    """n rows of one class at 4 thresholds (the common checks' example statistics): each row
    positive or not, its score's rank r, and TP (then FP) 1 at every threshold from r down."""
    thresholds = 4
    positive = rng.random(n) < 0.4
    at = np.arange(thresholds)[None, :] >= rng.integers(0, thresholds, size=(n, 1))
    return np.hstack([at & positive[:, None], at & ~positive[:, None]]).astype(np.float64)


@register_kind(AUPR_KIND, lower=0.0, upper=1.0, higher_is_better=True, sample=_ranked_sample)
def maud_aupr_kind(sums: FloatArray, /, thresholds: Sequence[int] = ()) -> FloatArray:
    """The mean over classes of each class's AP, from the sums of its threshold columns: the
    columns come class after class, ``2·T`` each (TP then FP at each of its ``T`` thresholds,
    high to low); a class without a positive in a (re)sample is left out of the mean. Without
    ``thresholds`` the columns are one class's."""
    thresholds = thresholds or (sums.shape[-1] // 2,)
    aps, at = [], 0
    for n in thresholds:
        aps.append(ap_from_sums(sums[..., at : at + 2 * n], n))
        at += 2 * n
    stacked = np.stack(aps, axis=-1)
    defined = ~np.isnan(stacked)
    total = np.where(defined, stacked, 0.0).sum(axis=-1)
    count = defined.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        out: FloatArray = np.where(count > 0, total / np.maximum(count, 1), np.nan)
    return out


def aupr_specs(plans: Sequence[ClassPlan], *, complete: bool) -> list[MetricSpec]:
    """``aupr`` over every planned class and ``aupr[c]`` for each."""
    if not plans:
        return []
    spec = MetricSpec(
        "aupr",
        AUPR_KIND,
        tuple(c for p in plans for c in p.columns()),
        params={"thresholds": [len(p.thresholds) for p in plans]},
        tier="headline" if complete else "core",
        description="MAUD's official metric: mean over the consideration types of the AP of "
        "the rows ranked by 2·L_i − ΣL (minority-flipped); rows without scores rank last",
    )
    per_class = [
        MetricSpec(
            f"aupr[{p.cls}]",
            AUPR_KIND,
            tuple(p.columns()),
            params={"thresholds": [len(p.thresholds)]},
            tier="diagnostic",
            description=f"average precision of {p.cls}"
            + (" (flipped to the minority: the rows that are not it)" if p.flip else ""),
        )
        for p in plans
    ]
    return [spec, *per_class]


def metric_specs(scores: Sequence[ItemScore], settings: MaudSettings) -> list[MetricSpec]:
    """The hierarchical metrics, per class and consideration type for those seen, and MAUD's
    AUPR when the rows carry class scores."""
    specs = hierarchical_specs(scores)
    return specs + aupr_specs(settings._aupr_plans, complete=settings._aupr_complete)
