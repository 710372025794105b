"""The chained suite (seed 000 §5, §12)."""

from assay._legal.chained import chained_composite, chained_summary
from assay.suites.chained.ablation import HandoffAblation, handoff_ablation
from assay.suites.chained.settings import ChainedSettings
from assay.suites.chained.task import EXTRACTOR_TRACKERS, ChainedTask

task = ChainedTask()

__all__ = [
    "EXTRACTOR_TRACKERS",
    "ChainedSettings",
    "ChainedTask",
    "HandoffAblation",
    "chained_composite",
    "chained_summary",
    "handoff_ablation",
    "task",
]
