"""The MAUD suite (seed 000 §8): merger agreements' doc_type and consideration type, MAUD's
label surface normalized.

The names below load with their module on first use (:mod:`assay._lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay._legal.answers import (
        MAUD_CONSIDERATION_ALIASES,
        MAUD_CONSIDERATION_KEYS,
        normalize_maud_consideration,
    )
    from assay.suites.maud.settings import MaudSettings
    from assay.suites.maud.task import MaudTask, task

_MODULES = {
    "assay._legal.answers": (
        "MAUD_CONSIDERATION_ALIASES",
        "MAUD_CONSIDERATION_KEYS",
        "normalize_maud_consideration",
    ),
    "assay.suites.maud.settings": ("MaudSettings",),
    # `task` (the suite's one instance, the assay.tasks entry point) shares its module's name
    "assay.suites.maud.task": ("MaudTask", "task"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "MAUD_CONSIDERATION_ALIASES",
    "MAUD_CONSIDERATION_KEYS",
    "MaudSettings",
    "MaudTask",
    "normalize_maud_consideration",
    "task",
]
