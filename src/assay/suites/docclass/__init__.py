"""The docclass suite (seed 000 §7): hierarchical doc classification, a primary doc_type and a
subclass, scored apart and together.

The names below load with their module on first use (:mod:`assay._lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay.suites.docclass.settings import DocclassSettings
    from assay.suites.docclass.task import DocclassTask, task

_MODULES = {
    "assay.suites.docclass.settings": ("DocclassSettings",),
    # `task` (the suite's one instance, the assay.tasks entry point) shares its module's name
    "assay.suites.docclass.task": ("DocclassTask", "task"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "DocclassSettings",
    "DocclassTask",
    "task",
]
