"""The ``assay`` command: assembles the shared commands and each suite's ``score`` command."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence

import click

from assay._version import __version__
from assay.cli.analytics import ANALYTICS_COMMANDS
from assay.cli.compare import compare_command, significance_command
from assay.cli.demo import demo_command
from assay.cli.gate import gate_command
from assay.cli.report import report_command
from assay.cli.runs import runs_group
from assay.cli.score import score_group
from assay.cli.serve import serve_command
from assay.cli.state import STATE
from assay.cli.tasks import tasks_command
from assay.core.registry import available_tasks
from assay.errors import AssayError


@click.group(
    name="assay",
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


for command in (compare_command, significance_command, gate_command, demo_command, tasks_command):
    cli.add_command(command)
for command in (report_command, runs_group, serve_command):
    cli.add_command(command)
for command in ANALYTICS_COMMANDS:
    cli.add_command(command)


#: suites whose command group failed to build: name → reason (shown by `assay tasks`)
SUITE_CLI_ERRORS: dict[str, str] = {}


def build_cli() -> click.Group:
    """The ``assay`` group with the ``score`` group built from the registered suites."""
    if "score" not in cli.commands:
        cli.add_command(score_group())
        for name, task in available_tasks().items():
            try:
                group = task.cli_group()
            except Exception as exc:  # one broken suite must not take every command down
                SUITE_CLI_ERRORS[name] = f"{type(exc).__name__}: {exc}"
                continue
            if isinstance(group, click.Command) and group.name not in cli.commands:
                cli.add_command(group)
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; errors print as one line with exit code 2 (tracebacks with --debug)."""
    STATE.quiet = STATE.debug = False
    args = _pop_global_flags(list(sys.argv[1:] if argv is None else argv))
    group = build_cli()
    try:
        result = group.main(args=args, prog_name="assay", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        return 2
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 1
    except AssayError as exc:
        if STATE.debug:
            traceback.print_exc()
        click.echo(f"error: {exc}", err=True)
        return 2
    except Exception as exc:
        if STATE.debug:
            traceback.print_exc()
        else:
            click.echo(f"error: {type(exc).__name__}: {exc} (rerun with --debug)", err=True)
        return 2
    return int(result) if isinstance(result, int) else 0


def entry() -> None:
    sys.exit(main())
