"""``assay demo [SUITE]``: the main job end to end, or one suite's example data, on data we
write ourselves (each suite's ``examples`` module)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from assay._cli.state import LazyProgress, err, out
from assay._compare.comparison import compare
from assay._engine.scoring import score
from assay._report.console import print_comparison, print_run, print_warnings

#: ``assay demo NAME`` → the function writing that example data (``write(out) -> list[Path]``):
#: each suite's ``examples`` module, the legal suites' together (each legal suite's writer in
#: turn), and the analytics page's
DEMOS = {
    "analytics": "assay._cli.analytics_demo:write_demo",
    "biblio": "assay.suites.biblio.examples:write_demo",
    "claims": "assay.suites.claims.examples:write_demo",
    "classification": "assay.suites.classification.examples:write_demo",
    "extraction": "assay.suites.extraction.examples:write_demo",
    "legal": "assay._cli.legal:write_demo",
    "scale": "assay.suites.classification.examples:write_scale_demo",
    "scores": "assay.suites.scores.examples:write_demo",
    "translation": "assay.suites.translation.examples:write_demo",
}


def available_demos() -> list[str]:
    """The names ``assay demo NAME`` takes."""
    return sorted(DEMOS)


def write_suite_demo(suite: str, out_dir: Path) -> list[Path]:
    """The example data ``suite`` names, written into ``out_dir``; an unknown name is a usage
    error listing the known ones."""
    import importlib

    if suite not in DEMOS:
        raise click.UsageError(f"no demo for {suite!r}; available: {', '.join(available_demos())}")
    module, _, function = DEMOS[suite].partition(":")
    written: list[Path] = getattr(importlib.import_module(module), function)(out_dir)
    return written


@click.command("demo")
@click.argument("suite", required=False)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    default=Path("assay-demo"),
    show_default=True,
    help="where the example data (and, without SUITE, the artifacts) go",
)
@click.option(
    "--items",
    "n_items",
    type=click.IntRange(min=20),
    default=400,
    show_default=True,
    help="number of documents (the classification demo without SUITE)",
)
def demo_command(suite: str | None, out_dir: Path, n_items: int) -> None:
    """Score two classification runs on synthetic gold and compare them with significance.

    With SUITE, write that suite's example inputs into --out instead and list them (the
    data its docs page runs on); `assay demo nope` lists the suites that have one.
    """
    console = out()
    if suite is not None:
        if n_items != 400:
            raise click.UsageError("--items applies to the classification demo without SUITE")
        written = write_suite_demo(suite, out_dir)
        console.print(f"{suite} example data written to {out_dir}/:", markup=False)
        for path in written:
            console.print(f"  {path}", markup=False)
        return
    from assay.suites.classification.examples import write_classification_demo

    files = write_classification_demo(out_dir, n_items=n_items)
    console.print(f"example data written to {out_dir}/ (gold, baseline and candidate runs)\n")
    runs = []
    for name, pred in (("baseline", files.baseline), ("candidate", files.candidate)):
        with LazyProgress(name) as progress:
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
