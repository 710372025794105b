"""``assay demo``: the main job end to end on example data we write ourselves."""

from __future__ import annotations

import json
from pathlib import Path

import click

from assay.cli.state import LazyProgress, err, out
from assay.compare.comparison import compare
from assay.core.scoring import score
from assay.examples import write_classification_demo
from assay.report.console import print_comparison, print_run, print_warnings


@click.command("demo")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    default=Path("assay-demo"),
    show_default=True,
    help="where the example data and artifacts go",
)
@click.option(
    "--items",
    "n_items",
    type=click.IntRange(min=20),
    default=400,
    show_default=True,
    help="number of documents",
)
def demo_command(out_dir: Path, n_items: int) -> None:
    """Score two classification runs on synthetic gold and compare them with significance."""
    console = out()
    files = write_classification_demo(out_dir, n_items=n_items)
    console.print(f"example data written to {out_dir}/ (gold, baseline and candidate runs)\n")
    runs = []
    for name, pred in (("baseline", files.baseline), ("candidate", files.candidate)):
        with LazyProgress(f"scoring {name}") as progress:
            run = score(
                "classification",
                pred=pred,
                gold=files.gold,
                name=name,
                expected_ids=files.expected_ids,
                positive="contract",
                progress=progress,
            )
        run.save(out_dir / f"{name}.run.json")
        print_run(console, run)
        print_warnings(err(), run.warnings)
        console.print()
        runs.append(run)
    comparison = compare(runs[1], runs[0], significance=True)
    print_comparison(console, comparison, tiers=("headline", "core"))
    print_warnings(err(), comparison.warnings)
    cmp_path = out_dir / "comparison.json"
    cmp_path.write_text(json.dumps(comparison.to_json(), indent=2) + "\n", encoding="utf-8")
    console.print("artifacts:")
    for path in (out_dir / "baseline.run.json", out_dir / "candidate.run.json", cmp_path):
        console.print(f"  {path}")
    console.print(
        "\nnext: assay compare "
        f"{out_dir}/candidate.run.json {out_dir}/baseline.run.json --significance --method ar\n"
        f"      assay gate {out_dir}/candidate.run.json --threshold 0.75"
    )
