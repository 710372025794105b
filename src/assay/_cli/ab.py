"""``assay ab``: a candidate against its baseline on one surface, Δ = candidate − baseline,
with the verdict."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.table import Table
from rich.text import Text

from assay._analytics.ab import ab_compare
from assay._analytics.memo import ab_memo
from assay._analytics.noise import NoiseFloor, load_noise_floor
from assay._analytics.output import write_json, write_text
from assay._cli._analytics_common import analytics_settings, config_option
from assay._cli.resolve import load_run_ref, store_option
from assay._cli.state import SEED, err, out, with_family_options
from assay._report.console import fmt_delta, print_warnings
from assay._report.plain import fmt_fixed, fmt_p, metric_decimals
from assay._settings import get_settings
from assay.stats.statements import controls_text, test_title

if TYPE_CHECKING:
    from assay._analytics.ab import ABResult


def ab_evidence_lines(result: ABResult) -> list[str]:
    """The family the sig column follows, each Δ's smallest detectable size, and that the
    sample can never reject (when so)."""
    fam = result.family
    lines = [
        f"family: {fam['name']}, {fam['n_tests']} tests; correction {fam['correction']} "
        f"{controls_text(fam['correction'])}; sig follows p-adj"
    ]
    mdes = [f"{m.name} {m.mde:.3g}" for m in result.metrics if m.mde is not None]
    if mdes:
        lines.append("smallest detectable Δ (power 0.8): " + ", ".join(mdes))
    if result.cannot_reject:
        lines.append(result.cannot_reject)
    return lines


@click.command("ab")
@click.argument("candidate")
@click.argument("extra", nargs=-1, metavar="")
@click.option(
    "--baseline",
    metavar="RUN",
    help="the run CANDIDATE is measured against: a file or a stored id (required)",
)
@click.option(
    "--compare-only",
    is_flag=True,
    help="read two existing runs (files or stored ids); assay never runs a model, so this is "
    "the only mode and the flag is accepted for the seed's workflow",
)
@click.option("--metric", help="the headline metric of the verdict (default: the first headline)")
@click.option("--tie-band", type=float, help="|Δ| at or below this is a tie (default 0.001)")
@click.option("--noise-floor", "noise_band", type=float, help="noise band for the headline")
@click.option("--no-noise-floor", is_flag=True, help="ignore any recorded noise floor")
@click.option("--noise-dir", type=click.Path(path_type=Path), help="recorded noise floors")
@click.option(
    "--method",
    type=click.Choice(["bootstrap", "ar"]),
    default="bootstrap",
    show_default=True,
    help="paired test for the p-value; the CI of Δ is always the paired bootstrap's",
)
@click.option("--n-bootstrap", type=click.IntRange(min=1), help="resamples (default 1000)")
@click.option("--seed", type=SEED, help="resampling seed (default 12345)")
@click.option("--alpha", type=float, help="1 − CI level (default 0.05)")
@with_family_options
@click.option("--all", "show_all", is_flag=True, help="show diagnostic metrics too")
@click.option("--output", "-o", type=click.Path(path_type=Path), help="write JSON here")
@click.option("--markdown", type=click.Path(path_type=Path), help="write a markdown memo here")
@config_option
@store_option
def ab_command(
    candidate: str,
    extra: tuple[str, ...],
    baseline: str | None,
    compare_only: bool,
    metric: str | None,
    tie_band: float | None,
    noise_band: float | None,
    no_noise_floor: bool,
    noise_dir: Path | None,
    method: str,
    n_bootstrap: int | None,
    seed: int | None,
    alpha: float | None,
    show_all: bool,
    output: Path | None,
    markdown: Path | None,
    config: Path | None,
    store: str | None,
    family: str = "headline",
    correction: str = "holm",
) -> None:
    """A/B of CANDIDATE against --baseline RUN on one surface: verdict and metric table.

    Δ = candidate − baseline on the headline metric, as in every assay command; the verdict
    is a tie within ±0.001, "within noise (logic repair)" inside a recorded noise floor, a win
    only when the paired test rejects at the family's adjusted p < α (Holm over the headline
    and core metrics by default), else inconclusive; at 5 items or fewer nothing can be
    significant. Refuses (exit 2) unless both runs share the dataset fingerprint, seed and
    sample size.
    """
    if extra or baseline is None:
        raise click.UsageError(
            "give the candidate and --baseline RUN: `assay ab CANDIDATE --baseline BASELINE` "
            "(the candidate first, as in compare, gate and report; ab no longer takes the "
            "baseline as its first argument)"
        )
    settings = analytics_settings(config)
    stats = get_settings().stats
    run_b, run_c = load_run_ref(baseline, store), load_run_ref(candidate, store)
    del compare_only  # accepted for the seed's workflow: every A/B here reads existing runs
    floor_arg: NoiseFloor | float | None = None
    if noise_band is not None:
        floor_arg = noise_band
    elif not no_noise_floor:
        floor = load_noise_floor(run_b.surface.fingerprint, noise_dir or settings.noise_dir)
        floor_arg = floor if floor is not None and floor.task == run_b.task else None
    result = ab_compare(
        candidate=run_c,
        baseline=run_b,
        metric=metric,
        tie_band=settings.tie_band if tie_band is None else tie_band,
        noise_floor=floor_arg,
        method="ar" if method == "ar" else "bootstrap",
        n_resamples=n_bootstrap,
        seed=stats.seed if seed is None else seed,
        alpha=stats.alpha if alpha is None else alpha,
        min_items=stats.min_items_test,
        family=family,
        correction=correction,
    )
    level = round(100 * (1 - result.alpha))
    header = (
        f"candidate = {result.candidate['name']} · baseline = {result.baseline['name']} · "
        f"{result.task} · n = {result.n} · Δ = candidate − baseline"
    )
    table = Table()
    for col in ("metric", "candidate", "baseline", "Δ"):
        table.add_column(col, justify="left" if col == "metric" else "right")
    table.add_column(f"{level}% CI of Δ", justify="right")
    table.add_column("p", justify="right")
    table.add_column("p-adj", justify="right")
    table.add_column("sig", justify="center")
    table.add_column("noise ±", justify="right")
    tiers = ("headline", "core", "diagnostic") if show_all else ("headline", "core")
    order = {t: i for i, t in enumerate(tiers)}
    for m in sorted((m for m in result.metrics if m.tier in order), key=lambda m: order[m.tier]):
        d = metric_decimals(m.candidate, m.baseline)
        ci = (
            "—"
            if m.ci_lower is None or m.ci_upper is None
            else f"[{fmt_fixed(m.ci_lower, d, sign=True)}, {fmt_fixed(m.ci_upper, d, sign=True)}]"
        )
        label = m.name + ("" if m.higher_is_better else " ↓")
        name = Text(label, style="bold" if m.name == result.metric else "")
        table.add_row(
            name,
            fmt_fixed(m.candidate, d),
            fmt_fixed(m.baseline, d),
            fmt_fixed(m.delta, d, sign=True),
            ci,
            "—" if m.p_value is None or m.delta is None else fmt_p(m.p_value),
            "—" if m.p_adjusted is None or m.delta is None else fmt_p(m.p_adjusted),
            "undefined" if m.delta is None else "yes" if m.significant else "no",
            "—" if m.noise_band is None else f"{m.noise_band:.4f}",
        )
    console = out()
    console.print(header, markup=False)
    console.print(table)
    noise = (
        f"; noise band ±{result.noise_band:.4f} ({result.noise_source})"
        if result.noise_band is not None
        else "; no noise floor recorded for this surface"
    )
    console.print(
        Text.assemble(
            f"{result.metric}: ",
            (result.verdict, "bold"),
            f" (Δ = {fmt_delta(result.delta)}, {test_title(result.test)}, "
            f"tie band ±{result.tie_band:g}{noise})",
        ),
        soft_wrap=True,
    )
    for line in ab_evidence_lines(result):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    print_warnings(err(), result.warnings)
    if output:
        write_json(output, result.to_json())
        console.print(f"A/B written to {output}")
    if markdown:
        write_text(markdown, ab_memo(result))
        console.print(f"memo written to {markdown}")
