"""``assay.commands``, the helpers of a suite's own command group: its three lists of names agree,
it imports nothing until a name is read, and a group built only from it scores, stores and
compares like ``assay score``."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
from click.testing import CliRunner

import assay.commands
from assay import get_task

SOURCE = Path(assay.commands.__file__)


def test_the_three_lists_of_names_agree() -> None:
    declared: dict[str, str] = {}
    for node in ast.parse(SOURCE.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom) and stmt.module
                declared.update({alias.name: stmt.module for alias in stmt.names})
    lazy = dict(assay.commands._lazy_exports)  # type: ignore[attr-defined]
    assert declared == lazy and sorted(assay.commands.__all__) == sorted(lazy)
    for name, module in lazy.items():
        assert getattr(assay.commands, name) is getattr(importlib.import_module(module), name)


def test_importing_it_loads_no_command_line() -> None:
    code = "import sys, assay.commands; print(any(m.startswith('assay._cli') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _group() -> click.Group:
    from assay.commands import SEED, common_options, run_compare, score_and_report

    task = get_task("classification")

    @click.group("mine")
    def group() -> None:
        """A plugin's own workflow."""

    def score(**kw: Any) -> None:
        score_and_report(task, **kw)

    group.add_command(click.Command("score", callback=score, params=common_options()))

    @group.command("diff")
    @click.argument("runs", nargs=-1)
    @click.option("--seed", type=SEED, default=12345)
    def diff(runs: tuple[str, ...], seed: int) -> None:
        run_compare(runs, seed=seed, significance=True)

    return group


def _jsonl(path: Path, field: str, labels: list[str]) -> None:
    rows = [json.dumps({"id": f"i{k}", field: v}) for k, v in enumerate(labels)]
    path.write_text("\n".join(rows) + "\n")


def test_a_group_built_from_it_scores_and_compares(tmp_path: Path) -> None:
    labels = ["x", "y"] * 30
    _jsonl(tmp_path / "gold.jsonl", "expected", labels)
    _jsonl(tmp_path / "a.jsonl", "predicted", labels)
    _jsonl(tmp_path / "b.jsonl", "predicted", ["x"] * 60)
    gold = tmp_path / "gold.jsonl"
    runner = CliRunner()
    group = _group()
    for name in ("a", "b"):
        result = runner.invoke(
            group,
            [
                "score",
                "--pred",
                str(tmp_path / f"{name}.jsonl"),
                "--gold",
                str(gold),
                "--no-store",
                "-o",
                str(tmp_path / f"{name}.run.json"),
            ],
        )
        assert result.exit_code == 0, result.output
        assert json.loads((tmp_path / f"{name}.run.json").read_text())["task"] == "classification"
    result = runner.invoke(
        group, ["diff", str(tmp_path / "a.run.json"), str(tmp_path / "b.run.json")]
    )
    assert result.exit_code == 0, result.output
    assert "Δ = candidate − baseline" in result.output
