"""The scores suite: per-item scores that Inspect, lm-evaluation-harness or promptfoo already
computed, read from their own result files, with assay's CIs, paired tests and gates (docs:
``docs.md`` beside this file).

The names below load with their module on first use (:mod:`assay._lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay._io.bridges import SOURCES, detect_source
    from assay.suites.scores._lib.figures import figure_lines
    from assay.suites.scores._lib.reading import system_names
    from assay.suites.scores.examples import write_demo
    from assay.suites.scores.scorer import reduce_samples
    from assay.suites.scores.settings import ScoresSettings
    from assay.suites.scores.task import ScoresTask, task

_MODULES = {
    "assay._io.bridges": ("SOURCES", "detect_source"),
    "assay.suites.scores._lib.figures": ("figure_lines",),
    "assay.suites.scores._lib.reading": ("system_names",),
    "assay.suites.scores.examples": ("write_demo",),
    "assay.suites.scores.scorer": ("reduce_samples",),
    "assay.suites.scores.settings": ("ScoresSettings",),
    # `task` (the suite's one instance, the assay.tasks entry point) shares its module's name
    "assay.suites.scores.task": ("ScoresTask", "task"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "SOURCES",
    "ScoresSettings",
    "ScoresTask",
    "detect_source",
    "figure_lines",
    "reduce_samples",
    "system_names",
    "task",
    "write_demo",
]
