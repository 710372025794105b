"""The MAUD suite's settings section (``maud:`` in assay.yaml)."""

from __future__ import annotations

from pydantic import Field

from assay._legal.hierarchical import HierarchicalSettings


class MaudSettings(HierarchicalSettings):
    """Merger agreements: doc_type gold and the consideration type as the subclass."""

    expected_subclass_field: str = Field(
        "expected_consideration", description="gold consideration type (MAUD expert answer)"
    )
    predicted_subclass_field: str = Field(
        "predicted_consideration", description="predicted consideration type"
    )
