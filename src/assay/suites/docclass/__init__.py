"""The docclass suite (seed 000 §7)."""

from assay.suites.docclass.settings import DocclassSettings
from assay.suites.docclass.task import DocclassTask

task = DocclassTask()

__all__ = ["DocclassSettings", "DocclassTask", "task"]
