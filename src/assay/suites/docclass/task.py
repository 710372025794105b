"""The docclass suite (seed 000 §7): hierarchical doc_type + subclass classification."""

from __future__ import annotations

from typing import ClassVar

from assay._legal.hierarchical import HierarchicalTask
from assay.suites.docclass.settings import DocclassSettings


class DocclassTask(HierarchicalTask[DocclassSettings]):
    """doc_type and subclass per row; subclasses normalized as plain labels."""

    name: ClassVar[str] = "docclass"
    description: ClassVar[str] = (
        "hierarchical doc classification: doc_type, subclass (strict, equiv), exact match"
    )
    metrics_version: ClassVar[int] = 1
    settings_model = DocclassSettings
