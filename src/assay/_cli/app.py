"""The ``assay`` command: one table of commands, each imported only when it runs.

Adding a command is one line in :data:`COMMANDS` below: its name, where its click command (or a
function building it) lives, and the one-line help ``assay --help`` prints without importing
it. A suite's command group (``assay mt``, ``assay legal`` …) is a line here too; a third-party
package adds a command under the ``assay.commands`` entry-point group (``name =
"package.module:command"``), or, as before, through its task's ``Task.cli_group()`` (found only
when no table names the command, so it costs nothing to the others).

So ``assay --help``, ``assay --version``, shell completion and ``assay <cmd> --help`` import
neither a suite nor scipy, SQLAlchemy or httpx (tests/cli/test_app.py checks the import graph;
benchmarks/bench_startup.py measures it against sacrebleu's start-up).

Exit codes (:func:`main`): 0 success; 1 a gate, threshold or regression check failed; 2 a usage
or input error (one line naming what is wrong); 3 an internal error, i.e. a bug (one line, the
traceback with ``--debug``); 4 a run scored and kept in which more than half of the items were
not scored (``EXIT_UNUSABLE``: the warning after the scorecard says why; accepted with
``--allow-unusable-predictions``); 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import MutableMapping, Sequence
from typing import IO, Any, cast

import click

from assay._cli.lazy import LazyCommand, LazyGroup
from assay._cli.state import STATE, SUITE_CLI_ERRORS, printable
from assay._version import __version__

#: every built-in command: name → where it lives and its one-line help (the first sentence of
#: its docstring; tests/cli/test_app.py checks they agree)
COMMANDS: dict[str, LazyCommand] = {
    "score": LazyCommand(
        "assay._cli.score:score_group",
        "Score predictions against gold with a registered suite (see `assay tasks`).",
    ),
    "compare": LazyCommand(
        "assay._cli.compare:compare_command",
        "Every metric shared by the RUNS side by side: the candidate first, then its baseline.",
    ),
    "significance": LazyCommand(
        "assay._cli.compare:significance_command",
        "Paired significance tests between RUNS (the same as compare --significance).",
    ),
    "gate": LazyCommand(
        "assay._cli.gate:gate_command",
        "Fail (exit 1) when RUN is below X, worse than BASELINE, or failed more items.",
    ),
    "demo": LazyCommand(
        "assay._cli.demo:demo_command",
        "Score two classification runs on synthetic gold and compare them with significance.",
    ),
    "tasks": LazyCommand(
        "assay._cli.tasks:tasks_command",
        "List the task suites registered under the assay.tasks entry-point group.",
    ),
    "report": LazyCommand(
        "assay._cli.report:report_command",
        "Report RUNS (artifact files or stored run ids): scorecards with CIs, breakdowns, "
        "cohort, items, and for several runs the comparison with Δ, its CI and significance "
        "markers.",
    ),
    "runs": LazyCommand(
        "assay._cli.runs:runs_group",
        "The run store: every `assay score` records its run there unless --no-store.",
    ),
    "serve": LazyCommand(
        "assay._cli.serve:serve_command",
        "Serve the dashboard (runs list, run pages, compare view, history) until Ctrl-C.",
    ),
    "ab": LazyCommand(
        "assay._cli.ab:ab_command",
        "A/B of CANDIDATE against --baseline RUN on one surface: verdict and metric table.",
    ),
    "noise-floor": LazyCommand(
        "assay._cli.noise:noise_floor_command",
        "Measure and record the rerun noise band of one configuration on one surface.",
    ),
    "judge-calibration": LazyCommand(
        "assay._cli.calibration:judge_calibration_command",
        "Agreement of judge verdicts with the deterministic score (seed 000 §11).",
    ),
    "cost": LazyCommand(
        "assay._cli.cost:cost_command",
        "Tokens and USD per row, per stage and in total, from usage records.",
    ),
    "power": LazyCommand(
        "assay._cli.power:power_command",
        "How many items (or clusters) a difference Δ needs at the power asked, and the smallest "
        "difference the pilot could detect now.",
    ),
    "montecarlo": LazyCommand(
        "assay._cli.montecarlo:montecarlo_command",
        "Monte Carlo robustness over label samples: JSON and a markdown memo.",
    ),
    # the suites' command groups
    "mt": LazyCommand(
        "assay._cli.mt:mt_group",
        "Machine translation (seed 001): test reports, comparisons, sacrebleu-style tests.",
    ),
    "biblio": LazyCommand(
        "assay._cli.biblio:biblio_group",
        "Scholarly-paper metadata (seed 002): evaluate, GROBID runs, TEI and JATS conversion.",
    ),
    "claims": LazyCommand(
        "assay._cli.claims:claims_group",
        "Claim-extraction round trip (seed 003): evaluate extracted claims, diff scorecards.",
    ),
    "extraction": LazyCommand(
        "assay._cli.extraction:extraction_group",
        "Structured-extraction tools (seed 000 §16 miss attribution).",
    ),
    "legal": LazyCommand(
        "assay._cli.legal:legal_group",
        "Legal benchmarks: ContractEval (arXiv 2508.03080).",
    ),
}

#: the entry-point group third-party packages add commands under
COMMAND_GROUP = "assay.commands"

_plugin_commands: dict[str, LazyCommand] | None = None


def all_commands() -> dict[str, LazyCommand]:
    """The table, and the commands of the ``assay.commands`` entry-point group (metadata read
    once; a plugin's help line is its target until it is loaded)."""
    global _plugin_commands
    if _plugin_commands is None:
        from importlib.metadata import entry_points

        _plugin_commands = {
            ep.name: LazyCommand(ep.value, f"(plugin command from {ep.value})")
            for ep in entry_points(group=COMMAND_GROUP)
            if ep.name not in COMMANDS
        }
    return {**COMMANDS, **_plugin_commands}


class AssayGroup(LazyGroup):
    """The top-level group; a name in no table may still be a third-party suite's
    ``Task.cli_group()`` (every suite is imported to look, on that path only)."""

    def lookup(self, cmd_name: str) -> LazyCommand | None:
        """A built-in command without reading any distribution's metadata."""
        return COMMANDS.get(cmd_name) or all_commands().get(cmd_name)

    def missing_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from assay._engine.registry import available_tasks

        for name, task in available_tasks().items():
            try:
                group = task.cli_group()
            except Exception as exc:  # one broken suite must not take every command down
                SUITE_CLI_ERRORS[name] = f"{type(exc).__name__}: {exc}"
                continue
            if isinstance(group, click.Command) and group.name == cmd_name:
                self.commands[cmd_name] = group
                return group
        return None


@click.group(
    name="assay",
    cls=AssayGroup,
    lazy=all_commands,
    context_settings={
        "help_option_names": ["-h", "--help"],
        "max_content_width": 100,
        "terminal_width": 100,
    },
)
@click.option("--quiet", "-q", is_flag=True, help="print nothing but errors")
@click.option("--debug", is_flag=True, help="show tracebacks on errors")
@click.version_option(__version__, prog_name="assay")
def cli(quiet: bool, debug: bool) -> None:
    """Score saved AI outputs against gold, with confidence intervals and paired tests."""
    STATE.quiet = STATE.quiet or quiet
    STATE.debug = STATE.debug or debug


def build_cli() -> click.Group:
    """The ``assay`` group (its commands load by name when used)."""
    return cli


def _pop_global_flags(args: list[str]) -> list[str]:
    """--quiet/--debug are accepted anywhere on the line, not only before the command."""
    kept = []
    for arg in args:
        if arg in ("--quiet", "-q"):
            STATE.quiet = True
        elif arg == "--debug":
            STATE.debug = True
        else:
            kept.append(arg)
    return kept


#: exit codes (README "Exit codes"; ``EXIT_UNUSABLE``, 4, is ``_cli.state``'s)
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_BUG, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return its exit code (see the module docstring)."""
    STATE.quiet = STATE.debug = False
    STATE.stdout_is_artifact = False
    STATE.exit_code = EXIT_OK
    args = _pop_global_flags(list(sys.argv[1:] if argv is None else argv))
    try:
        result = cli.main(args=args, prog_name="assay", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show(file=cast("IO[Any]", _Printable(sys.stderr)))  # typed values shown as typed
        return EXIT_USAGE
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("interrupted", err=True)
        return EXIT_INTERRUPTED
    except Exception as exc:
        from assay.errors import AssayError

        if STATE.debug:
            import traceback  # (and linecache, tokenize) only to print one

            traceback.print_exc()
        if isinstance(exc, AssayError | OSError):  # bad input, a missing or unreadable file
            click.echo(printable(f"error: {exc}"), err=True)
            return EXIT_USAGE
        click.echo(
            printable(
                f"internal error (a bug in assay {__version__}, please report it): "
                f"{type(exc).__name__}: {exc}" + ("" if STATE.debug else " (traceback: --debug)")
            ),
            err=True,
        )
        return EXIT_BUG
    return int(result) if isinstance(result, int) else STATE.exit_code


class _Printable:
    """A text stream writing to ``stream`` with control characters escaped (``printable``)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return int(self._stream.write(printable(text)))

    def flush(self) -> None:
        self._stream.flush()


#: the thread-count variables of the BLAS / OpenMP libraries numpy may load (OpenBLAS, MKL, and
#: the OpenMP runtime they fall back on)
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def pin_threads(environ: MutableMapping[str, str]) -> bool:
    """Set every ``THREAD_VARIABLES`` entry to 1 unless the user set any of them; True when
    pinned.

    assay's products are tall and thin (N × K with K ≲ 100, chunks of 20-odd resamples): a second
    BLAS thread only spins, e.g. ~2 s of extra CPU on a 10⁵-item classification run on 2 cores.
    Resampling is split over processes (``--jobs``) instead, which inherit the setting. Any one
    of the variables set by the user means they chose: none is touched then. The libraries read
    the variables when they load, so this runs before numpy is imported (``entry``).
    """
    if any(name in environ for name in THREAD_VARIABLES):
        return False
    for name in THREAD_VARIABLES:
        environ[name] = "1"
    return True


def entry() -> None:
    """The console script (and ``python -m assay``): BLAS threads pinned, then ``main``; what
    is left then is frozen (``gc.freeze``), so the interpreter's collections at exit walk none
    of it (~0.1 of 2.2 CPU seconds of a 10³-document extraction run: numpy's, pydantic's and
    every suite module's objects); the process ends right after."""
    pin_threads(os.environ)
    code = main()
    gc.freeze()
    sys.exit(code)
