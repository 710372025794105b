"""``assay report``: one self-contained HTML file (and/or markdown) for one or more runs."""

from __future__ import annotations

from pathlib import Path

import click

from assay._cli.resolve import load_run_refs, store_option
from assay._cli.state import claims_stdout, write_output


@click.command("report")
@click.argument("runs", nargs=-1, required=True)
@click.option(
    "--html",
    "html_path",
    type=click.Path(path_type=Path),
    callback=claims_stdout,
    help="write HTML here; '-' for stdout",
)
@click.option(
    "--markdown",
    "md_path",
    type=click.Path(path_type=Path),
    callback=claims_stdout,
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
    items, and for several runs the comparison with Δ, its CI and significance markers.

    The first run is the candidate, the second its baseline (Δ = candidate − baseline). The
    HTML holds an item table per run and per pair (at most 10,000 rows each, the worst or the
    most moved first) to filter, sort and search in the browser.
    """
    from assay._report.html import render_markdown, render_report

    if html_path is None and md_path is None:
        raise click.UsageError("give --html FILE and/or --markdown FILE")
    loaded = load_run_refs(runs, store)
    from assay._compare.comparison import compare

    comparison = compare(*loaded, significance=True) if len(loaded) > 1 else None
    if html_path is not None:
        html = render_report(loaded, comparison=comparison, max_items=max_items)
        write_output(html_path, html, "HTML report")
    if md_path is not None:
        write_output(md_path, render_markdown(loaded, comparison=comparison), "markdown report")
