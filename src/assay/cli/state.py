"""Options every command shares (--quiet, --debug) and the consoles they shape."""

from __future__ import annotations

import time
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rich loads when something is printed, not when the CLI is built
    from rich.console import Console
    from rich.progress import Progress, TaskID


@dataclass
class CliState:
    quiet: bool = False
    debug: bool = False
    #: set when the command writes its artifact to stdout (``-o -``, ``--format json``):
    #: everything else printed for people then goes to stderr
    stdout_is_artifact: bool = False


STATE = CliState()


def out() -> Console:
    """Where results for people go: stdout (stderr when stdout carries the artifact), silenced
    by --quiet."""
    from rich.console import Console

    return Console(
        stderr=STATE.stdout_is_artifact,
        quiet=STATE.quiet,
        highlight=False,
        soft_wrap=False,
        width=120,
    )


def err() -> Console:
    """Where warnings and errors go: stderr (warnings silenced by --quiet)."""
    from rich.console import Console

    return Console(stderr=True, quiet=STATE.quiet, highlight=False, width=120)


class LazyProgress:
    """A progress bar that appears only when the work has run for more than ``after`` seconds."""

    def __init__(self, description: str, *, after: float = 0.75) -> None:
        self.description = description
        self.after = after
        self.start = time.monotonic()
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        if STATE.quiet:
            return
        if self._progress is None:
            if time.monotonic() - self.start < self.after or done >= total:
                return
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task(self.description, total=total)
        assert self._task is not None
        self._progress.update(self._task, completed=done)

    def __enter__(self) -> LazyProgress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.stop()
