"""The chained suite's settings section (``chained:`` in assay.yaml)."""

from __future__ import annotations

from pydantic import Field

from assay._settings.model import SuiteSection


class ChainedSettings(SuiteSection):
    """Field names of a chained row (gold and the two stages' outputs) and the weights."""

    id_field: str = Field("id", description="record field holding the document id")
    expected_doc_type: str = Field("contract", description="doc_type every row should get")
    expected_field: str = Field("expected_subtype", description="gold subtype (CUAD folder)")
    doc_type_field: str = Field("doc_type", description="the sorter's doc_type")
    subtype_field: str = Field("subtype", description="the sorter's subtype")
    confidence_field: str = Field("confidence", description="the sorter's confidence")
    sorter_weight: float = Field(0.25, ge=0, description="weight of the sorter in the composite")
    extractor_weight: float = Field(
        0.75, ge=0, description="weight of the extractor in the composite"
    )
