"""The LegalBench suite (seed 000 §8)."""

from assay._legal.answers import (
    LEGALBENCH_BINARY_LABELS,
    LEGALBENCH_YES_NO,
    normalize_legalbench,
)
from assay.suites.legalbench.settings import LegalBenchSettings
from assay.suites.legalbench.task import LegalBenchTask

task = LegalBenchTask()

__all__ = [
    "LEGALBENCH_BINARY_LABELS",
    "LEGALBENCH_YES_NO",
    "LegalBenchSettings",
    "LegalBenchTask",
    "normalize_legalbench",
    "task",
]
