"""The multiclass suite (seed 000 §2, §8)."""

from assay.suites.multiclass.settings import MulticlassSettings
from assay.suites.multiclass.task import MulticlassTask

task = MulticlassTask()

__all__ = ["MulticlassSettings", "MulticlassTask", "task"]
