"""``assay power``: how many items (or clusters) a difference Δ needs, from a pilot or a rate."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import click

from assay._cli.resolve import store_option


def _finite_delta(
    ctx: click.Context, param: click.Parameter, value: tuple[float, ...]
) -> tuple[float, ...]:
    for d in value:
        if not math.isfinite(d) or d == 0:
            raise click.BadParameter(f"must be a non-zero finite number, not {d}")
    return value


@click.command("power")
@click.argument("pilot", nargs=-1)
@click.option(
    "--delta",
    "deltas",
    type=float,
    multiple=True,
    callback=_finite_delta,
    help="the difference to detect, in the metric's units (repeatable)",
)
@click.option(
    "--power",
    "power",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.8,
    show_default=True,
    help="the chance of detecting Δ",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="two-sided significance level",
)
@click.option(
    "--metric",
    "metrics",
    multiple=True,
    help="metric of the pilot (repeatable; default: its headline metrics)",
)
@click.option(
    "--clusters",
    type=click.Path(path_type=Path),
    help="id → cluster map (JSON, TSV/CSV, WMT docids): the pilot's units",
)
@click.option(
    "--rate",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    help="no pilot: the accuracy (a proportion) both systems are near",
)
@click.option(
    "--deff",
    "design_effect",
    type=click.FloatRange(min=1),
    default=1.0,
    show_default=True,
    help="with --rate: the design effect of the clusters",
)
@click.option(
    "--correlation",
    type=click.FloatRange(-1, 1, min_open=True, max_open=True),
    default=0.0,
    show_default=True,
    help="per-unit correlation of the two systems (with --rate, or one pilot run)",
)
@click.option(
    "--n-bootstrap",
    type=click.IntRange(min=100),
    default=1000,
    show_default=True,
    help="bootstrap resamples of a run pilot",
)
@click.option("--seed", type=int, default=12345, show_default=True, help="resampling seed")
@click.option("--json", "as_json", is_flag=True, help="print the answers as JSON")
@store_option
def power_command(
    pilot: tuple[str, ...],
    deltas: tuple[float, ...],
    power: float,
    alpha: float,
    metrics: tuple[str, ...],
    clusters: Path | None,
    rate: float | None,
    design_effect: float,
    correlation: float,
    n_bootstrap: int,
    seed: int,
    as_json: bool,
    store: str | None,
) -> None:
    """How many items (or clusters) a difference Δ needs at the power asked, and the smallest
    difference the pilot could detect now.

    PILOT is one run (artifact file or stored id), two runs (candidate and baseline: their
    paired SE of Δ), or a comparison artifact (`assay compare -o`). Without a pilot, --rate P
    (with --deff D and --correlation R) gives n = D · z² · 2P(1 − P)(1 − R) / Δ² items,
    z = z_{1−α/2} + z_{power}. From a pilot with SE(Δ) over n₀ units: n = n₀ · (z · SE / Δ)²,
    and the minimum detectable effect now is z · SE (≈ 2.8 · SE at α 0.05, power 0.8).
    """
    from assay.stats.power import minimum_detectable_effect, units_from_pilot, units_from_rate

    if rate is not None:
        if pilot:
            raise click.UsageError("give a PILOT or --rate, not both")
        if not deltas:
            raise click.UsageError("--rate needs at least one --delta")
        rows = [
            _row(
                f"rate {rate:g}",
                units_from_rate(
                    d,
                    rate=rate,
                    design_effect=design_effect,
                    correlation=correlation,
                    alpha=alpha,
                    power=power,
                ),
            )
            for d in deltas
        ]
        basis = rows[0]["basis"]
    else:
        pilots = _pilots(pilot, metrics, clusters, correlation, n_bootstrap, seed, store)
        basis = pilots[0].basis
        rows = []
        for p in pilots:
            if not deltas:
                mde = minimum_detectable_effect(p.se, alpha=alpha, power=power)
                rows.append(_pilot_row(p, None, None, mde))
            for d in deltas:
                a = units_from_pilot(
                    d, se=p.se, n_units=p.n_units, unit=p.unit, alpha=alpha, power=power
                )
                rows.append(_pilot_row(p, d, a.units_needed, a.mde_now))
    if as_json:
        click.echo(json.dumps({"alpha": alpha, "power": power, "rows": rows}, indent=2))
        return
    _print(rows, basis, alpha, power)


def _pilots(
    refs: tuple[str, ...],
    metrics: tuple[str, ...],
    clusters: Path | None,
    correlation: float,
    n_bootstrap: int,
    seed: int,
    store: str | None,
) -> list[Any]:
    """The pilot's SE(Δ) per metric (``assay._compare.power``)."""
    from assay._cli.resolve import load_run_ref
    from assay._compare import power as pilot_power

    if not refs:
        raise click.UsageError("give a PILOT (one or two runs, or a comparison) or --rate")
    if len(refs) > 2:
        raise click.UsageError("give one run, two runs (candidate, baseline) or one comparison")
    comparison = _comparison_json(refs[0]) if len(refs) == 1 else None
    if comparison is not None:
        if clusters is not None:
            raise click.UsageError("a comparison records its units: --clusters is for runs")
        return pilot_power.pilot_from_comparison(comparison, metrics=metrics, source=refs[0])
    runs = [load_run_ref(r, store) for r in refs]
    labels = _mapping_for(clusters, runs) if clusters is not None else None
    if len(runs) == 1:
        return pilot_power.pilot_from_run(
            runs[0],
            metrics=metrics,
            cluster_labels=labels,
            correlation=correlation,
            n_resamples=n_bootstrap,
            seed=seed,
        )
    return pilot_power.pilot_from_pair(
        runs[0], runs[1], metrics=metrics, cluster_labels=labels, n_resamples=n_bootstrap, seed=seed
    )


def _mapping_for(path: Path, runs: list[Any]) -> dict[str, str]:
    """id → cluster for every item of the runs (``ClusterMap.labels_for``: one id the map
    misses is an error naming the file)."""
    from assay._io.clusters import read_cluster_map

    cluster_map = read_cluster_map(path)
    ids = list(dict.fromkeys(i for run in runs for i in run.stats["ids"]))
    return dict(zip(ids, cluster_map.labels_for(ids), strict=True))


def _comparison_json(ref: str) -> dict[str, Any] | None:
    """The comparison artifact in file ``ref``; None for a run artifact or a store id."""
    from assay._engine.run import looks_like_run
    from assay._io.strict import loads

    path = Path(ref)
    if not path.is_file():
        return None
    with path.open("rb") as fh:
        head = fh.read(256)
    if looks_like_run(head):
        return None
    from assay._io.idlists import read_whole_text

    _, text = read_whole_text(path)
    data = loads(text)
    if not isinstance(data, dict) or not ("significance" in data or "pairs" in data):
        from assay.errors import InputError

        raise InputError(f"{ref}: neither a run artifact nor a comparison artifact")
    return data


def _row(metric: str, answer: Any) -> dict[str, Any]:
    return {
        "metric": metric,
        "delta": answer.delta,
        "unit": answer.unit,
        "units_needed": answer.units_needed,
        "mde_now": answer.mde_now,
        "units_now": answer.units_now,
        "se": None,
        "design_effect": None,
        "basis": answer.basis,
    }


def _pilot_row(
    p: Any, delta: float | None, needed: int | None, mde: float | None
) -> dict[str, Any]:
    return {
        "metric": p.metric,
        "delta": delta,
        "unit": p.unit,
        "units_needed": needed,
        "mde_now": mde,
        "units_now": p.n_units,
        "se": p.se,
        "design_effect": p.design_effect,
        "basis": p.basis,
    }


def _print(rows: list[dict[str, Any]], basis: str, alpha: float, power: float) -> None:
    from rich.table import Table

    from assay._cli.state import out

    unit = rows[0]["unit"]
    table = Table(title=f"power {power:g} at α {alpha:g}", title_justify="left")
    for col in ("metric", "Δ", f"{unit}s needed", "MDE now", f"{unit}s now"):
        table.add_column(col, justify="left" if col == "metric" else "right")
    for r in rows:
        table.add_row(
            r["metric"],
            "—" if r["delta"] is None else f"{r['delta']:g}",
            "—" if r["units_needed"] is None else f"{r['units_needed']:,}",
            "—" if r["mde_now"] is None else f"{r['mde_now']:.4f}",
            "—" if r["units_now"] is None else f"{r['units_now']:,}",
        )
    console = out()
    console.print(table)
    console.print(f"from {basis}")
    deffs = {r["metric"]: r["design_effect"] for r in rows if r["design_effect"] is not None}
    if deffs:
        console.print(
            "design effect (cluster / iid variance): "
            + ", ".join(f"{m} {d:.2f}" for m, d in deffs.items())
        )
