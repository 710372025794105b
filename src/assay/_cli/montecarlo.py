"""``assay montecarlo``: zero-spend what-if analysis over a corpus of label samples."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from assay._analytics.corpus import read_corpus
from assay._analytics.escalation import ConfidenceSource
from assay._analytics.memo import montecarlo_memo
from assay._analytics.output import write_json, write_text
from assay._analytics.robustness import run_montecarlo
from assay._cli._analytics_common import analytics_settings, config_option
from assay._cli.state import SEED, LazyProgress, err, out
from assay._report.console import fmt_value, print_warnings
from assay._settings import get_settings

_CONFIDENCE: dict[str, ConfidenceSource] = {"auto": "auto", "field": "field", "margin": "margin"}


def _sizes(text: str | None) -> list[int] | None:
    if not text:
        return None
    try:
        sizes = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(f"expected comma-separated integers, got {text!r}") from None
    if not sizes or any(k < 1 for k in sizes):
        raise click.BadParameter("committee sizes must be integers >= 1")
    return sizes


@click.command("montecarlo")
@click.argument("corpus", type=click.Path(path_type=Path))
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    default=Path("montecarlo"),
    show_default=True,
    help="directory for montecarlo.json and montecarlo.md",
)
@click.option("--sizes", help="committee sizes, e.g. 1,3,5,9 (default from settings)")
@click.option("--cheap", help="MODEL[:PROMPT] answering first (escalation)")
@click.option("--strong", help="MODEL[:PROMPT] taking the escalated calls")
@click.option(
    "--confidence",
    type=click.Choice(["auto", "field", "margin"]),
    default="auto",
    show_default=True,
    help="escalation confidence: the samples' field, or the label-distribution margin",
)
@click.option("--failure-model", help="model whose failure rate drives the pipeline (all)")
@click.option("--fallback", help="fallback MODEL after the primary's last failed try")
@click.option("--max-tries", type=click.IntRange(min=1), help="attempts on the primary (1)")
@click.option(
    "--persistent-share",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="share of first failures that fail every retry",
)
@click.option("--budget-tokens", type=click.IntRange(min=0), help="exemplar token budget (4000)")
@click.option("--simulations", type=click.IntRange(min=10), help="draws per document (2000)")
@click.option("--n-bootstrap", type=click.IntRange(min=1), help="resamples (default 1000)")
@click.option("--seed", type=SEED, help="seed (default 12345)")
@click.option("--alpha", type=float, help="1 − CI level (default 0.05)")
@config_option
def montecarlo_command(
    corpus: Path,
    out_dir: Path,
    sizes: str | None,
    cheap: str | None,
    strong: str | None,
    confidence: str,
    failure_model: str | None,
    fallback: str | None,
    max_tries: int | None,
    persistent_share: float,
    budget_tokens: int | None,
    simulations: int | None,
    n_bootstrap: int | None,
    seed: int | None,
    alpha: float | None,
    config: Path | None,
) -> None:
    """Monte Carlo robustness over label samples: JSON and a markdown memo.

    CORPUS is a JSONL of label samples (see docs/analytics.md). Runs committee voting, the
    paired-bootstrap prompt ablation, the failure pipeline, exemplar mining and, with --cheap
    and --strong, confidence-gated escalation.
    """
    settings = analytics_settings(config)
    stats = get_settings().stats
    data = read_corpus(corpus)
    with LazyProgress("montecarlo") as progress:
        progress(0, 1)
        report = run_montecarlo(
            data,
            settings=settings,
            sizes=_sizes(sizes),
            cheap=cheap,
            strong=strong,
            confidence=_CONFIDENCE[confidence],
            failure_model=failure_model,
            fallback=fallback,
            max_tries=max_tries,
            persistent_share=persistent_share,
            budget_tokens=budget_tokens,
            n_simulations=simulations,
            n_bootstrap=n_bootstrap or stats.n_bootstrap,
            seed=stats.seed if seed is None else seed,
            alpha=stats.alpha if alpha is None else alpha,
        )
    json_path = write_json(out_dir / "montecarlo.json", report.to_json())
    md_path = write_text(out_dir / "montecarlo.md", montecarlo_memo(report))
    table = Table(title=f"committee voting · {corpus}", title_justify="left")
    for col in ("model", "prompt", "K", "accuracy", "95% CI", "docs"):
        table.add_column(col, justify="left" if col in ("model", "prompt") else "right")
    for c in report.committee:
        a = c.accuracy
        ci = (
            "—"
            if a.ci_lower is None or a.ci_upper is None
            else f"[{a.ci_lower:.4f}, {a.ci_upper:.4f}]"
        )
        table.add_row(c.model, c.prompt, str(c.k), fmt_value(a.value), ci, str(a.n))
    console = out()
    console.print(table)
    print_warnings(err(), report.warnings)
    console.print(f"report written to {json_path} and {md_path}")
