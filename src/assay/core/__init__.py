"""Items, cohorts and pairing, provenance, the Run artifact, the task contract and the flow."""

from assay.core.cohort import Cohort, CohortIssue, build_cohort
from assay.core.item import Item, ItemStatus
from assay.core.keys import doi_or_filename_key, normalize_doi, record_id_key
from assay.core.registry import available_tasks, get_task, load_task_plugins, register_task
from assay.core.run import CohortSummary, ItemRecord, MetricResult, Provenance, Run, Surface
from assay.core.scoring import score, score_items
from assay.core.task import ItemScore, LoadedInputs, Task

__all__ = [
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
