"""Items, cohorts and pairing, provenance, the Run artifact, the task contract and the flow.

Names load on first use (``assay._lazy``): a suite importing ``assay._engine.task`` does not pull
in the scoring flow, the run store or the statistics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay._engine.cohort import Cohort, CohortIssue, build_cohort
    from assay._engine.executors import score_items
    from assay._engine.item import Item, ItemStatus
    from assay._engine.keys import doi_or_filename_key, normalize_doi, record_id_key
    from assay._engine.registry import available_tasks, get_task, load_task_plugins, register_task
    from assay._engine.run import CohortSummary, ItemRecord, MetricResult, Provenance, Run, Surface
    from assay._engine.scoring import score
    from assay._engine.task import BlockSummaries, ItemScore, LoadedInputs, Task

_MODULES = {
    "assay._engine.cohort": ("Cohort", "CohortIssue", "build_cohort"),
    "assay._engine.item": ("Item", "ItemStatus"),
    "assay._engine.keys": ("doi_or_filename_key", "normalize_doi", "record_id_key"),
    "assay._engine.registry": ("available_tasks", "get_task", "load_task_plugins", "register_task"),
    "assay._engine.run": (
        "CohortSummary",
        "ItemRecord",
        "MetricResult",
        "Provenance",
        "Run",
        "Surface",
    ),
    "assay._engine.executors": ("score_items",),
    "assay._engine.scoring": ("score",),
    "assay._engine.task": ("BlockSummaries", "ItemScore", "LoadedInputs", "Task"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "BlockSummaries",
    "Cohort",
    "CohortIssue",
    "CohortSummary",
    "Item",
    "ItemRecord",
    "ItemScore",
    "ItemStatus",
    "LoadedInputs",
    "MetricResult",
    "Provenance",
    "Run",
    "Surface",
    "Task",
    "available_tasks",
    "build_cohort",
    "doi_or_filename_key",
    "get_task",
    "load_task_plugins",
    "normalize_doi",
    "record_id_key",
    "register_task",
    "score",
    "score_items",
]
