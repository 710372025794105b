"""``assay extraction ...``: the suite's own commands (miss attribution, seed 000 §16)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import click
from rich.table import Table

from assay._cli.state import claims_stdout, out, write_output
from assay._engine.run import Run
from assay.suites.extraction import miss_table, recovery, run_misses


@click.group(name="extraction", help="Structured-extraction tools (seed 000 §16 miss attribution).")
def extraction_group() -> None:
    """The extraction suite's command group."""


@extraction_group.command(name="misses")
@click.argument("run_path", metavar="RUN.json", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--candidate",
    type=click.Path(exists=True, path_type=Path),
    help="a second run: which missed spans it recovered",
)
@click.option("--field", "fields", multiple=True, help="list field(s) to analyse (default: all)")
@click.option("--top", type=int, default=10, show_default=True, help="misses listed per class")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    callback=claims_stdout,
    help="write the JSON here ('-': stdout)",
)
def misses_command(
    run_path: Path, candidate: Path | None, fields: tuple[str, ...], top: int, output: Path | None
) -> None:
    """Unmatched expected spans of RUN.json's list fields: boundary artifact or omission, by
    clause family; with --candidate, the spans the candidate recovered."""
    run = Run.load(run_path)
    misses, n_spans = run_misses(run, list(fields) or None)
    table = miss_table(misses, n_spans)
    result: dict[str, object] = {"run": run.run_id, **table, "misses": [asdict(m) for m in misses]}
    console = out()
    console.print(
        f"{run.name} · run {run.run_id}: {table['n_unmatched']} of {n_spans} expected spans "
        f"unmatched — {table['n_boundary']} boundary artifacts (contained in a longer item), "
        f"{table['n_omission']} omissions"
    )
    fam = Table(title="unmatched spans by family", title_justify="left")
    fam.add_column("family")
    fam.add_column("misses", justify="right")
    for family, count in table["families"].items():
        fam.add_row(family, str(count))
    console.print(fam)
    for m in misses[:top]:
        line = f"  [{m.kind}] {m.doc_id} · {m.field} · {m.family}: {m.span[:90]!r}"
        console.print(line)
    if candidate is not None:
        cand_run = Run.load(candidate)
        cand_misses, _ = run_misses(cand_run, list(fields) or None)
        rec = recovery(misses, cand_misses)
        result["recovery"] = {"candidate": cand_run.run_id, **rec}
        console.print(
            f"candidate {cand_run.name} · run {cand_run.run_id}: recovered {rec['n_recovered']}, "
            f"newly missed {rec['n_newly_missed']}, still missed {rec['n_still_missed']}"
        )
        for family, count in rec["recovered_families"].items():
            console.print(f"  recovered {family}: {count}")
    if output is not None:
        write_output(output, json.dumps(result, indent=2, ensure_ascii=False) + "\n", "result")


@extraction_group.command(name="judge")
@click.argument("run_path", metavar="RUN.json", type=click.Path(exists=True, path_type=Path))
@click.option("--config", type=click.Path(exists=True, path_type=Path), help="settings YAML")
@click.option("--model", help="judge model [settings: extraction.judge.model]")
@click.option("--base-url", help="OpenAI-compatible endpoint [settings: extraction.judge.base_url]")
@click.option(
    "--api-key-env", help="environment variable holding the key (the key is never an option)"
)
@click.option("--max-cost", type=click.FloatRange(min=0), help="USD budget for the pass")
@click.option("--concurrency", type=click.IntRange(min=1), help="requests in flight")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="per-request timeout [settings default: 120]",
)
@click.option("--no-cache", is_flag=True, help="ignore cached answers")
@click.option(
    "--allow-unusable-answers",
    is_flag=True,
    help="keep a pass in which more than half of the fields got no usable answer (each a "
    "listed failure); else it is refused",
)
@click.option(
    "--allow-model-mismatch",
    is_flag=True,
    help="accept answers from another model than --model (recorded); else the pass stops",
)
@click.option("--limit", type=click.IntRange(min=0), help="judge only the first N fields")
@click.option(
    "--records",
    type=click.Path(path_type=Path),
    help="calibration records JSONL [default: RUN.judgments.jsonl beside the run]",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="judge_calibration JSON [default: RUN.judge_calibration.json beside the run]",
)
def judge_command(
    run_path: Path,
    config: Path | None,
    model: str | None,
    base_url: str | None,
    api_key_env: str | None,
    max_cost: float | None,
    concurrency: int | None,
    timeout: float | None,
    no_cache: bool,
    allow_unusable_answers: bool,
    allow_model_mismatch: bool,
    limit: int | None,
    records: Path | None,
    output: Path | None,
) -> None:
    """The --judge pass (seed 000 §3, §11): every ambiguous-band field of RUN.json reviewed by
    an LLM judge for correctness and completeness; the verdicts are written as calibration
    records and aggregated into judge_calibration (n_judged, n_scored, agree_rate,
    judge_strict, judge_lenient). A dead endpoint, or one answering as another model, stops
    the pass with exit 2 and nothing written; so does a pass in which more than half of the
    fields got no usable answer, unless --allow-unusable-answers."""
    from pydantic import ValidationError

    from assay._analytics.calibration import calibration_path
    from assay._cli.state import err
    from assay._judge import JudgeClient, JudgeSettings, cost_line
    from assay._settings.loader import get_settings, load_settings
    from assay.errors import ConfigError
    from assay.suites.extraction import ExtractionSettings, judge_run

    settings = load_settings(config) if config else get_settings()
    base = settings.section_as("extraction", ExtractionSettings).judge
    over: dict[str, object] = {
        k: v
        for k, v in {
            "model": model,
            "base_url": base_url,
            "api_key_env": api_key_env,
            "max_cost": max_cost,
            "concurrency": concurrency,
            "timeout_s": timeout,
        }.items()
        if v is not None
    }
    if no_cache:
        over["cache"] = False
    if allow_unusable_answers:
        over["allow_unusable_answers"] = True
    if allow_model_mismatch:
        over["allow_model_mismatch"] = True
    try:
        judge_settings = JudgeSettings.model_validate({**base.model_dump(), **over})
    except ValidationError as error:
        first = error.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"option extraction.judge.{loc}: {first['msg']}") from None
    run = Run.load(run_path)
    console = out()
    with JudgeClient(judge_settings) as client:
        err().print(f"judge: {client.config}", markup=False)
        try:
            result = judge_run(run, client, limit=limit, source=run_path)
        except Exception:  # what was spent, also when the pass stops or is refused
            spent = client.ledger.summary()
            err().print(
                f"judge: {spent['http_requests']} HTTP requests, {cost_line(spent)}",
                markup=False,
            )
            raise
        ledger = client.ledger.summary()
    records_path = records or run_path.with_name(f"{run_path.stem}.judgments.jsonl")
    from assay._io.atomic import write_atomic

    lines = (json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in result.records)
    write_atomic(records_path, (line.encode("utf-8") for line in lines))  # whole or not at all
    output_path = output or calibration_path(run_path)
    payload = {**result.to_json(), "records": str(records_path), "ledger": ledger}
    text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
    write_atomic(output_path, [text.encode("utf-8")])
    cal = result.calibration

    def show(rate: object) -> str:
        value = getattr(rate, "value", None)
        return "—" if value is None else f"{value:.3f}"

    console.print(
        f"{run.name} · run {run.run_id}: {result.n_requested} ambiguous-band fields, "
        f"{cal.n_judged} judged, {cal.n_scored} scored — agree_rate {show(cal.agree_rate)}, "
        f"judge_strict {show(cal.judge_strict)}, judge_lenient {show(cal.judge_lenient)}",
        markup=False,
    )
    answered = f"; answered by {', '.join(result.answered_by)}" if result.answered_by else ""
    console.print(
        f"judge: {ledger['calls']} calls ({ledger['cache_hits']} from the cache), "
        f"{cost_line(ledger)}{answered}",
        markup=False,
    )
    for failure in result.failures:
        err().print(f"  failed: {failure}", markup=False, soft_wrap=True)
    for warning in result.warnings:
        err().print(f"warning: {warning}", markup=False, soft_wrap=True)
    if result.stopped:
        err().print(f"stopped early: {result.stopped}", markup=False)
    console.print(f"records: {records_path}; judge_calibration: {output_path}", markup=False)


@extraction_group.command(name="rescue-study")
@click.argument("master", metavar="MASTER_CLAUSES.csv", type=click.Path(path_type=Path))
@click.option(
    "--embedding-model",
    default="wordllama",
    show_default=True,
    help="embedding model spec (wordllama[:variant], or a sentence-transformers name)",
)
@click.option("--embedding-path", help="local sentence-transformers model directory")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="write the JSON here")
def rescue_study_command(
    master: Path, embedding_model: str, embedding_path: str | None, output: Path | None
) -> None:
    """What the embedding rescue rescues and wrongly rescues on CUAD's real spans (party
    aliases vs full names, truncated clauses, other contracts' clauses), from CUAD's
    master_clauses.csv."""
    from assay._fields.embedding import load_embedding_model
    from assay.errors import UsageError
    from assay.suites.extraction import rescue_study, study_json

    embedder, status = load_embedding_model(embedding_model, embedding_path)
    console = out()
    console.print(status.line(), markup=False)
    if embedder is None:
        raise UsageError(f"no embedder: {status.reason}")
    rows = rescue_study(master, embedder)
    table = Table(title=f"embedding rescue on {master.name}", title_justify="left")
    for col in ("pairs", "category", "should match", "n", "string misses", "rescued", "share"):
        table.add_column(col, justify="left" if col in ("pairs", "category") else "right")
    for r in rows:
        share = "—" if r.share is None else f"{r.share:.1%}"
        table.add_row(
            r.kind, r.category, "yes" if r.should_match else "no",
            str(r.n_pairs), str(r.string_misses), str(r.rescued), share,
        )  # fmt: skip
    console.print(table)
    if output is not None:
        payload = {"model": status.reason, "rows": study_json(rows)}
        from assay._io.atomic import write_atomic

        write_atomic(output, [(json.dumps(payload, indent=2) + "\n").encode("utf-8")])
        console.print(f"written to {output}")
