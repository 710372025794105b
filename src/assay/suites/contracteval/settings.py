"""The ContractEval suite's settings section (``contracteval:`` in assay.yaml)."""

from __future__ import annotations

from pydantic import Field

from assay._legal.contracteval import PAPER_POSITIVES
from assay._settings.model import SuiteSection


class ContractEvalSettings(SuiteSection):
    """Field names of a row and the paper's fixed positive count."""

    id_field: str = Field("id", description="record field holding the pair id")
    category_field: str = Field("category", description="CUAD category of the pair")
    spans_field: str = Field(
        "gold_spans", description="gold clause spans (empty list = category absent)"
    )
    output_field: str = Field("output", description="the model's answer (string or null)")
    paper_positives: int = Field(
        PAPER_POSITIVES,
        gt=0,
        description="fixed denominator of false_no_related_rate_paper (the paper's positives)",
    )
    per_category: bool = Field(True, description="add per-category accuracy/P/R/F1/F2 metrics")
