"""The docclass suite (seed 000 §7)."""

from assay.tasks.docclass.settings import DocclassSettings
from assay.tasks.docclass.task import DocclassTask

task = DocclassTask()

__all__ = ["DocclassSettings", "DocclassTask", "task"]
