"""``assay compare`` and ``assay significance``: runs side by side, with paired tests."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from assay._cli.bridges import bridge_options, choice_of, resolve_runs
from assay._cli.resolve import store_option
from assay._cli.state import (
    SEED,
    STATE,
    Decorator,
    family_options,
    format_option,
    output_option,
    say,
    warn,
    write_output,
)
from assay._compare.comparison import compare
from assay._engine.run import Run
from assay._report.comparison_text import comparison_text
from assay.stats.significance import Method, PValueRule


def _shared_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    options: list[Decorator] = [
        click.argument("runs", nargs=-1, required=True),
        click.option(
            "--n-bootstrap",
            type=click.IntRange(min=1),
            help="resamples (bootstrap, default 1000) or trials (ar, default 10000)",
        ),
        click.option(
            "--method",
            type=click.Choice(["bootstrap", "ar"]),
            default="bootstrap",
            show_default=True,
            help="paired bootstrap or approximate randomization",
        ),
        click.option(
            "--p-value",
            "p_value",
            type=click.Choice(["assay", "sacrebleu"]),
            default="assay",
            show_default=True,
            help="assay: two-sided; sacrebleu: reproduces sacrebleu 2.x's p-values",
        ),
        output_option(help="write the comparison JSON here ('-': stdout, alone)"),
        format_option("json", "markdown"),
        click.option("--seed", type=SEED, help="resampling seed (default 12345)"),
        click.option("--alpha", type=float, help="significance level (default 0.05)"),
        *family_options(),
        click.option(
            "--allow-gold-mismatch",
            is_flag=True,
            help="compare even where gold differs on shared ids",
        ),
        click.option("--all", "show_all", is_flag=True, help="show diagnostic metrics too"),
        store_option,
        bridge_options,
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


def run_compare(
    runs: Sequence[str | Path],
    *,
    store: str | None = None,
    **options: Any,
) -> None:
    """Compare RUNS (artifact files, stored run ids, or other tools' result files scored on the
    fly: ``_cli.bridges``) and print, optionally write, the result."""
    choice = choice_of(options)
    # the records only if something reads them (two runs on one surface: nothing does)
    loaded = resolve_runs(runs, store, choice, seed=options.get("seed"), lazy_items=True)
    if len(loaded) < 2:
        raise click.UsageError(
            "give at least two run files or stored run ids (or a result file of several systems)"
        )
    compare_loaded(loaded, **options)


def compare_loaded(
    runs: Sequence[Run],
    *,
    significance: bool = True,
    n_bootstrap: int | None = None,
    method: str = "bootstrap",
    p_value: str = "assay",
    output: Path | None = None,
    seed: int | None = None,
    alpha: float | None = None,
    allow_gold_mismatch: bool = False,
    show_all: bool = False,
    family: str = "headline",
    correction: str = "holm",
    after_table: Callable[[Sequence[Run]], None] | None = None,
    fmt: str = "text",
) -> None:
    """Compare loaded runs: the table (and seed 001's significance table), the sacrebleu-rule
    note, warnings, and the JSON when ``output`` is given; ``after_table`` adds suite lines.

    ``output`` ``-`` or ``fmt`` ``json`` puts the JSON alone on stdout, ``fmt`` ``markdown``
    the markdown report (the tables then go to stderr)."""
    STATE.stdout_is_artifact = STATE.stdout_is_artifact or fmt != "text" or str(output) == "-"
    m: Method = "ar" if method == "ar" else "bootstrap"
    rule: PValueRule = "sacrebleu" if p_value == "sacrebleu" else "assay"
    from assay._cli.state import LazyProgress

    n_pairs = len(runs) * (len(runs) - 1) // 2
    with LazyProgress("compare") as progress:
        progress.stage("testing", n_pairs)  # the paired tests' resampling, pair by pair
        result = compare(
            *runs,
            significance=significance,
            method=m,
            p_value=rule,
            n_bootstrap=n_bootstrap,
            seed=seed,
            alpha=alpha,
            allow_gold_mismatch=allow_gold_mismatch,
            family=family,
            correction=correction,
            progress=progress,
        )
    tiers = ("headline", "core", "diagnostic") if show_all else ("headline", "core")
    say(comparison_text(result, tiers=tiers))  # plain text: no console library to import
    if after_table is not None:
        after_table(runs)
    if rule == "sacrebleu" and significance:
        warn(
            "note: --p-value sacrebleu reproduces sacrebleu 2.x for comparability with "
            "published figures; its bootstrap rule over-rejects a true null."
        )
    for w in result.warnings:
        warn(f"warning: {w}")
    text = json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n"
    if output:
        write_output(output, text, "comparison")
    if fmt == "json" and str(output) != "-":
        write_output("-", text, "comparison")
    elif fmt == "markdown":
        from assay._report.html import render_markdown

        write_output("-", render_markdown(runs, comparison=result), "markdown")


@click.command("compare")
@click.option("--significance", is_flag=True, help="add paired significance tests")
@_shared_options
def compare_command(runs: tuple[str, ...], significance: bool, **kw: Any) -> None:
    """Every metric shared by the RUNS side by side: the candidate first, then its baseline.

    RUNS are run artifact files or ids of stored runs. Δ = candidate − baseline, as in
    `assay ab`, `assay gate`, `assay mt` and `assay report`; for more than two runs, every
    pair, the earlier of the two its candidate. A result file of Inspect, lm-eval or promptfoo
    is scored on the fly (scores suite; --from).
    """
    run_compare(runs, significance=significance, **kw)


@click.command("significance")
@_shared_options
def significance_command(runs: tuple[str, ...], **kw: Any) -> None:
    """Paired significance tests between RUNS (the same as compare --significance).

    RUNS are run artifact files or ids of stored runs, or result files of Inspect, lm-eval or
    promptfoo (scored on the fly; --from).
    """
    run_compare(runs, significance=True, **kw)
