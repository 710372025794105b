"""The task registry: the built-in suites the layer above hands it (the names pyproject's entry
points give), found without reading any distribution's metadata; the suites' settings sections
handed on to the settings layer; a run's suite imported for its own metric kinds."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
from importlib.metadata import distribution
from typing import Any

import pytest

import assay
from assay._engine import registry
from assay._engine.registry import BUILTIN_TASKS, get_task, task_names
from assay._settings import sections
from assay.suites import BUILTIN_TASKS as SUITES_TABLE
from assay.suites.extraction.task import ExtractionTask


def test_the_built_in_table_is_pyprojects_entry_points() -> None:
    shipped = distribution("assay-eval").entry_points.select(group=registry.GROUP)
    assert {ep.name: ep.value for ep in shipped} == SUITES_TABLE


def test_importing_assay_hands_the_registry_the_built_in_table() -> None:
    assert BUILTIN_TASKS == SUITES_TABLE
    assert assay._registry is registry  # the wiring of assay/__init__.py


def _fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_registered", {})
    monkeypatch.setattr(registry, "_load_errors", {})
    monkeypatch.setattr(registry, "_entry_points", None)


def test_a_built_in_suite_loads_without_reading_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_metadata(**_: Any) -> Any:
        raise AssertionError("read the entry points")

    _fresh(monkeypatch)
    monkeypatch.setattr(importlib.metadata, "entry_points", no_metadata)
    assert isinstance(get_task("extraction"), ExtractionTask)
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **_: [])  # no metadata at all
    assert set(BUILTIN_TASKS) <= set(task_names())
    with pytest.raises(Exception, match="unknown task 'nope'"):
        get_task("nope")


def test_without_the_table_the_built_in_suites_are_entry_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _fresh(monkeypatch)
    monkeypatch.setattr(registry, "BUILTIN_TASKS", {})
    assert isinstance(get_task("extraction"), ExtractionTask)
    assert set(SUITES_TABLE) <= set(task_names())


def test_a_built_in_suite_imports_no_metadata_reader() -> None:
    """importlib.metadata is pydantic's to import (its plugin loader), not the registry's."""
    code = (
        "import sys, assay; from assay._engine.registry import _load; "
        "import assay.suites.classification.settings as s; sys.modules.pop('importlib.metadata'); "
        "_load('classification'); print('importlib.metadata' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_settings_find_a_suites_section_through_the_registry() -> None:
    assert sections.suite_section_model("extraction") is get_task("extraction").settings_model
    assert sections.suite_section_model("nope") is None
    assert sections.suite_names() == task_names()


def test_a_runs_own_kind_is_registered_by_importing_its_suite_only() -> None:
    """``extraction.total`` is the extraction suite's kind: ``ensure_kinds`` (which a Run's
    ``metric_specs`` calls) imports that suite, and no other, when the kind is unknown; a
    built-in kind imports none."""
    code = """
import json, sys
from assay._engine.registry import ensure_kinds
from assay.metrics.kinds import is_registered
from assay.metrics.spec import MetricSpec
ensure_kinds("extraction", [MetricSpec("bleu", "sacrebleu_bleu", ("b",))])
before = sorted({m.split(".")[2] for m in sys.modules if m.startswith("assay.suites.")})
known = is_registered("extraction.total")
ensure_kinds("extraction", [MetricSpec("item_count", "extraction.total", ("n",))])
after = sorted({m.split(".")[2] for m in sys.modules if m.startswith("assay.suites.")})
print(json.dumps([before, known, after, is_registered("extraction.total")]))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [[], False, ["extraction"], True]
