"""Progress over a whole run (issue 36): reading, scoring, resampling, writing, storing."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import assay
from assay._cli import main, state
from assay._cli.state import LazyProgress


class Recorder:
    """A ``StagedProgress`` that keeps what it is told."""

    def __init__(self) -> None:
        self.events: list[tuple[str, int | None]] = []
        self.last: dict[str, tuple[int, int]] = {}
        self.current = ""

    def stage(self, name: str, total: int | None = None) -> None:
        self.current = name
        self.events.append((name, total))

    def __call__(self, done: int, total: int) -> None:
        self.last[self.current] = (done, total)


def test_a_run_reports_every_stage(labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    rec = Recorder()
    assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=50, progress=rec)
    size = pred.stat().st_size + gold.stat().st_size
    assert rec.events == [("reading", size), ("scoring", None), ("resampling", None)]
    assert rec.last["reading"] == (size, size)  # every byte of both files
    assert rec.last["scoring"] == (12, 12)


def test_a_plain_callable_hears_the_scoring_only(labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    seen: list[tuple[int, int]] = []
    assay.score(
        "classification", pred=pred, gold=gold, ci=False, progress=lambda *a: seen.append(a)
    )
    assert seen and all(total == 12 for _, total in seen)


def test_the_cli_covers_writing_and_storing(
    tmp_path: Path, labels_files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    stages: list[str] = []
    monkeypatch.setattr(LazyProgress, "stage", lambda self, name, total=None: stages.append(name))
    gold, pred = labels_files
    args = ["score", "classification", "--pred", str(pred), "--gold", str(gold)]
    assert main([*args, "-o", str(tmp_path / "run.json"), "--no-ci"]) == 0
    assert stages == ["reading", "scoring", "aggregating", "writing", "storing"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_display_shows_stages_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Off when stderr is not a terminal and with -q; on a terminal, the timer shows a stage
    that reports nothing (resampling), then it is gone (transient)."""
    import time

    assert not LazyProgress("x").enabled  # pytest's stderr is no terminal
    terminal = _Terminal()
    monkeypatch.setattr(state.sys, "stderr", terminal)
    state.STATE.quiet = True
    assert not LazyProgress("x").enabled
    state.STATE.quiet = False
    with LazyProgress("demo", after=0.05) as progress:
        assert progress.enabled
        progress.stage("resampling")
        time.sleep(0.4)
        assert progress._progress is not None  # shown by the timer
        progress.stage("writing")
        progress.advance(2_500_000)
    assert progress._closed
