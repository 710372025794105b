"""``assay report``: one self-contained HTML file (and/or markdown) for one or more runs."""

from __future__ import annotations

from pathlib import Path

import click

from assay.cli.resolve import load_run_refs, store_option
from assay.cli.state import out


@click.command("report")
@click.argument("runs", nargs=-1, required=True)
@click.option("--html", "html_path", type=click.Path(path_type=Path), help="write HTML here")
@click.option(
    "--markdown",
    "md_path",
    type=click.Path(path_type=Path),
    help="write markdown (for a pull-request comment) here; '-' for stdout",
)
@click.option(
    "--max-items",
    type=click.IntRange(min=0),
    default=500,
    show_default=True,
    help="items in the drill-down (worst first)",
)
@store_option
def report_command(
    runs: tuple[str, ...],
    html_path: Path | None,
    md_path: Path | None,
    max_items: int,
    store: str | None,
) -> None:
    """Report RUNS (artifact files or stored run ids): scorecards with CIs, breakdowns, cohort,
    items, and for several runs the comparison with Δ, its CI and significance markers."""
    from assay.report.html import render_markdown, render_report

    if html_path is None and md_path is None:
        raise click.UsageError("give --html FILE and/or --markdown FILE")
    loaded = load_run_refs(runs, store)
    from assay.compare.comparison import compare

    comparison = compare(*loaded, significance=True) if len(loaded) > 1 else None
    if html_path is not None:
        html_path.parent.mkdir(parents=True, exist_ok=True)
        html_path.write_text(
            render_report(loaded, comparison=comparison, max_items=max_items), encoding="utf-8"
        )
        out().print(f"HTML report written to {html_path}")
    if md_path is not None:
        text = render_markdown(loaded, comparison=comparison)
        if str(md_path) == "-":
            click.echo(text, nl=False)
        else:
            md_path.parent.mkdir(parents=True, exist_ok=True)
            md_path.write_text(text, encoding="utf-8")
            out().print(f"markdown report written to {md_path}")
