"""The ContractEval suite (seed 000 §8, §17; arXiv 2508.03080): the benchmark's clause rubric
over (contract, CUAD category) pairs, its rows from CUAD, and the mapping scorer that answers
them from an extraction run.

The names below load with their module on first use (:mod:`assay._lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay.suites.contracteval._lib.cuad_rows import (
        contracteval_rows,
        master_clause_rows,
        squad_rows,
    )
    from assay.suites.contracteval._lib.mapping import (
        STRUCTURAL_PRECISION_CAVEAT,
        CoverageBands,
        best_containment,
        coverage_bands,
        map_spans,
        mapped_answer,
        mapping_rows,
        normalize_filename,
        run_spans,
    )
    from assay.suites.contracteval.metrics import confusion_specs
    from assay.suites.contracteval.settings import ContractEvalSettings
    from assay.suites.contracteval.task import ContractEvalTask, task

_MODULES = {
    "assay.suites.contracteval._lib.cuad_rows": (
        "contracteval_rows",
        "master_clause_rows",
        "squad_rows",
    ),
    "assay.suites.contracteval._lib.mapping": (
        "STRUCTURAL_PRECISION_CAVEAT",
        "CoverageBands",
        "best_containment",
        "coverage_bands",
        "map_spans",
        "mapped_answer",
        "mapping_rows",
        "normalize_filename",
        "run_spans",
    ),
    "assay.suites.contracteval.metrics": ("confusion_specs",),
    "assay.suites.contracteval.settings": ("ContractEvalSettings",),
    # `task` (the suite's one instance, the assay.tasks entry point) shares its module's name
    "assay.suites.contracteval.task": ("ContractEvalTask", "task"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "STRUCTURAL_PRECISION_CAVEAT",
    "ContractEvalSettings",
    "ContractEvalTask",
    "CoverageBands",
    "best_containment",
    "confusion_specs",
    "contracteval_rows",
    "coverage_bands",
    "map_spans",
    "mapped_answer",
    "mapping_rows",
    "master_clause_rows",
    "normalize_filename",
    "run_spans",
    "squad_rows",
    "task",
]
