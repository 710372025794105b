"""The LegalBench suite (seed 000 §8)."""

from assay.tasks.legal.answers import (
    LEGALBENCH_BINARY_LABELS,
    LEGALBENCH_YES_NO,
    normalize_legalbench,
)
from assay.tasks.legalbench.settings import LegalBenchSettings
from assay.tasks.legalbench.task import LegalBenchTask

task = LegalBenchTask()

__all__ = [
    "LEGALBENCH_BINARY_LABELS",
    "LEGALBENCH_YES_NO",
    "LegalBenchSettings",
    "LegalBenchTask",
    "normalize_legalbench",
    "task",
]
