"""``assay runs``: list, show, export and remove runs in the run store."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import click
from rich.table import Table
from rich.text import Text

from assay._cli.resolve import store_option
from assay._cli.state import format_option, out, write_output
from assay._engine.run import Run
from assay._report.console import fmt_value, print_run, print_warnings
from assay.errors import UsageError


def _store(url: str | None, *, readonly: bool = False) -> Any:
    from assay._store import RunStore

    return RunStore(url, readonly=readonly)


@click.group("runs")
def runs_group() -> None:
    """The run store: every `assay score` records its run there unless --no-store."""


@runs_group.command("list")
@click.option("--task", help="only runs of this task")
@click.option("--surface", help="only runs whose surface fingerprint starts with this")
@click.option("--name", help="only runs whose name contains this")
@click.option("--limit", type=click.IntRange(min=1), default=50, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="print JSON lines instead of a table")
@store_option
def list_command(
    task: str | None,
    surface: str | None,
    name: str | None,
    limit: int,
    as_json: bool,
    store: str | None,
) -> None:
    """Stored runs, newest first, with their headline metrics."""
    with _store(store) as st:
        rows = st.in_suite_order(st.list_runs(task=task, surface=surface, name=name, limit=limit))
        total = st.count_runs(task=task, surface=surface, name=name)
        where = st.display_url
    if as_json:
        for s in rows:
            data = {k: v for k, v in vars(s).items() if k != "headline"}
            data["headline"] = {m.name: vars(m) for m in s.headline}
            click.echo(json.dumps(data, ensure_ascii=False))
        return
    table = Table(title=f"{len(rows)} of {total} runs in {where}", title_justify="left")
    for col in ("run id", "name", "task", "stored", "surface", "items", "headline"):
        table.add_column(col)
    for s in rows:
        heads = ", ".join(f"{m.name} {fmt_value(m.value)}" for m in s.headline)
        table.add_row(
            s.run_id,
            Text(s.name),  # a user's name is never rich markup (issue 20)
            s.task,
            s.stored_at[:19].replace("T", " "),
            s.surface_fingerprint[:12],
            str(s.n_items),
            Text(heads),
            end_section=False,
        )
    out().print(table)


@runs_group.command("show")
@click.argument("run_id")
@click.option("--all", "show_all", is_flag=True, help="show diagnostic metrics too")
@format_option("json", "markdown")
@store_option
def show_command(run_id: str, show_all: bool, store: str | None, fmt: str = "text") -> None:
    """A stored run's scorecard, cohort, surface and provenance."""
    with _store(store) as st:
        run = st.get(run_id)
        summary = st.summary(run.run_id)
    if fmt == "json":
        write_output("-", run.iter_json(), "run")
    elif fmt == "markdown":
        from assay._report.html import render_markdown

        write_output("-", render_markdown([run]), "markdown")
    print_run(out(), run, show_all=show_all)
    p = run.provenance
    out().print(
        f"stored {summary.stored_at} · surface {run.surface.fingerprint[:16]} "
        f"(seed {run.surface.seed}, {run.surface.n_items} items)\n"
        f"predictions {', '.join(p.predictions)} · gold {', '.join(p.gold)} · "
        f"git {p.git_commit or '—'}",
        markup=False,
    )
    print_warnings(out(), run.warnings)


def item_rows(run: Run) -> tuple[list[str], list[dict[str, Any]]]:
    """One flat row per item: id, status, error, flags, per-item scores and statistics."""
    table = run.table()
    index = {item_id: pos for pos, item_id in enumerate(table.ids)}
    score_names: dict[str, None] = {}
    for item in run.items:
        for k in item.scores:
            score_names.setdefault(k, None)
    columns = [
        "id",
        "status",
        "error",
        "flags",
        *(f"score.{s}" for s in score_names),
        *(f"stat.{c}" for c in table.columns),
    ]
    rows = []
    for item in run.items:
        row: dict[str, Any] = {
            "id": item.id,
            "status": item.status,
            "error": item.error,
            "flags": ";".join(item.flags),
        }
        for s in score_names:
            row[f"score.{s}"] = item.scores.get(s)
        pos = index.get(item.id)
        for j, c in enumerate(table.columns):
            row[f"stat.{c}"] = None if pos is None else float(table.values[pos, j])
        rows.append(row)
    return columns, rows


def export_text(run: Run, fmt: str) -> str:
    """The run as JSON (the artifact), JSONL (one item a line) or CSV (one item a row)."""
    if fmt == "json":
        return run.to_json()
    if fmt == "jsonl":
        lines = []
        for item in run.items:
            lines.append(json.dumps(item.model_dump(mode="json"), ensure_ascii=False))
        return "\n".join(lines) + ("\n" if lines else "")
    columns, rows = item_rows(run)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def export_parquet(run: Run, path: Path) -> None:
    """One item a row, as CSV's columns, in Parquet (needs the 'parquet' extra: pyarrow)."""
    try:
        import pyarrow as pa  # type: ignore[import-untyped]
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError:
        raise UsageError(
            "--format parquet needs pyarrow: install assay's 'parquet' extra"
        ) from None
    columns, rows = item_rows(run)
    data = {c: [r[c] for r in rows] for c in columns}
    pq.write_table(pa.table(data), path)


@runs_group.command("export")
@click.argument("run_id")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["json", "jsonl", "csv", "parquet"]),
    default="json",
    show_default=True,
)
@click.option(
    "--output", "-o", type=click.Path(path_type=Path), help="file to write (default stdout)"
)
@store_option
def export_command(run_id: str, fmt: str, output: Path | None, store: str | None) -> None:
    """Export a stored run: the artifact (json), or its items (jsonl, csv, parquet)."""
    with _store(store) as st:
        run = st.get(run_id)
    if fmt == "parquet":
        if output is None:
            raise click.UsageError("--format parquet needs --output FILE")
        export_parquet(run, output)
    else:
        text = export_text(run, fmt)
        if output is None:
            click.echo(text, nl=False)
            return
        from assay._io.atomic import write_atomic

        write_atomic(output, [text.encode("utf-8")])  # whole or not at all
    out().print(f"run {run.run_id} exported to {output}")


@runs_group.command("rm")
@click.argument("run_ids", nargs=-1, required=True)
@store_option
def rm_command(run_ids: tuple[str, ...], store: str | None) -> None:
    """Remove stored runs (by id or unique id prefix)."""
    with _store(store) as st:
        for ref in run_ids:
            out().print(f"removed run {st.remove(ref)}")
