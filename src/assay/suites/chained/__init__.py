"""The chained suite (seed 000 §5, §12): a sorter → extractor pipeline's per-stage trackers and
their composite, and the handoff ablation of two chained runs.

The names below load with their module on first use (:mod:`assay._lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay.suites.chained._lib.ablation import HandoffAblation, handoff_ablation
    from assay.suites.chained.scorer import EXTRACTOR_TRACKERS, chained_composite
    from assay.suites.chained.settings import ChainedSettings
    from assay.suites.chained.summaries import chained_summary
    from assay.suites.chained.task import ChainedTask, task

_MODULES = {
    "assay.suites.chained._lib.ablation": ("HandoffAblation", "handoff_ablation"),
    "assay.suites.chained.scorer": ("EXTRACTOR_TRACKERS", "chained_composite"),
    "assay.suites.chained.settings": ("ChainedSettings",),
    "assay.suites.chained.summaries": ("chained_summary",),
    # `task` (the suite's one instance, the assay.tasks entry point) shares its module's name
    "assay.suites.chained.task": ("ChainedTask", "task"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

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
