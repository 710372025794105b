"""The helpers a suite's own command group uses (``Task.cli_group()``: ``assay mt ...``).

A plugin suite with a workflow of its own builds a ``click.Group`` and gives its commands the
shared scoring, storing, comparing and printing from here, never from ``assay._cli``::

    import click
    from assay.commands import common_options, score_and_report

    @click.group("mine")
    def group() -> None: ...

    cmd = click.Command("score", callback=lambda **kw: score_and_report(task, **kw),
                        params=common_options())
    group.add_command(cmd)

Loaded only when the command line builds a suite's group (the names load on first use).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay._cli.compare import run_compare
    from assay._cli.score import common_options, score_and_report, store_run
    from assay._cli.state import (
        POSITIVE,
        RESAMPLES,
        SEED,
        format_option,
        output_option,
        say,
        warn,
        write_output,
    )

lazy_exports(
    __name__,
    {
        "run_compare": "assay._cli.compare",
        "common_options": "assay._cli.score",
        "score_and_report": "assay._cli.score",
        "store_run": "assay._cli.score",
        "POSITIVE": "assay._cli.state",
        "RESAMPLES": "assay._cli.state",
        "SEED": "assay._cli.state",
        "format_option": "assay._cli.state",
        "output_option": "assay._cli.state",
        "say": "assay._cli.state",
        "warn": "assay._cli.state",
        "write_output": "assay._cli.state",
    },
)

__all__ = [
    "POSITIVE",
    "RESAMPLES",
    "SEED",
    "common_options",
    "format_option",
    "output_option",
    "run_compare",
    "say",
    "score_and_report",
    "store_run",
    "warn",
    "write_output",
]
