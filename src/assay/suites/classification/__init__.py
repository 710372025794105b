"""Label classification suite (seed 000 §1–§2)."""

from assay.suites.classification.labels import ERROR_PREFIX, is_error_output, normalize_label
from assay.suites.classification.settings import ClassificationSettings
from assay.suites.classification.task import ClassificationTask

task = ClassificationTask()

__all__ = [
    "ERROR_PREFIX",
    "ClassificationSettings",
    "ClassificationTask",
    "is_error_output",
    "normalize_label",
    "task",
]
