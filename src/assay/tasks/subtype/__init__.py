"""The subtype suite (seed 000 §6, §15)."""

from assay.tasks.subtype.settings import SubtypeSettings
from assay.tasks.subtype.task import SubtypeTask

task = SubtypeTask()

__all__ = ["SubtypeSettings", "SubtypeTask", "task"]
