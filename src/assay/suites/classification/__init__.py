"""Label classification suite (seed 000 §1–§2): exact match, failures, per-class and macro
accuracy, a confusion matrix and binary P/R/F1 (docs: ``docs.md`` beside this file).

The names below load with their module on first use (:mod:`assay._lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay._labels.normalize import ERROR_PREFIX, is_error_output, normalize_label
    from assay.suites.classification.settings import ClassificationSettings
    from assay.suites.classification.task import ClassificationTask, task

_MODULES = {
    "assay._labels.normalize": ("ERROR_PREFIX", "is_error_output", "normalize_label"),
    "assay.suites.classification.settings": ("ClassificationSettings",),
    # `task` (the suite's one instance, the assay.tasks entry point) shares its module's name
    "assay.suites.classification.task": ("ClassificationTask", "task"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "ERROR_PREFIX",
    "ClassificationSettings",
    "ClassificationTask",
    "is_error_output",
    "normalize_label",
    "task",
]
