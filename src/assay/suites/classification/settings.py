"""The classification suite's settings section (``classification:`` in assay.yaml)."""

from __future__ import annotations

from pydantic import Field

from assay._settings.model import SuiteSection


class ClassificationSettings(SuiteSection):
    """Where the labels are and which labels exist."""

    id_field: str = Field("id", description="record field holding the item id")
    expected_field: str = Field("expected", description="gold label field")
    predicted_field: str = Field("predicted", description="predicted label field")
    labels: list[str] | None = Field(
        None, description="valid label set; enables the word-boundary fallback of normalize_label"
    )
    positive: str | None = Field(
        None, description="positive class: adds binary precision, recall and F1"
    )
