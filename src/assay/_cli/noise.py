"""``assay noise-floor``: the rerun noise band of one configuration on one surface, recorded
so that ``assay ab`` reports a delta inside it as noise."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from assay._analytics.noise import measure_noise_floor, save_noise_floor
from assay._analytics.output import write_json
from assay._cli._analytics_common import analytics_settings, config_option
from assay._cli.resolve import load_run_refs, store_option
from assay._cli.state import SEED, err, out
from assay._report.console import print_warnings
from assay._settings import get_settings


@click.command("noise-floor")
@click.argument("runs", nargs=-1, required=True)
@click.option("--metric", help="headline metric (default: the runs' first headline)")
@click.option("--level", type=float, help="coverage of the swap band (default 0.95)")
@click.option("--trials", type=click.IntRange(min=100), help="swap trials per pair (2000)")
@click.option("--seed", type=SEED, help="randomization seed (default 12345)")
@click.option("--noise-dir", type=click.Path(path_type=Path), help="where floors are recorded")
@click.option("--no-save", is_flag=True, help="measure only; do not record the floor")
@click.option("--output", "-o", type=click.Path(path_type=Path), help="also write JSON here")
@config_option
@store_option
def noise_floor_command(
    runs: tuple[str, ...],
    metric: str | None,
    level: float | None,
    trials: int | None,
    seed: int | None,
    noise_dir: Path | None,
    no_save: bool,
    output: Path | None,
    config: Path | None,
    store: str | None,
) -> None:
    """Measure and record the rerun noise band of one configuration on one surface.

    RUNS are two or more reruns (files or stored ids).

    band = max(observed max |Δ| between reruns, LEVEL-quantile of |Δ| when items swap between
    reruns at random); recorded under NOISE_DIR/<surface fingerprint>.json.
    """
    settings = analytics_settings(config)
    if len(runs) < 2:
        raise click.UsageError("give at least two reruns")
    floor = measure_noise_floor(
        load_run_refs(runs, store),
        metric=metric,
        level=settings.noise_level if level is None else level,
        n_trials=settings.noise_trials if trials is None else trials,
        seed=get_settings().stats.seed if seed is None else seed,
    )
    table = Table(
        title=f"noise floor · {floor.task} · surface {floor.fingerprint[:12]} · "
        f"{len(floor.runs)} reruns × {floor.n_items} items",
        title_justify="left",
    )
    for col in ("metric", "band ±", "observed max |Δ|", f"q{floor.level:g} |swap Δ|", "values"):
        table.add_column(col, justify="left" if col in ("metric", "values") else "right")
    for f in floor.floors.values():
        name = Text(f.metric, style="bold" if f.metric == floor.headline else "")
        table.add_row(
            name,
            f"{f.band:.4f}",
            f"{f.observed_max_abs_delta:.4f}",
            f"{f.swap_quantile:.4f}",
            ", ".join(f"{v:.4f}" for v in f.values),
        )
    console = out()
    console.print(table)
    print_warnings(err(), floor.warnings)
    if not no_save:
        path = save_noise_floor(floor, noise_dir or settings.noise_dir)
        console.print(f"noise floor recorded in {path}")
    if output:
        write_json(output, floor.to_json())
        console.print(f"noise floor written to {output}")
