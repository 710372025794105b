"""The subtype suite (seed 000 §6, §15): the sorter's doc_type and contract subtype against the
CUAD folder, strict and with equivalent families, and the sorter's failure modes.

The names below load with their module on first use (:mod:`assay._lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay.suites.subtype.settings import SubtypeSettings
    from assay.suites.subtype.task import SubtypeTask, task

_MODULES = {
    "assay.suites.subtype.settings": ("SubtypeSettings",),
    # `task` (the suite's one instance, the assay.tasks entry point) shares its module's name
    "assay.suites.subtype.task": ("SubtypeTask", "task"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "SubtypeSettings",
    "SubtypeTask",
    "task",
]
