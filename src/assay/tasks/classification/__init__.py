"""Label classification suite (seed 000 §1–§2)."""

from assay.tasks.classification.labels import ERROR_PREFIX, is_error_output, normalize_label
from assay.tasks.classification.settings import ClassificationSettings
from assay.tasks.classification.task import ClassificationTask

task = ClassificationTask()

__all__ = [
    "ERROR_PREFIX",
    "ClassificationSettings",
    "ClassificationTask",
    "is_error_output",
    "normalize_label",
    "task",
]
