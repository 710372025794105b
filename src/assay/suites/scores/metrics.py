"""The run's metrics, each a MetricSpec over the columns ``scorer.score_item`` writes:

===============  ==========================================================================
``S``            mean of score ``S`` over the items it applies to, missing and unscored
                 items counted 0 (headline: each Inspect scorer, each lm-eval metric,
                 promptfoo's ``pass`` and ``score``; core: promptfoo's metric tags;
                 diagnostic: promptfoo's component assertions ``assert:…``)
``S>=T``         share of items (of samples, within an item) at or beyond the threshold
``unscored``     share of items without a value for some score (diagnostic, lower is better)
===============  ==========================================================================
"""

from __future__ import annotations

from collections.abc import Sequence

from assay._engine.task import ItemScore
from assay.metrics.spec import MetricSpec, Tier, mean_metric
from assay.suites.scores.scorer import UNSCORED
from assay.suites.scores.settings import ScoresSettings

#: promptfoo's own headline scores
PROMPTFOO_HEADLINE = ("pass", "score")


def tier_of(score: str, settings: ScoresSettings) -> Tier:
    if settings.source != "promptfoo":
        return "headline"
    if score in PROMPTFOO_HEADLINE:
        return "headline"
    return "diagnostic" if score.startswith("assert:") else "core"


def metric_specs(scores: Sequence[ItemScore], settings: ScoresSettings) -> list[MetricSpec]:
    """A mean per score, a pass share per threshold, and the share of unscored items."""
    lower = set(settings.lower)
    specs = [
        mean_metric(
            score,
            score,
            tier=tier_of(score, settings),
            higher_is_better=score not in lower,
            description=f"mean of {score!r} over the items (an item's value: the "
            f"{settings.reducer} of its scored samples; missing and unscored items count "
            + ("as left out: lower is better" if score in lower else "0")
            + ")",
        )
        for score in settings.scores or ()
    ]
    for score, op, t in settings.thresholds():
        name = f"{score}{op}{t:g}"
        specs.append(
            mean_metric(
                name,
                name,
                tier="core",
                description=f"share of items whose {score!r} is {op} {t:g} (within an item, the "
                "share of its scored samples); missing and unscored items count 0",
            )
        )
    specs.append(
        mean_metric(
            UNSCORED,
            UNSCORED,
            tier="diagnostic",
            higher_is_better=False,
            description="share of items without a value for some score (missing, failed, or "
            "unscored in every sample)",
        )
    )
    return specs
