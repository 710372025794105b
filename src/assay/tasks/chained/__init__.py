"""The chained suite (seed 000 §5, §12)."""

from assay.tasks.chained.ablation import HandoffAblation, handoff_ablation
from assay.tasks.chained.settings import ChainedSettings
from assay.tasks.chained.task import EXTRACTOR_TRACKERS, ChainedTask
from assay.tasks.legal.chained import chained_composite, chained_summary

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
