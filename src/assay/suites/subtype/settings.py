"""The subtype suite's settings section (``subtype:`` in assay.yaml)."""

from __future__ import annotations

from pydantic import Field

from assay._labels import SUBTYPE_EQUIVALENCES
from assay._settings.model import SuiteSection


class SubtypeSettings(SuiteSection):
    """Field names of a sorter row, the expected doc_type and the equivalent families."""

    id_field: str = Field("id", description="record field holding the item id")
    expected_field: str = Field("expected", description="gold subtype (the CUAD folder)")
    doc_type_field: str = Field("doc_type", description="the sorter's predicted doc_type")
    predicted_field: str = Field("predicted", description="the sorter's predicted subtype")
    confidence_field: str = Field("confidence", description="model-reported confidence")
    expected_doc_type: str = Field("contract", description="doc_type every row should get")
    other_label: str = Field("other", description="the fallback subtype (other_fallback mode)")
    equivalences: list[list[str]] = Field(
        default_factory=lambda: [list(p) for p in SUBTYPE_EQUIVALENCES],
        description="subtype pairs counted by subtype_accuracy_equiv",
        json_schema_extra={"cli": False},
    )
