"""``assay extraction ...``: the suite's own commands (miss attribution, seed 000 §16)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from assay.cli.state import claims_stdout, out, write_output
from assay.core.run import Run
from assay.tasks.extraction.misses import miss_table, recovery, run_misses


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
        fam.add_row(escape(family), str(count))
    console.print(fam)
    for m in misses[:top]:
        line = f"  [{m.kind}] {m.doc_id} · {m.field} · {m.family}: {m.span[:90]!r}"
        console.print(escape(line))
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
