"""``assay gate``: exit 1 when a run is below a bar, worse than its baseline, or failed more."""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from typing import Any

import click

from assay._cli.bridges import bridge_options, choice_of, resolve_run
from assay._cli.resolve import store_option
from assay._cli.state import SEED, format_option, out, with_family_options, write_output


def _finite(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """nan and ±inf are not bars: a usage error (exit 2), never a gate that cannot fail."""
    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"must be a finite number, not {value}")
    return value


@click.command("gate")
@click.argument("run")
@click.option("--threshold", type=float, callback=_finite, help="the absolute bar X")
@click.option(
    "--baseline",
    help="run file or stored id: fail when a selected metric is significantly worse than it on "
    "the shared items (Δ = candidate − baseline)",
)
@click.option(
    "--margin",
    type=click.FloatRange(min=0),
    default=0.0,
    help='with --baseline: a regression must also exceed this |Δ| ("materially")',
)
@click.option(
    "--max-failed",
    type=click.FloatRange(min=0, max=1),
    help="allowed share of failed + missing items (default: no rise over the baseline, else 0.05)",
)
@click.option("--metrics", help="comma-separated metric names (default: the tier's metrics)")
@click.option(
    "--tier",
    type=click.Choice(["headline", "core", "diagnostic"]),
    help="gate every metric of this tier (default headline)",
)
@click.option("--no-noise-floor", is_flag=True, help="ignore the surface's recorded noise floor")
@click.option("--noise-dir", type=click.Path(), help="recorded noise floors (default .assay/noise)")
@click.option("--n-bootstrap", type=click.IntRange(min=1), help="paired resamples (default 1000)")
@click.option("--seed", type=SEED, help="resampling seed (default 12345)")
@with_family_options
@format_option("json")
@store_option
@bridge_options
def gate_command(
    run: str,
    threshold: float | None,
    baseline: str | None,
    margin: float,
    max_failed: float | None,
    metrics: str | None,
    tier: str | None,
    no_noise_floor: bool,
    noise_dir: str | None,
    n_bootstrap: int | None,
    seed: int | None,
    store: str | None,
    family: str = "headline",
    correction: str = "holm",
    fmt: str = "text",
    **bridge: Any,
) -> None:
    """Fail (exit 1) when RUN is below X, worse than BASELINE, or failed more items.

    RUN is a run artifact file or the id of a stored run. With --threshold, every selected
    metric must be at least X (at most X if lower is better). With --baseline, no selected
    metric may be significantly worse on the shared items (paired test; |Δ| beyond --margin and
    the surface's recorded noise band); the gated metrics are one family, Holm-adjusted by
    default, so a gate against an equal baseline fails falsely with probability at most α.
    Always: the share of failed + missing items within --max-failed. A gate whose every
    selected metric is null fails. RUN and BASELINE may be result files of Inspect, lm-eval
    or promptfoo, scored on the fly (scores suite; --from).
    """
    from assay._compare.gate import gate
    from assay._report.console import print_gate

    if threshold is None and baseline is None:
        raise click.UsageError("give --threshold X, --baseline RUN, or both")
    choice = choice_of(bridge)
    candidate = resolve_run(run, store, choice, seed=seed)
    base = resolve_run(baseline, store, choice, seed=seed) if baseline else None
    noise: dict[str, float] = {}
    if base is not None and not no_noise_floor:
        from assay._analytics.noise import load_noise_floor
        from assay._settings import get_settings

        floor = load_noise_floor(
            base.surface.fingerprint, noise_dir or get_settings().analytics.noise_dir
        )
        if floor is not None and floor.task == candidate.task:
            noise = {name: f.band for name, f in floor.floors.items()}
    names = [m.strip() for m in metrics.split(",") if m.strip()] if metrics else None
    result = gate(
        candidate,
        threshold,
        metrics=names,
        tier=tier,
        baseline=base,
        margin=margin,
        noise=noise,
        max_failed=max_failed,
        n_resamples=n_bootstrap,
        seed=seed,
        family=family,
        correction=correction,
    )
    if fmt == "json":
        write_output(
            "-", json.dumps(asdict(result) | {"passed": result.passed}, indent=2) + "\n", ""
        )
    print_gate(out(), result)
    if not result.passed:
        out().print(f"gate failed: {'; '.join(result.failure_reasons())}", markup=False)
        raise click.exceptions.Exit(1)
    out().print("gate passed")
