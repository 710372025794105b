"""The multiclass suite (seed 000 §2, §8)."""

from assay.tasks.multiclass.settings import MulticlassSettings
from assay.tasks.multiclass.task import MulticlassTask

task = MulticlassTask()

__all__ = ["MulticlassSettings", "MulticlassTask", "task"]
