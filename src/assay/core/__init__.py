"""Items, cohorts and pairing, provenance, the Run artifact, the task contract and the flow.

Names load on first use (``assay._lazy``): a suite importing ``assay.core.task`` does not pull
in the scoring flow, the run store or the statistics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay.core.cohort import Cohort, CohortIssue, build_cohort
    from assay.core.item import Item, ItemStatus
    from assay.core.keys import doi_or_filename_key, normalize_doi, record_id_key
    from assay.core.registry import available_tasks, get_task, load_task_plugins, register_task
    from assay.core.run import CohortSummary, ItemRecord, MetricResult, Provenance, Run, Surface
    from assay.core.scoring import score, score_items
    from assay.core.task import BlockSummaries, ItemScore, LoadedInputs, Task

_MODULES = {
    "assay.core.cohort": ("Cohort", "CohortIssue", "build_cohort"),
    "assay.core.item": ("Item", "ItemStatus"),
    "assay.core.keys": ("doi_or_filename_key", "normalize_doi", "record_id_key"),
    "assay.core.registry": ("available_tasks", "get_task", "load_task_plugins", "register_task"),
    "assay.core.run": (
        "CohortSummary",
        "ItemRecord",
        "MetricResult",
        "Provenance",
        "Run",
        "Surface",
    ),
    "assay.core.scoring": ("score", "score_items"),
    "assay.core.task": ("BlockSummaries", "ItemScore", "LoadedInputs", "Task"),
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
