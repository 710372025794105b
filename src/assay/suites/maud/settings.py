"""The MAUD suite's settings section (``maud:`` in assay.yaml)."""

from __future__ import annotations

from pydantic import Field, PrivateAttr

from assay._legal.aupr import ClassPlan
from assay._legal.hierarchical import HierarchicalSettings


class MaudSettings(HierarchicalSettings):
    """Merger agreements: doc_type gold and the consideration type as the subclass."""

    expected_subclass_field: str = Field(
        "expected_consideration", description="gold consideration type (MAUD expert answer)"
    )
    predicted_subclass_field: str = Field(
        "predicted_consideration", description="predicted consideration type"
    )
    scores_field: str = Field(
        "predicted_scores",
        description="the model's class scores for the consideration type, a JSON object "
        "{label: score} (logits or any real scores): adds MAUD's official metric, aupr",
    )
    #: set by ``prepare`` from the whole sample when rows carry scores: each consideration
    #: type's minority flip and AP thresholds (``assay._legal.aupr.plan_classes``)
    _aupr_plans: tuple[ClassPlan, ...] = PrivateAttr(default=())
    #: whether some class had more distinct scores than ``MAX_THRESHOLDS`` (binned)
    _aupr_binned: bool = PrivateAttr(default=False)
    #: whether every row with consideration gold has usable scores
    _aupr_complete: bool = PrivateAttr(default=False)
