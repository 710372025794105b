"""The LegalBench suite (seed 000 §8): Yes/No answers with aliases, exact match, per-class
accuracy, binary precision / recall / F1 with yes positive, confusion and top confusions.
Multi-class LegalBench tasks (abercrombie) get the same metrics without the binary ones."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, ClassVar

from assay._legal.answers import LEGALBENCH_BINARY_LABELS, normalize_legalbench
from assay._legal.labelsuite import LabelSettings, LabelSuite
from assay.suites.legalbench.settings import LegalBenchSettings


class LegalBenchTask(LabelSuite[LegalBenchSettings]):
    """LegalBench: one question per row, a gold answer and the model's answer."""

    name: ClassVar[str] = "legalbench"
    description: ClassVar[str] = "LegalBench: Yes/No exact match, per-class, binary P/R/F1"
    metrics_version: ClassVar[int] = 1
    settings_model = LegalBenchSettings

    def normalize(self, value: Any, valid: Collection[str] | None) -> str:
        if valid and not set(valid) <= set(LEGALBENCH_BINARY_LABELS):
            return super().normalize(value, valid)
        return normalize_legalbench(value, valid)

    def positive_class(self, s: LabelSettings) -> str | None:
        """Binary metrics only for a Yes/No task."""
        if s.positive is None or not s.labels or not set(s.labels) <= set(LEGALBENCH_BINARY_LABELS):
            return None
        return normalize_legalbench(s.positive)
