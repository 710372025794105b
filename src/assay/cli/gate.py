"""``assay gate``: exit 1 when a selected metric of a run is below the threshold."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from assay.cli.resolve import load_run_ref, store_option
from assay.cli.state import format_option, out, write_output
from assay.compare.gate import gate
from assay.report.console import print_gate


@click.command("gate")
@click.argument("run")
@click.option("--threshold", type=float, required=True, help="the bar X")
@click.option("--metrics", help="comma-separated metric names (default: the tier's metrics)")
@click.option(
    "--tier",
    type=click.Choice(["headline", "core", "diagnostic"]),
    help="gate every metric of this tier (default headline)",
)
@format_option("json")
@store_option
def gate_command(
    run: str,
    threshold: float,
    metrics: str | None,
    tier: str | None,
    store: str | None,
    fmt: str = "text",
) -> None:
    """Fail (exit 1) when a selected metric of RUN is below X (above X if lower is better).

    RUN is a run artifact file or the id of a stored run.
    """
    names = [m.strip() for m in metrics.split(",") if m.strip()] if metrics else None
    result = gate(load_run_ref(run, store), threshold, metrics=names, tier=tier)
    if fmt == "json":
        write_output(
            "-", json.dumps(asdict(result) | {"passed": result.passed}, indent=2) + "\n", ""
        )
    print_gate(out(), result)
    if not result.passed:
        out().print(f"gate failed: {', '.join(c.name for c in result.failures)}")
        raise click.exceptions.Exit(1)
    out().print("gate passed")
