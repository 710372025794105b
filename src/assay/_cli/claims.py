"""``assay claims evaluate`` and ``assay claims diff``: seed 003's round trip and its iteration
discipline on the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from pydantic import ValidationError
from rich.table import Table
from rich.text import Text

from assay._cli.score import common_options, score_and_report
from assay._cli.state import SEED, claims_stdout, err, out, with_family_options, write_output
from assay._engine.run import Run
from assay._judge import JudgeClient, JudgeSettings, cost_line
from assay._report.console import fmt_delta, fmt_value, print_warnings
from assay._settings import get_settings, load_settings
from assay.errors import ConfigError
from assay.suites.claims import ClaimsSettings, ClaimsTask, DiffResult, diff_runs

#: exit code of an evaluate run that --max-cost stopped: a partial scorecard was written
PARTIAL_EXIT = 3
#: shared `assay score` options that evaluate names differently (--reference, --extracted)
_RENAMED = {"pred", "gold"}


@click.group("claims")
def claims_group() -> None:
    """Claim-extraction round trip (seed 003): evaluate extracted claims, diff scorecards."""


def _judge_overrides(values: dict[str, Any]) -> dict[str, Any]:
    mapping = {
        "model": "model",
        "base_url": "base_url",
        "api_key_env": "api_key_env",
        "max_cost": "max_cost",
        "concurrency": "concurrency",
        "timeout": "timeout_s",
    }
    over = {field: values[opt] for opt, field in mapping.items() if values.get(opt) is not None}
    if values.get("no_cache"):
        over["cache"] = False
    for flag in ("allow_unusable_answers", "allow_model_mismatch"):
        if values.get(flag):
            over[flag] = True
    return over


def _judge_settings(base: JudgeSettings, over: dict[str, Any]) -> JudgeSettings:
    try:
        return JudgeSettings.model_validate({**base.model_dump(), **over})
    except ValidationError as error:
        first = error.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"option claims.judge.{loc}: {first['msg']}") from None


def judge_line(client: JudgeClient) -> str:
    """What the LLM matcher's client did: calls, requests, tokens, cost (dollars only from
    counted tokens) and the models that answered."""
    s = client.ledger.summary()
    uncounted, requests = s["uncounted_requests"], s["http_requests"]
    tokens = f"{s['input_tokens']} input and {s['output_tokens']} output tokens"
    if uncounted == requests and requests:
        tokens = "tokens not counted"
    elif uncounted:
        tokens += f" ({uncounted} of {requests} requests not counted)"
    cost = cost_line(s)
    if s["max_cost"] is not None:
        cost += f" of max ${s['max_cost']:.2f}"
    answered = f"; answered by {', '.join(s['answered_by'])}" if s["answered_by"] else ""
    return (
        f"judge: {s['calls']} calls ({s['cache_hits']} from the cache), "
        f"{s['http_requests']} HTTP requests, {tokens}, {cost}{answered}"
    )


def print_papers(run: Run, shown: int) -> None:
    """Seed 003's per-paper table, then the first unmatched extracted claims of each paper."""
    table = Table(title="per paper", title_justify="left")
    for col in ("paper", "n_ref", "n_ext", "recovery", "panel", "role", "exact", "partial", "none"):
        table.add_column(col, justify="left" if col == "paper" else "right")
    for row in run.summaries.get("per_paper", []):
        table.add_row(
            row["paper"] + ("" if row["status"] == "ok" else f" ({row['status']})"),
            str(row["n_reference"]),
            str(row["n_extracted"]),
            fmt_value(row["recovery"]),
            fmt_value(row["panel_agreement"]),
            fmt_value(row["role_agreement"]),
            str(row["exact"]),
            str(row["partial"]),
            str(row["none"]),
        )
    console = out()
    console.print(table)
    summ = run.summaries
    left = summ.get("left_out") or {}
    n_left = sum(len(v) for v in left.values())
    if n_left:
        named = "; ".join(f"{k}: {', '.join(v)}" for k, v in left.items() if v)
        console.print(
            f"means are over {summ.get('scored_papers')} scored papers; {n_left} left out "
            f"(the seed's rule; counted by failure) — {named}",
            markup=False,
            soft_wrap=True,
        )
    for paper, failures in (summ.get("file_failures") or {}).items():
        console.print(
            f"{paper}: {len(failures)} claim file(s) could not be read and were left out "
            "(the paper is scored on the rest):",
            markup=False,
            soft_wrap=True,
        )
        for f in failures:
            console.print(f"  - {f['file']}: {f['reason']}", markup=False, soft_wrap=True)
    for item in run.items:
        unmatched = item.details.get("unmatched_extracted", [])
        if not unmatched or shown == 0:
            continue
        console.print(
            f"{item.id}: {len(unmatched)} extracted claims matched no reference claim"
            + (f" (first {shown})" if len(unmatched) > shown else "")
        )
        for u in unmatched[:shown]:
            console.print(f"  - {u['slug']}: {u['claim'][:100]}", markup=False)


def _evaluate_params() -> list[click.Parameter]:
    path = click.Path(path_type=Path)
    own: list[click.Parameter] = [
        click.Option(
            ["--reference", "reference"],
            type=path,
            required=True,
            help="curated claims: a claim-tree directory, a paper directory, JSON or JSONL",
        ),
        click.Option(
            ["--extracted", "extracted"],
            type=path,
            required=True,
            help="extracted claims, in any of the same layouts",
        ),
        click.Option(
            ["--matcher", "matcher"],
            type=click.Choice(["deterministic", "llm"]),
            help="how claims are aligned [settings default: deterministic]",
        ),
        click.Option(["--model", "model"], help="LLM matcher model (else $ASSAY_JUDGE_MODEL)"),
        click.Option(
            ["--base-url", "base_url"],
            help="OpenAI-compatible endpoint (else $ASSAY_JUDGE_BASE_URL, $OPENAI_BASE_URL)",
        ),
        click.Option(
            ["--api-key-env", "api_key_env"],
            metavar="VAR",
            help="environment variable holding the API key "
            "(default ASSAY_JUDGE_API_KEY, then OPENAI_API_KEY)",
        ),
        click.Option(
            ["--max-cost", "max_cost"],
            type=click.FloatRange(min=0),
            metavar="USD",
            help="stop before the matcher's spending could exceed this",
        ),
        click.Option(
            ["--concurrency", "concurrency"],
            type=click.IntRange(min=1),
            help="LLM requests in flight at once [settings default: 4]",
        ),
        click.Option(
            ["--timeout", "timeout"],
            type=click.FloatRange(min=0, min_open=True),
            metavar="SECONDS",
            help="per-request timeout [settings default: 120]",
        ),
        click.Option(["--no-cache", "no_cache"], is_flag=True, help="ignore cached answers"),
        click.Option(
            ["--allow-unusable-answers", "allow_unusable_answers"],
            is_flag=True,
            help="keep a run in which more than half of the papers asked got no usable LLM "
            "answer (each a listed failure; exit 0); else it is refused",
        ),
        click.Option(
            ["--allow-model-mismatch", "allow_model_mismatch"],
            is_flag=True,
            help="accept LLM answers from another model than --model (recorded); else the "
            "run stops",
        ),
        click.Option(
            ["--prompt-version", "prompt_version"],
            type=int,
            help="LLM matcher prompt version (default: the newest shipped)",
        ),
        click.Option(
            ["--allow-fallback", "allow_fallback"],
            is_flag=True,
            default=None,
            help="when the configured embedder cannot run (its extra is not installed), score "
            "with the matcher's other signals instead of refusing; the run records it",
        ),
        click.Option(
            ["--show-unmatched", "show_unmatched"],
            type=click.IntRange(min=0),
            help="unmatched extracted claims listed per paper [settings default: 10]",
        ),
    ]
    shared = [p for p in common_options() if p.name not in _RENAMED]
    return own + shared


def _print_matcher(base: ClaimsSettings, values: dict[str, Any]) -> None:
    """Which deterministic matcher runs and how far to trust it (stderr, before scoring), and
    a warning when it falls back without the configured embedder (``--allow-fallback``)."""
    from assay.suites.claims import embedding_status, matcher_backend, matcher_line, trust_note

    s = base.model_copy(update={"matcher": "deterministic"})
    enabled = embedding_status(s)[1].enabled
    err().print(f"matcher: {matcher_line(s)}", markup=False, soft_wrap=True)
    err().print(f"  trust: {trust_note(s, enabled)}", markup=False, soft_wrap=True)
    backend = matcher_backend(s)
    if backend.fallback is not None and (values.get("allow_fallback") or s.allow_fallback):
        err().print(
            f"warning: falling back to {backend.name} ({backend.fallback}); the run records "
            f"matcher_backend {backend.name}",
            markup=False,
            soft_wrap=True,
        )


def _evaluate(**values: Any) -> None:
    """Score extracted claims against a curated reference, paper by paper (seed 003)."""
    config = values.get("config")
    settings = load_settings(config) if config else get_settings()
    base = settings.section_as("claims", ClaimsSettings)
    judge = _judge_settings(base.judge, _judge_overrides(values))
    matcher = values.get("matcher") or base.matcher
    options: dict[str, Any] = {"matcher": matcher, "judge": judge.model_dump(mode="json")}
    if values.get("prompt_version") is not None:
        options["prompt_version"] = values["prompt_version"]
    if values.get("allow_fallback"):
        options["allow_fallback"] = True
    shown = values.get("show_unmatched")
    shown = base.unmatched_shown if shown is None else shown
    own = {
        "reference",
        "extracted",
        "matcher",
        "model",
        "base_url",
        "api_key_env",
        "max_cost",
        "concurrency",
        "timeout",
        "no_cache",
        "allow_unusable_answers",
        "allow_model_mismatch",
        "prompt_version",
        "allow_fallback",
        "show_unmatched",
    }
    common = {k: v for k, v in values.items() if k not in own}
    # keeping a run of mostly unusable answers keeps its mostly unscored items: no exit 4
    if values.get("allow_unusable_answers"):
        common["allow_unusable_predictions"] = True
    client = JudgeClient(judge) if matcher == "llm" else None
    if client is not None:
        err().print(f"LLM matcher: {client.config}", markup=False)
    else:
        _print_matcher(base, values)
    try:
        run = score_and_report(
            ClaimsTask(client=client),
            pred=values["extracted"],
            gold=(values["reference"],),
            **common,
            **options,
        )
    finally:
        if client is not None:
            client.close()
            err().print(judge_line(client), markup=False, soft_wrap=True)
    print_papers(run, shown)
    partial = run.summaries.get("partial")
    if partial:
        err().print(
            f"PARTIAL scorecard: the matcher stopped ({partial['reason']}); "
            f"{len(run.items)} papers scored, {len(partial['not_matched'])} never matched and "
            f"left out: {', '.join(partial['not_matched'])}. Rerun to finish (answers so far "
            "are cached).",
            markup=False,
            soft_wrap=True,
        )
        raise click.exceptions.Exit(PARTIAL_EXIT)


evaluate_command = click.Command(
    name="evaluate",
    params=_evaluate_params(),
    callback=_evaluate,
    help="Score extracted claims against a curated reference, paper by paper (seed 003): "
    "recovery, panel and role agreement with 95% CIs over papers.",
    short_help="score extracted claims against a curated reference",
)
claims_group.add_command(evaluate_command)


def print_diff(result: DiffResult) -> None:
    """Watched metrics first, then the rest, each with Δ, its paired CI and the call."""
    level = round(100 * (1 - result.alpha))
    table = Table(
        title=f"{result.candidate} vs {result.baseline} · {result.n_shared} shared papers",
        title_justify="left",
    )
    cols = ("metric", "baseline", "candidate", "Δ", f"bootstrap {level}% CI", "p", "p-adj", "move")
    for col in cols:
        table.add_column(col, justify="left" if col in ("metric", "move") else "right")
    for m in result.moves:
        ci = (
            f"[{m.ci_lower:+.3f}, {m.ci_upper:+.3f}]"
            if m.ci_lower is not None and m.ci_upper is not None
            else "—"
        )
        label = Text(m.name, style="bold" if m.watched else "")  # never read as markup
        table.add_row(
            label,
            fmt_value(m.baseline),
            fmt_value(m.candidate),
            fmt_delta(m.delta),
            ci,
            f"{m.p_value:.3f}",
            "—" if m.p_adjusted is None else f"{m.p_adjusted:.3f}",
            m.move if m.in_family else f"{m.move} (outside the family)",
        )
    console = out()
    console.print(table)
    watched = [m.name for m in result.moves if m.watched]
    if result.per_paper:
        papers = Table(title="per paper (candidate − baseline)", title_justify="left")
        papers.add_column("paper")
        for name in watched:
            papers.add_column(name, justify="right")
        for row in result.per_paper:
            cells = []
            for name in watched:
                v = row[name]
                cells.append(
                    f"{fmt_value(v['baseline'])} → {fmt_value(v['candidate'])} "
                    f"({fmt_delta(v['delta'])})"
                )
            papers.add_row(row["paper"], *cells)
        console.print(papers)
    a = result.alpha
    text = {
        "net_win": "net win: at least one of {w} is up beyond noise and none is down",
        "regression": "regression: {w} has a metric down beyond noise (p-adj < {a})",
        "no_material_change": "no material change: every one of {w} holds (p-adj ≥ {a})",
    }[result.verdict]
    console.print(f"test: {result.test_description}", markup=False, soft_wrap=True)
    for line in diff_evidence_lines(result):
        console.print(line, markup=False, soft_wrap=True)
    console.print(text.format(w=", ".join(watched), a=a), markup=False, soft_wrap=True)


def diff_evidence_lines(result: DiffResult) -> list[str]:
    """The family the moves follow, each Δ's smallest detectable size, and that this sample
    can never reject (when so)."""
    from assay.stats.statements import controls_text

    lines = []
    fam = result.family
    if fam:
        lines.append(
            f"family: {fam['name']}, {fam['n_tests']} tests; correction {fam['correction']} "
            f"{controls_text(fam['correction'])}; moves follow p-adj"
        )
    mdes = [f"{m.name} {m.mde:.3g}" for m in result.moves if m.mde is not None and m.in_family]
    if mdes:
        lines.append("smallest detectable Δ (power 0.8): " + ", ".join(mdes))
    if result.cannot_reject:
        lines.append(result.cannot_reject)
    return lines


@claims_group.command("diff")
@click.argument("baseline", type=click.Path(path_type=Path))
@click.argument("candidate", type=click.Path(path_type=Path))
@click.option(
    "--metrics",
    help="comma-separated metrics to judge by [settings default: recovery,role_agreement]",
)
@click.option(
    "--n-bootstrap",
    type=click.IntRange(min=1),
    help="random swaps of the randomization test (default 1000)",
)
@click.option("--seed", type=SEED, help="resampling seed (default 12345)")
@click.option("--alpha", type=float, help="1 − CI level (default 0.05)")
@with_family_options
@click.option("--config", type=click.Path(path_type=Path), help="settings YAML")
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path),
    callback=claims_stdout,
    help="write the diff as JSON ('-': stdout)",
)
def diff_command(
    baseline: Path,
    candidate: Path,
    metrics: str | None,
    n_bootstrap: int | None,
    seed: int | None,
    alpha: float | None,
    config: Path | None,
    output: Path | None,
    family: str = "headline",
    correction: str = "holm",
) -> None:
    """Seed 003's discipline: exit 1 when recovery or role agreement drops beyond noise.

    Net win: recovery and role both up, or one up and the other holding, "up" and "down"
    meaning a paired sign-flip test over papers gives a Holm-adjusted p < alpha over the
    watched metrics (--family headline): exact (all 2^n swaps) up to 16 papers, else
    approximate randomization. At 5 papers or fewer nothing can be significant, and the diff
    says so.
    """
    settings = load_settings(config) if config else get_settings()
    section = settings.section_as("claims", ClaimsSettings)
    names = (
        [m.strip() for m in metrics.split(",") if m.strip()] if metrics else section.diff_metrics
    )
    stats = settings.stats
    result = diff_runs(
        Run.load(baseline),
        Run.load(candidate),
        metrics=names,
        n_bootstrap=n_bootstrap or stats.n_bootstrap,
        seed=stats.seed if seed is None else seed,
        alpha=stats.alpha if alpha is None else alpha,
        family=family,
        correction=correction,
    )
    print_diff(result)
    print_warnings(err(), result.warnings)
    if output:
        write_output(
            output, json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n", "diff"
        )
    if result.exit_code:
        raise click.exceptions.Exit(result.exit_code)
