"""The MAUD suite (seed 000 §8, maud_docclass_score): merger-agreement doc_type plus the
consideration type as subclass, strict and equiv; answers normalized by
normalize_maud_consideration (unknown → other)."""

from __future__ import annotations

from typing import Any, ClassVar

from assay._legal.answers import normalize_maud_consideration
from assay._legal.hierarchical import HierarchicalTask
from assay.suites.maud.settings import MaudSettings


class MaudTask(HierarchicalTask[MaudSettings]):
    """doc_type + consideration type per merger agreement."""

    name: ClassVar[str] = "maud"
    description: ClassVar[str] = (
        "MAUD: merger-agreement doc_type + consideration type (strict and equiv)"
    )
    metrics_version: ClassVar[int] = 1
    settings_model = MaudSettings

    def subclass_key(self, value: Any) -> str:
        return normalize_maud_consideration(value)
