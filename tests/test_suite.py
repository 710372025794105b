"""``assay.suite``, the plugin surface: one module whose three lists of names (the
``TYPE_CHECKING`` imports, the lazy map, ``__all__``) agree, which imports nothing until a name is
read, and which holds what a suite needs."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import assay.suite

SOURCE = Path(assay.suite.__file__)


def _type_checking_imports() -> dict[str, str]:
    names: dict[str, str] = {}
    for node in ast.parse(SOURCE.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom) and stmt.module
                names.update({alias.name: stmt.module for alias in stmt.names})
    return names


def test_the_three_lists_of_names_agree() -> None:
    lazy = dict(assay.suite._lazy_exports)  # type: ignore[attr-defined]
    assert _type_checking_imports() == lazy
    assert sorted(assay.suite.__all__) == sorted(lazy)
    for name, module in lazy.items():
        assert getattr(assay.suite, name) is getattr(importlib.import_module(module), name)


def test_it_holds_what_a_suite_needs() -> None:
    needed = {
        "Task", "ItemScore", "LoadedInputs", "Item", "record_list", "read_records", "MetricSpec",
        "mean_metric", "ratio_metric", "fbeta_metric", "macro_metric", "mean_columns",
        "register_kind", "register_task", "Section", "check_kinds", "check_suite",
    }  # fmt: skip
    assert needed <= set(assay.suite.__all__)


def test_importing_it_costs_nothing() -> None:
    code = (
        "import json, sys, assay.suite; "
        "print(json.dumps([m for m in ('numpy', 'pydantic', 'assay._engine.task') "
        "if m in sys.modules]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_the_statistics_row_rule_is_stated_where_a_suite_author_reads() -> None:
    """On the guide, on ``Task.metric_specs`` and on ``ItemScore``."""
    for doc in (
        assay.suite.__doc__,
        assay.suite.Task.metric_specs.__doc__,
        assay.suite.ItemScore.__doc__,
    ):
        text = " ".join((doc or "").split())
        assert "sparse" in text or "absent cell counts as 0" in text, doc
        assert "unknown" in text and "0.0" in text, doc
