"""The extraction run's MetricSpecs: row means, post-hoc sums and the summable diagnostics.

Row metrics are means of per-item scores; the post-hoc metrics of seed 000 §4 are ratios or
totals of audit counts summed over rows (alignment precision = Σ matched_gt / Σ n_predicted,
verified precision = Σ true_items / Σ n_predicted, item count = Σ n_predicted, matched GT spans
= Σ matched_gt), so every one of them has a bootstrap CI and a paired test.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import chain

import numpy as np

from assay._engine.task import ItemScore
from assay.metrics import (
    MetricSpec,
    fbeta_metric,
    mean_metric,
    precision_metric,
    ratio_metric,
    recall_metric,
    register_kind,
)
from assay.metrics.kinds import FloatArray
from assay.suites.extraction.settings import ExtractionSettings

TOTAL_KIND = "extraction.total"


def _counts_sample(rng: np.random.Generator, n: int) -> FloatArray:
    """n items' counts (0 to 5): the example statistics of a total."""
    return rng.integers(0, 6, size=(n, 1)).astype(np.float64)


@register_kind(TOTAL_KIND, lower=0.0, upper=math.inf, sample=_counts_sample)
def total_kind(sums: FloatArray, /) -> FloatArray:
    """A total over items: Σv (item count, matched GT spans)."""
    return np.asarray(sums[..., 0], dtype=np.float64)


def _defined(scores: Sequence[ItemScore], column: str) -> bool:
    """True when some row defines the column (a count column > 0)."""
    return any(s.stats.get(column, 0.0) > 0 for s in scores)


def _columns(scores: Sequence[ItemScore]) -> dict[str, None]:
    """Every stats column of the rows, in order of first appearance."""
    return dict.fromkeys(chain.from_iterable(s.stats for s in scores))


def extraction_metric_specs(scores: Sequence[ItemScore], s: ExtractionSettings) -> list[MetricSpec]:
    """Every metric of an extraction run (fields and buckets that never occur are left out)."""
    specs = [
        mean_metric(
            "overall_extraction_score",
            "overall_extraction_score",
            tier="headline",
            description="mean per-field content score over expected fields "
            "(missing and failed documents score 0)",
        ),
        mean_metric(
            "overall_verified_precision",
            "overall_verified_precision",
            tier="headline",
            description="mean verified_precision over the fields a document populated "
            "(factuality guard)",
        ),
        mean_metric(
            "field_presence",
            "field_presence",
            description="share of expected fields the model populated",
        ),
        mean_metric(
            "schema_valid",
            "schema_valid",
            description="1 iff the prediction parses and conforms to the schema",
        ),
    ]
    if _defined(scores, "category_presence#n"):
        specs.append(
            mean_metric(
                "category_presence",
                "category_presence",
                description="share of labeled categories whose clause the extraction covers",
            )
        )
    if _defined(scores, "posthoc.n_predicted"):
        specs += [
            ratio_metric(
                "alignment_precision",
                "posthoc.matched_gt",
                "posthoc.n_predicted",
                description="Σ matched_gt / Σ n_predicted over the post-hoc list fields",
            ),
            ratio_metric(
                "verified_precision",
                "posthoc.true_items",
                "posthoc.n_predicted",
                description="Σ true_items / Σ n_predicted over the post-hoc list fields",
            ),
            MetricSpec(
                "item_count",
                TOTAL_KIND,
                ("posthoc.n_predicted",),
                tier="diagnostic",
                description="Σ n_predicted over the post-hoc list fields",
            ),
            MetricSpec(
                "matched_gt_spans",
                TOTAL_KIND,
                ("posthoc.matched_gt",),
                tier="diagnostic",
                description="Σ matched_gt: the recall numerator over the partial GT labels",
            ),
        ]
    if _defined(scores, "pairs.n"):
        for bucket, better in (("exact", True), ("partial", False), ("miss", False)):
            specs.append(
                ratio_metric(
                    f"field_{bucket}_rate",
                    f"pairs.{bucket}",
                    "pairs.n",
                    higher_is_better=better,
                    tier="core" if bucket == "exact" else "diagnostic",
                    description=f"share of scored (document, field) pairs scoring "
                    f"{ {'exact': '1.0', 'partial': 'in (0, 1)', 'miss': '0.0'}[bucket] }",
                )
            )
    if _defined(scores, "list.tp") or _defined(scores, "list.fp") or _defined(scores, "list.fn"):
        specs += [
            precision_metric(
                "list_micro_precision",
                "list.tp",
                "list.fp",
                tier="diagnostic",
                description="span-summed raw precision over every list field",
            ),
            recall_metric(
                "list_micro_recall",
                "list.tp",
                "list.fn",
                tier="diagnostic",
                description="span-summed raw recall over every list field",
            ),
            fbeta_metric(
                "list_micro_f1",
                "list.tp",
                "list.fp",
                "list.fn",
                description="span-summed raw F1 over every list field",
            ),
        ]
    units = {"date": "days", "duration": "days", "money": "USD"}
    for bucket, unit in units.items():
        if _defined(scores, f"{bucket}.n"):
            specs.append(
                ratio_metric(
                    f"{bucket}_mae_{unit.lower()}",
                    f"{bucket}.abs_err",
                    f"{bucket}.n",
                    higher_is_better=False,
                    tier="diagnostic",
                    description=f"mean absolute error in {unit} over pairs where both sides parse",
                )
            )
    if _defined(scores, "span_count.n"):
        specs += [
            ratio_metric(
                "span_count_mae",
                "span_count.abs",
                "span_count.n",
                higher_is_better=False,
                tier="diagnostic",
                description="mean |n_predicted − n_expected| per (document, list field)",
            ),
            ratio_metric(
                "span_count_signed_mean",
                "span_count.signed",
                "span_count.n",
                higher_is_better=False,
                tier="diagnostic",
                description="mean n_predicted − n_expected: > 0 over-, < 0 under-extraction",
            ),
        ]
    columns = _columns(scores)
    fields = dict.fromkeys(chain.from_iterable(sc.details.get("fields", {}) for sc in scores))
    for name in fields:
        per_field = [
            (f"{name}_score", "content score"),
            (f"{name}_f1", "list score (GT coverage for partial-GT fields, else F1)"),
            (f"{name}_precision", "matched_gt / n_predicted"),
            (f"{name}_verified_precision", "share of predicted items matched or grounded"),
        ]
        for column, what in per_field:
            if _defined(scores, f"{column}#n"):
                specs.append(
                    mean_metric(column, column, tier="diagnostic", description=f"{name}: {what}")
                )
        if f"{name}.tp" in columns:
            specs.append(
                fbeta_metric(
                    f"{name}_micro_f1",
                    f"{name}.tp",
                    f"{name}.fp",
                    f"{name}.fn",
                    tier="diagnostic",
                    description=f"{name}: span-summed raw F1",
                )
            )
    return specs
