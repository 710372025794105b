"""Options every command shares (--quiet, --debug) and the consoles they shape."""

from __future__ import annotations

import time
from dataclasses import dataclass
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)


@dataclass
class CliState:
    quiet: bool = False
    debug: bool = False


STATE = CliState()


def out() -> Console:
    """Where results go: stdout, silenced by --quiet."""
    return Console(quiet=STATE.quiet, highlight=False, soft_wrap=False, width=120)


def err() -> Console:
    """Where warnings and errors go: stderr (warnings silenced by --quiet)."""
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
