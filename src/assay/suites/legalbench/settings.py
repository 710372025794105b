"""The LegalBench suite's settings section (``legalbench:`` in assay.yaml)."""

from __future__ import annotations

from pydantic import Field

from assay._legal.labelsuite import LabelSettings


class LegalBenchSettings(LabelSettings):
    """LegalBench rows: ``answer`` gold (Yes/No for the binary tasks), ``predicted`` output."""

    expected_field: str = Field("answer", description="gold answer field")
    positive: str | None = Field(
        "yes",
        description="positive class of the binary metrics (used when the task is Yes/No)",
    )
