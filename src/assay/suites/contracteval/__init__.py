"""The ContractEval suite (seed 000 §8, §17; arXiv 2508.03080)."""

from assay.suites.contracteval.settings import ContractEvalSettings
from assay.suites.contracteval.task import ContractEvalTask, confusion_specs

task = ContractEvalTask()

__all__ = ["ContractEvalSettings", "ContractEvalTask", "confusion_specs", "task"]
