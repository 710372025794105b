"""The LegalBench suite (seed 000 §8): Yes/No questions with answer aliases, exact match,
per-class accuracy and binary precision / recall / F1 with yes positive; multi-class LegalBench
tasks without the binary ones.

The names below load with their module on first use (:mod:`assay._lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay._legal.answers import (
        LEGALBENCH_BINARY_LABELS,
        LEGALBENCH_YES_NO,
        normalize_legalbench,
    )
    from assay.suites.legalbench.settings import LegalBenchSettings
    from assay.suites.legalbench.task import LegalBenchTask, task

_MODULES = {
    "assay._legal.answers": (
        "LEGALBENCH_BINARY_LABELS",
        "LEGALBENCH_YES_NO",
        "normalize_legalbench",
    ),
    "assay.suites.legalbench.settings": ("LegalBenchSettings",),
    # `task` (the suite's one instance, the assay.tasks entry point) shares its module's name
    "assay.suites.legalbench.task": ("LegalBenchTask", "task"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "LEGALBENCH_BINARY_LABELS",
    "LEGALBENCH_YES_NO",
    "LegalBenchSettings",
    "LegalBenchTask",
    "normalize_legalbench",
    "task",
]
