"""The subtype suite (seed 000 §6, §15)."""

from assay.suites.subtype.settings import SubtypeSettings
from assay.suites.subtype.task import SubtypeTask

task = SubtypeTask()

__all__ = ["SubtypeSettings", "SubtypeTask", "task"]
