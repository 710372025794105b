"""``assay tasks``: the registered suites."""

from __future__ import annotations

import click
from rich.table import Table

from assay._cli.state import SUITE_CLI_ERRORS, err, out
from assay._engine.registry import available_tasks, plugin_errors


@click.command("tasks")
def tasks_command() -> None:
    """List the task suites registered under the assay.tasks entry-point group."""
    table = Table(title="registered task suites", title_justify="left")
    table.add_column("task")
    table.add_column("metrics version", justify="right")
    table.add_column("description")
    for name, task in available_tasks().items():
        table.add_row(name, str(task.metrics_version), task.description)
    out().print(table)
    for name, problem in plugin_errors().items():
        err().print(f"warning: plugin {name!r} failed to load: {problem}", style="yellow")
    for name, problem in SUITE_CLI_ERRORS.items():
        err().print(f"warning: commands of suite {name!r} unavailable: {problem}", style="yellow")
