"""The chained suite's metrics, each the mean of its per-document column (:mod:`.scorer`):

- ``chained_composite``: w_s · sorter_exact_match + w_e · extractor_overall per document
  (headline);
- ``sorter_exact_match``: doc_type == the expected doc_type (contract);
- ``sorter_subtype_accuracy``: doc_type and subtype right;
- ``sorter_confidence``: mean sorter confidence (diagnostic);
- ``extractor_overall``: mean extractor composite, 0 for a document without one (headline);
- ``extractor_*``: the other extractor trackers, mean where reported (diagnostic).
"""

from __future__ import annotations

from assay.metrics.spec import MetricSpec, mean_metric
from assay.suites.chained.scorer import EXTRACTOR_TRACKERS
from assay.suites.chained.settings import ChainedSettings


def metric_specs(settings: ChainedSettings) -> list[MetricSpec]:
    """The composite, the sorter's trackers and the extractor's, in that order."""
    return [
        mean_metric(
            "chained_composite",
            "chained_composite",
            tier="headline",
            description=f"{settings.sorter_weight}·sorter_exact_match + "
            f"{settings.extractor_weight}·extractor_overall (weights normalized), per document",
        ),
        mean_metric("sorter_exact_match", "sorter_exact_match", description="doc_type right"),
        mean_metric(
            "sorter_subtype_accuracy",
            "sorter_subtype_accuracy",
            description="doc_type and subtype right",
        ),
        mean_metric(
            "sorter_confidence",
            "sorter_confidence",
            tier="diagnostic",
            description="mean sorter confidence",
        ),
        mean_metric(
            "extractor_overall",
            "extractor_overall",
            tier="headline",
            description="mean extractor composite (0 for a document without one)",
        ),
        *[
            mean_metric(t, t, tier="diagnostic", description=f"mean {t} where reported")
            for t in EXTRACTOR_TRACKERS[1:]
        ],
    ]
