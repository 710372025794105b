"""``assay gate``: exit 1 when a selected metric of a run is below the threshold."""

from __future__ import annotations

from pathlib import Path

import click

from assay.cli.state import out
from assay.compare.gate import gate
from assay.core.run import Run
from assay.report.console import print_gate


@click.command("gate")
@click.argument("run", type=click.Path(path_type=Path))
@click.option("--threshold", type=float, required=True, help="the bar X")
@click.option("--metrics", help="comma-separated metric names (default: the tier's metrics)")
@click.option(
    "--tier",
    type=click.Choice(["headline", "core", "diagnostic"]),
    help="gate every metric of this tier (default headline)",
)
def gate_command(run: Path, threshold: float, metrics: str | None, tier: str | None) -> None:
    """Fail (exit 1) when a selected metric of RUN is below X (above X if lower is better)."""
    names = [m.strip() for m in metrics.split(",") if m.strip()] if metrics else None
    result = gate(Run.load(run), threshold, metrics=names, tier=tier)
    print_gate(out(), result)
    if not result.passed:
        out().print(f"gate failed: {', '.join(c.name for c in result.failures)}")
        raise click.exceptions.Exit(1)
    out().print("gate passed")
