"""Options every command shares (--quiet, --debug) and the consoles they shape."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

import click

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
    #: the exit code of a command that finished but says its result is not usable (``main``
    #: returns it when the command returns no code of its own)
    exit_code: int = 0


STATE = CliState()


class _Integer(click.IntRange):
    """An integer in a range, shown as ``INTEGER`` in help (its range after the help text)."""

    name = "integer"


#: a resampling seed's flag type: numpy's generators take any integer ≥ 0 (so ``--seed -1`` is
#: a usage error naming the flag, not a crash)
SEED = _Integer(min=0)
#: a resample count's flag type (``assay._settings.model.MAX_RESAMPLES``, checked by a test)
RESAMPLES = _Integer(1, 1_000_000)
#: a count of processes or workers
POSITIVE = _Integer(min=1)

#: exit code of a run scored and kept in which more than half of the items were not scored
#: (``assay score``: an empty predictions file, a misspelled field; README "Exit codes")
EXIT_UNUSABLE = 4

#: suites whose command group failed to build: name → reason (filled by the top-level group,
#: ``_cli.app``, as it looks for a suite's ``Task.cli_group()``; shown by ``assay tasks``)
SUITE_CLI_ERRORS: dict[str, str] = {}


#: control characters shown escaped (``\\x1b``), never sent to a terminal raw: C0 but newline
#: and tab, DEL, and C1 (0x9b is an 8-bit CSI to some terminals)
_CONTROLS = {
    c: f"\\x{c:02x}" for c in (*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F, *range(0x80, 0xA0))
}


def printable(text: str) -> str:
    """``text`` with every control character but newline and tab escaped (``\\x1b[31m`` shows
    as typed): a run name, an id, a path or a reason from a file can never move the cursor,
    retitle the window (OSC) or recolour the terminal (CSI)."""
    return text.translate(_CONTROLS)


def _console(**options: Any) -> Console:
    """A rich console that prints user text as typed (issue 36): markup, emoji codes
    (``pred.jsonl:100:`` is not 💯) and highlighting off, control characters escaped — in
    every string it renders (``render_str``, before layout, so columns line up) and, as a last
    guard, in every segment it writes (a ``Text`` built elsewhere)."""
    return _safe_console()(highlight=False, markup=False, emoji=False, **options)


@cache
def _safe_console() -> type[Console]:
    from rich.console import Console
    from rich.segment import Segment

    class SafeConsole(Console):
        def render_str(self, text: str, **options: Any) -> Any:
            return super().render_str(printable(text), **options)

        def _render_buffer(self, buffer: Iterable[Segment]) -> str:
            return super()._render_buffer(
                seg if seg.control else Segment(printable(seg.text), seg.style) for seg in buffer
            )

    return SafeConsole


def out() -> Console:
    """Where results for people go: stdout (stderr when stdout carries the artifact), silenced
    by --quiet.

    Markup is off (issue 20), emoji codes too and control characters are escaped (issue 36,
    ``_console``): every string printed (run names, ids, labels such as ``accuracy[contract]``,
    file names, messages) shows as typed; styling is given as a ``rich.text.Text`` or a
    ``style=``, never as ``[bold]`` tags in a string.
    """
    return _console(stderr=STATE.stdout_is_artifact, quiet=STATE.quiet, soft_wrap=False, width=120)


def err() -> Console:
    """Where warnings and errors go: stderr (warnings silenced by --quiet); user text shown as
    typed, as in ``out``."""
    return _console(stderr=True, quiet=STATE.quiet, width=120)


def say(text: str) -> None:
    """``text`` as one plain line where :func:`out` prints (control characters escaped),
    silenced by --quiet: for a line that needs no table or styling, without loading rich
    (start-up is part of a short command's cost)."""
    if not STATE.quiet:
        click.echo(printable(text), err=STATE.stdout_is_artifact)


def warn(text: str) -> None:
    """``text`` on stderr, yellow on a terminal (plain in a pipe), control characters escaped,
    silenced by --quiet: what ``err().print(text, style="yellow")`` prints, without loading
    rich."""
    if not STATE.quiet:
        click.secho(printable(text), fg="yellow", err=True)


#: what each stage of a run counts (``LazyProgress.stage``); a stage not listed counts nothing
_STAGE_UNITS = {"reading": "bytes", "scoring": "items", "writing": "bytes", "testing": "pairs"}


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False


class LazyProgress:
    """A progress display on stderr that appears once the work has run for more than
    ``after`` seconds, and is gone when it ends; none with --quiet or when stderr is not a
    terminal.

    Called with (done, total), it shows the current stage's progress. ``stage(name, total)``
    starts a stage of a run (issue 36: "reading" the input files' bytes, "scoring" items,
    "resampling", "writing" the artifact's bytes, "storing"), shown as "DESCRIPTION · STAGE"
    with its counts, or a moving bar and the time taken when its total is unknown; a timer
    shows the display even while a long stage reports nothing. ``advance(n)`` adds to the
    stage's count."""

    def __init__(self, description: str, *, after: float = 0.75) -> None:
        self.description = description
        self.after = after
        self.start = time.monotonic()
        self.enabled = not STATE.quiet and _stderr_is_terminal()
        self._lock = threading.Lock()
        self._stage: str | None = None
        self._done = 0
        self._total: int | None = None
        self._progress: Progress | None = None
        self._task: TaskID | None = None
        self._timer: threading.Timer | None = None
        self._closed = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        with self._lock:
            self._done, self._total = done, total or None
            if self._progress is None:
                if time.monotonic() - self.start < self.after or (total and done >= total):
                    return
                self._open()
            self._refresh()

    def stage(self, name: str, total: int | None = None) -> None:
        """Stage ``name`` begins; ``total`` is what it will count (None: unknown)."""
        if not self.enabled:
            return
        with self._lock:
            self._stage, self._done, self._total = name, 0, total
            if self._progress is None and time.monotonic() - self.start >= self.after:
                self._open()
            if self._progress is not None:
                self._refresh()

    def advance(self, n: int) -> None:
        """``n`` more of the stage's units done (bytes written, …)."""
        if self.enabled:
            with self._lock:
                self._done += n
                if self._progress is not None:
                    self._refresh()

    def _show(self) -> None:
        """The timer: show the display when the work is still running."""
        with self._lock:
            if self._progress is None and not self._closed:
                self._open()
                self._refresh()

    def _open(self) -> None:
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.fields[count]}"),
            TimeElapsedColumn(),
            console=_console(stderr=True),
            transient=True,
        )
        self._progress.start()
        self._task = self._progress.add_task(self.description, total=None, count="")

    def _refresh(self) -> None:
        assert self._progress is not None and self._task is not None
        unit = _STAGE_UNITS.get(self._stage or "scoring")
        title = f"{self.description} · {self._stage}" if self._stage else self.description
        self._progress.update(
            self._task,
            description=title,
            total=self._total if unit else None,
            completed=self._done,
            count=_count(self._done, self._total, unit),
        )

    def __enter__(self) -> LazyProgress:
        if self.enabled and self.after > 0:
            self._timer = threading.Timer(self.after, self._show)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
            if self._progress is not None:
                self._progress.stop()


def _count(done: int, total: int | None, unit: str | None) -> str:
    """ "1,234/5,000", "12.3/45.6 MB", or the done count alone when the total is unknown."""
    if unit is None:
        return ""
    if unit == "bytes":
        shown = f"{done / 1e6:,.1f}"
        return f"{shown}/{total / 1e6:,.1f} MB" if total else f"{shown} MB"
    return f"{done:,}/{total:,}" if total else f"{done:,}"


# --------------------------------------------------------------------------- results on stdout
#
# A command that writes its artifact to stdout (``-o -``, ``--format json``) claims stdout while
# click parses its options, before anything is printed: from then on :func:`out` is stderr, so
# stdout carries the artifact alone and a script can parse it.

STDOUT = "-"
Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def claims_stdout(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Click callback of an output option: ``-`` means stdout, so messages go to stderr."""
    if value is not None and str(value) == STDOUT:
        STATE.stdout_is_artifact = True
    return value


def output_option(*names: str, help: str = "write the JSON here ('-': stdout)") -> Decorator:
    """The ``--output/-o PATH`` option of a command that writes an artifact."""
    return click.option(
        *(names or ("--output", "-o")),
        "output",
        type=click.Path(path_type=Path),
        callback=claims_stdout,
        help=help,
    )


def claims_format(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """Click callback of ``--format``: any format but ``text`` is written alone on stdout."""
    if value is not None and value != "text":
        STATE.stdout_is_artifact = True
    return value


def family_options() -> list[Decorator]:
    """``--family headline|all`` and ``--correction holm|bh|none``: which tests a comparison
    adjusts together, and how (``assay.stats.family``)."""
    return [
        click.option(
            "--family",
            type=click.Choice(["headline", "all"]),
            default="headline",
            show_default=True,
            help="the tests adjusted together: the headline and core metrics, or every metric "
            "and per-class row",
        ),
        click.option(
            "--correction",
            type=click.Choice(["holm", "bh", "none"]),
            default="holm",
            show_default=True,
            help="holm: family-wise error rate; bh: false discovery rate; none: raw p-values",
        ),
    ]


def with_family_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with `family_options`."""
    for option in reversed(family_options()):
        fn = option(fn)
    return fn


def format_option(*choices: str) -> Decorator:
    """``--format``: ``text`` (for people, the default) or a machine format alone on stdout."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(["text", *choices]),
        default="text",
        show_default=True,
        callback=claims_format,
        help="text for people; " + ", ".join(choices) + ": the result alone on stdout",
    )


def write_output(path: Path | str, text: str | Iterable[str], what: str) -> None:
    """Write ``text`` (or its pieces) to ``path`` whole or not at all (``_io.atomic``), or to
    stdout for ``-``; say where, on the messages console, when it went to a file (or that
    another process replaced the file right after: the last writer wins)."""
    from assay._io.atomic import write_atomic

    pieces = [text] if isinstance(text, str) else text
    if str(path) == STDOUT:
        shown = sys.stdout.isatty()  # read by a person: control characters escaped
        for piece in pieces:
            sys.stdout.write(printable(piece) if shown else piece)
        sys.stdout.flush()
        return
    written = write_atomic(Path(path), (piece.encode("utf-8") for piece in pieces))
    if written.is_ours():
        say(f"{what} written to {written.path}")
    else:
        warn(f"warning: {what} written to {written.path}, then replaced by another process's")
