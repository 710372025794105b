"""``assay score <suite>``: the shared options and each suite's settings options never clash."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import click
import pytest

from assay._cli import main
from assay._cli.score import make_score_command
from assay._engine.registry import get_task, task_names


def test_no_suite_option_repeats_a_flag() -> None:
    for name in task_names():
        command = make_score_command(get_task(name))
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # click warns on a flag used twice
            params = command.get_params(click.Context(command))
        flags = [flag for param in params for flag in param.opts]
        assert len(flags) == len(set(flags)), name


def test_a_settings_field_named_like_a_shared_option_is_prefixed_by_its_suite() -> None:
    command = make_score_command(get_task("translation"))
    by_flag = {flag: param for param in command.params for flag in param.opts}
    assert by_flag["--format"].name == "fmt"  # the output format
    assert by_flag["--translation-format"].name == "format"  # the input format setting
    ctx = command.make_context(
        "translation", ["--pred", "p.txt", "--translation-format", "text", "--format", "json"]
    )
    assert ctx.params["format"] == "text" and ctx.params["fmt"] == "json"


def test_a_run_whose_output_another_process_replaced_says_so(
    tmp_path: Path,
    labels_files: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Of concurrent writers of one ``-o`` the last rename wins (issue 36): a process whose
    artifact was replaced says so, names the run the file holds and where its own is kept."""
    from assay._engine.run import Run
    from assay._io.atomic import Written, write_atomic

    gold, pred = labels_files
    out = tmp_path / "run.json"
    own = Run.write_artifact

    def raced(run: Run, path: Any, **kw: Any) -> Written:
        written = own(run, path, **kw)
        write_atomic(path, [b'{"artifact_schema": 2, "run_id": "0123456789ab"}'])  # another's
        return written

    monkeypatch.setattr(Run, "write_artifact", raced)
    args = ["score", "classification", "--pred", str(pred), "--gold", str(gold), "-o", str(out)]
    assert main([*args, "--no-ci"]) == 0
    said = " ".join(capsys.readouterr().err.split())
    assert f"warning: {out} was replaced by another process after run " in said
    assert "it holds run 0123456789ab (of concurrent writers of one path the last one wins)" in said
    assert "this run is in the run store: assay report " in said
    assert main([*args, "--no-ci", "--no-store"]) == 0
    assert "this run was not stored (--no-store)" in " ".join(capsys.readouterr().err.split())


def test_a_written_run_is_named(
    tmp_path: Path, labels_files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = labels_files
    out = tmp_path / "run.json"
    assert (
        main(
            [
                "score",
                "classification",
                "--pred",
                str(pred),
                "--gold",
                str(gold),
                "-o",
                str(out),
                "--no-ci",
                "--no-store",
            ]
        )
        == 0
    )
    from assay._engine.run import Run

    assert f"run {Run.load(out).run_id} written to {out}" in capsys.readouterr().out


def test_the_resample_flags_bound_is_the_settings() -> None:
    from assay._cli.state import RESAMPLES
    from assay._settings.model import MAX_RESAMPLES

    assert RESAMPLES.max == MAX_RESAMPLES
