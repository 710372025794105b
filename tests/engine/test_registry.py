"""The registry's built-in suites: the names pyproject's entry points give, found without
reading any distribution's metadata."""

from __future__ import annotations

from importlib.metadata import distribution
from typing import Any

import pytest

from assay._engine import registry
from assay._engine.registry import BUILTIN_TASKS, get_task, task_names
from assay.suites.extraction.task import ExtractionTask


def test_the_built_in_table_is_pyprojects_entry_points() -> None:
    shipped = distribution("assay-eval").entry_points.select(group=registry.GROUP)
    assert {ep.name: ep.value for ep in shipped} == BUILTIN_TASKS


def test_a_built_in_suite_loads_without_reading_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_metadata(**_: Any) -> Any:
        raise AssertionError("read the entry points")

    monkeypatch.setattr(registry, "_registered", {})
    monkeypatch.setattr(registry, "_load_errors", {})
    monkeypatch.setattr(registry, "_entry_points", None)
    monkeypatch.setattr(registry, "entry_points", no_metadata)
    assert isinstance(get_task("extraction"), ExtractionTask)
    monkeypatch.setattr(registry, "entry_points", lambda **_: [])  # no metadata at all
    assert set(BUILTIN_TASKS) <= set(task_names())
    with pytest.raises(Exception, match="unknown task 'nope'"):
        get_task("nope")
