"""The multiclass suite (seed 000 §2, §8): plain multi-class labels and court opinions, macro
and micro accuracy, per-class accuracy and confusion.

The names below load with their module on first use (:mod:`assay._lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay.suites.multiclass.settings import MulticlassSettings
    from assay.suites.multiclass.task import MulticlassTask, task

_MODULES = {
    "assay.suites.multiclass.settings": ("MulticlassSettings",),
    # `task` (the suite's one instance, the assay.tasks entry point) shares its module's name
    "assay.suites.multiclass.task": ("MulticlassTask", "task"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "MulticlassSettings",
    "MulticlassTask",
    "task",
]
