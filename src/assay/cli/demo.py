"""``assay demo [SUITE]``: the main job end to end, or one suite's example data, on data we
write ourselves (``assay.examples``)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from assay.cli.state import LazyProgress, err, out
from assay.compare.comparison import compare
from assay.core.scoring import score
from assay.examples import write_classification_demo
from assay.report.console import print_comparison, print_run, print_warnings


def available_demos() -> list[str]:
    """Modules of ``assay.examples`` with a ``write_demo(out) -> list[Path]``: the suites."""
    import importlib
    import pkgutil

    import assay.examples

    names = []
    for info in pkgutil.iter_modules(assay.examples.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"assay.examples.{info.name}")
        if callable(getattr(module, "write_demo", None)):
            names.append(info.name)
    return sorted(names)


def write_suite_demo(suite: str, out_dir: Path) -> list[Path]:
    """``assay.examples.<suite>.write_demo(out_dir)``; an unknown suite is a usage error."""
    import importlib

    available = available_demos()
    if suite not in available:
        raise click.UsageError(
            f"no demo for {suite!r}; available: {', '.join(available) or 'none'}"
        )
    module = importlib.import_module(f"assay.examples.{suite}")
    written: list[Path] = module.write_demo(out_dir)
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
