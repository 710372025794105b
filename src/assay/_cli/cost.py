"""``assay cost``: tokens and USD per row, per stage and in total, from usage records."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from assay._analytics.cost import cost_report, read_usage
from assay._analytics.output import write_json
from assay._cli._analytics_common import analytics_settings, config_option
from assay._cli.resolve import load_run_ref, store_option
from assay._cli.state import err, out
from assay._report.console import print_warnings


def _usd(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.6f}"


@click.command("cost")
@click.argument("usage", type=click.Path(path_type=Path))
@click.option("--model", help="model of records that name none (prices resolve by prefix)")
@click.option("--run", "run_ref", help="the run the usage belongs to; output goes beside it")
@click.option("--output", "-o", type=click.Path(path_type=Path), help="write JSON here")
@config_option
@store_option
def cost_command(
    usage: Path,
    model: str | None,
    run_ref: str | None,
    output: Path | None,
    config: Path | None,
    store: str | None,
) -> None:
    """Tokens and USD per row, per stage and in total, from usage records.

    USAGE is a JSONL of {row, model, stage, prompt_tokens, completion_tokens, cost, replayed};
    every record gets cost_estimated_usd from the analytics.prices table (None when no price
    resolves). With --run, the result is written beside the run as <run>.cost.json.
    """
    settings = analytics_settings(config)
    run = load_run_ref(run_ref, store) if run_ref else None
    report = cost_report(
        read_usage(usage),
        settings.prices,
        model=model,
        run_ids=[i.id for i in run.items] if run else None,
    )
    table = Table(title=f"cost · {usage}", title_justify="left")
    for col in (
        "stage",
        "rows",
        "with usage",
        "replayed",
        "prompt tok",
        "completion tok",
        "total tok",
        "USD/row",
        "USD total",
        "source",
    ):
        table.add_column(col, justify="left" if col in ("stage", "source") else "right")
    for s in [*report.stages, report.total]:
        table.add_row(
            s.stage,
            str(s.rows),
            str(s.rows_with_usage),
            str(s.rows_replayed),
            str(s.prompt_tokens),
            str(s.completion_tokens),
            str(s.total_tokens),
            _usd(s.cost_usd),
            _usd(s.cost_total_usd),
            s.cost_source or "—",
        )
    console = out()
    console.print(table)
    print_warnings(err(), report.warnings)
    target = output
    if target is None and run_ref and Path(run_ref).is_file():
        target = Path(run_ref).with_name(f"{Path(run_ref).stem}.cost.json")
    if target is not None:
        data = report.to_json()
        if run is not None:
            data = {"run_id": run.run_id, "run_name": run.name, **data}
        write_json(target, data)
        console.print(f"cost written to {target}")
