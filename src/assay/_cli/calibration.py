"""``assay judge-calibration``: agreement of judge verdicts with the deterministic score."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click
from rich.table import Table

from assay._analytics.calibration import Rate, calibration_path, judge_calibration, read_judgments
from assay._analytics.output import write_json
from assay._cli._analytics_common import analytics_settings, config_option
from assay._cli.resolve import load_run_ref, store_option
from assay._cli.state import err, out
from assay._report.console import print_warnings


def _rate(r: Rate) -> tuple[str, str, str]:
    value = "—" if r.value is None else f"{r.value:.3f}"
    ci = (
        "—" if r.ci_lower is None or r.ci_upper is None else f"[{r.ci_lower:.3f}, {r.ci_upper:.3f}]"
    )
    return value, ci, f"{r.k}/{r.n}"


@click.command("judge-calibration")
@click.argument("judgments", type=click.Path(path_type=Path))
@click.option("--run", "run_ref", help="the run judged (file or stored id); output goes beside it")
@click.option("--strong", type=float, help="deterministic strong at or above (default 0.85)")
@click.option("--weak", type=float, help="deterministic weak at or below (default 0.5)")
@click.option("--output", "-o", type=click.Path(path_type=Path), help="write JSON here")
@config_option
@store_option
def judge_calibration_command(
    judgments: Path,
    run_ref: str | None,
    strong: float | None,
    weak: float | None,
    output: Path | None,
    config: Path | None,
    store: str | None,
) -> None:
    """Agreement of judge verdicts with the deterministic score (seed 000 §11).

    JUDGMENTS is a JSONL of {row, field, score, verdict}; prints n_judged, n_scored,
    agree_rate, judge_strict and judge_lenient, and with --run writes them beside the run as
    <run>.judge_calibration.json.
    """
    settings = analytics_settings(config)
    run = load_run_ref(run_ref, store) if run_ref else None
    cal = judge_calibration(
        read_judgments(judgments),
        strong=settings.judge_strong if strong is None else strong,
        weak=settings.judge_weak if weak is None else weak,
        run_ids=[i.id for i in run.items] if run else None,
    )
    if run is not None:
        cal = replace(cal, run_id=run.run_id, run_name=run.name, source=str(judgments))
    table = Table(
        title=f"judge calibration · {cal.n_judged} judged, {cal.n_scored} scored "
        f"(strong ≥ {cal.strong:g}, weak ≤ {cal.weak:g})",
        title_justify="left",
    )
    for col in ("", "rate", "95% CI", "k/n"):
        table.add_column(col, justify="left" if not col else "right")
    for name, r in (
        ("agree_rate", cal.agree_rate),
        ("judge_strict", cal.judge_strict),
        ("judge_lenient", cal.judge_lenient),
    ):
        table.add_row(name, *_rate(r))
    console = out()
    console.print(table)
    console.print(f"lean: {cal.lean}")
    print_warnings(err(), cal.warnings)
    target = output
    if target is None and run_ref and Path(run_ref).is_file():
        target = calibration_path(run_ref)
    if target is not None:
        write_json(target, cal.to_json())
        console.print(f"calibration written to {target}")
