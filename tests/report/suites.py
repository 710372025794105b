"""Two scored runs per suite that has example data (``assay demo SUITE``), made the way the
suite's docs page makes them (the CLI, in process): the per-item views of every suite are
rendered and screenshotted from these (tests/report/test_report_suites.py and
tests/dashboard/test_dashboard_suites.py)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay._cli import main
from assay._engine.run import Run
from assay._report.html import disagreements


@dataclass(frozen=True)
class SuiteRuns:
    """A suite's candidate (A) and baseline (B) runs on the same items; B is None where the
    demo has one system's answers only."""

    suite: str
    a: Run
    b: Run | None


@contextmanager
def _cwd(folder: Path) -> Iterator[None]:
    old = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(old)


def _cli(args: Sequence[str]) -> None:
    code = main(list(args))
    assert code == 0, f"assay {' '.join(args)} exited {code}"


def _demo(suite: str, folder: Path) -> Path:
    data = folder / suite
    _cli(["demo", suite, "--out", str(data)])
    return data


def _pair(
    data: Path, a: Sequence[str], b: Sequence[str] | None, out: str = "-o"
) -> tuple[Run, Run | None]:
    with _cwd(data):
        _cli([*a, out, "a.run.json"])
        if b is None:
            return Run.load(data / "a.run.json"), None
        _cli([*b, out, "b.run.json"])
    return Run.load(data / "a.run.json"), Run.load(data / "b.run.json")


def _biblio(folder: Path) -> tuple[Run, Run]:
    data = _demo("biblio", folder)
    common = ["--gold-dirs", "gold", "--expected-ids", "expected.json", "--no-store", "--no-ci"]
    ev = ["biblio", "evaluate", "--results-dir"]
    with _cwd(data):
        _cli([*ev, "pred-bibr12", *common, "--run-output", "a.run.json"])
        _cli([*ev, "pred-assay", *common, "--run-output", "b.run.json"])
    return Run.load(data / "a.run.json"), Run.load(data / "b.run.json")


def _claims(folder: Path) -> tuple[Run, Run]:
    data = folder / "claims"
    from assay.suites.claims.examples import write_demo

    write_demo(data)
    ev = ["claims", "evaluate", "--reference", "reference", "--no-store", "--extracted"]
    with _cwd(data):
        _cli([*ev, "extracted-v2.jsonl", "-o", "a.run.json"])
        _cli([*ev, "extracted-v1", "-o", "b.run.json"])
    return Run.load(data / "a.run.json"), Run.load(data / "b.run.json")


def _classification(folder: Path) -> tuple[Run, Run]:
    data = _demo("classification", folder)
    score = ["score", "classification", "--gold", "gold.jsonl", "--no-store", "--pred"]
    return _pair(data, [*score, "candidate.jsonl"], [*score, "baseline.jsonl"])


def _extraction(folder: Path) -> tuple[Run, Run]:
    data = _demo("extraction", folder)
    score = ["score", "extraction", "--config", "extraction.yaml", "--gold", "gold.jsonl"]
    score += ["--source", "contracts/", "--no-store", "--pred"]
    return _pair(data, [*score, "candidate.jsonl"], [*score, "preds.jsonl"])


def _translation(folder: Path) -> tuple[Run, Run]:
    data = _demo("translation", folder)
    score = ["score", "translation", "--no-store", "--no-ci", "--pred"]
    return _pair(data, [*score, "a.json"], [*score, "b.json"])


def _legal(
    task: str, a: Sequence[str], b: Sequence[str] | None = None, out: str = "-o"
) -> Callable[[Path], tuple[Run, Run | None]]:
    def make(folder: Path) -> tuple[Run, Run | None]:
        import importlib

        data = folder / task
        importlib.import_module(f"assay.suites.{task}.examples").write_demo(data)
        return _pair(data, a, b, out)

    return make


_CE = ["legal", "contracteval", "--no-store", "--rows"]
_LB = ["score", "legalbench", "--no-store", "--pred", "hearsay-answers.jsonl"]
SUITES: dict[str, Callable[[Path], tuple[Run, Run | None]]] = {
    "biblio": _biblio,
    "claims": _claims,
    "classification": _classification,
    "extraction": _extraction,
    "translation": _translation,
    "contracteval": _legal(
        "contracteval", [*_CE, "rows-b.jsonl"], [*_CE, "rows-a.jsonl"], out="--output"
    ),
    "legalbench": _legal("legalbench", _LB),
    "subtype": _legal("subtype", ["score", "subtype", "--no-store", "--pred", "subtype.jsonl"]),
    "docclass": _legal(
        "docclass", ["score", "docclass", "--no-store", "--pred", "docclass_merged.jsonl"]
    ),
    "maud": _legal(
        "maud",
        ["score", "maud", "--no-store", "--pred", "maud-rows.jsonl", "--gold", "maud-gold.jsonl"],
    ),
    "chained": _legal(
        "chained", ["score", "chained", "--no-store", "--pred", "pred-handoff.jsonl"]
    ),
}


def suite_runs(suite: str, folder: Path) -> SuiteRuns:
    a, b = SUITES[suite](folder)
    return SuiteRuns(suite, a, b)


_MADE: dict[Path, dict[str, SuiteRuns]] = {}


def all_suite_runs(factory: Any) -> dict[str, SuiteRuns]:
    """Every suite's runs, made once per test session (``factory``: pytest's
    tmp_path_factory) for the report and the dashboard tests both."""
    base = factory.getbasetemp()
    if base not in _MADE:
        folder = factory.mktemp("suites")
        _MADE[base] = {name: suite_runs(name, folder) for name in SUITES}
    return _MADE[base]


# -- what the report and the dashboard both show (Playwright pages) --


def check_items(page: Any, runs: SuiteRuns) -> Any:
    """The assertions the report and the dashboard share, on the page's first run: a score
    histogram, the worst-first note, and the first item opened shows gold beside prediction
    with values on both sides, and we keep a screenshot of it."""
    items = page.locator("div.items").first
    assert items.locator("figure.hist").count() >= 1, runs.suite
    note = items.inner_text()
    assert "worst first by" in note or runs.a.cohort.evaluated == 0, note[:300]
    # the first scored item (failed and missing ones come first and have one side only)
    first = items.locator("details.item", has=page.locator("span.status-ok")).first
    first.locator("summary").click()
    sides = first_item_sides(first)
    assert sides, f"{runs.suite}: no gold/prediction in the first item"
    assert any(g not in ("", "—") for g, _ in sides), (runs.suite, sides)
    assert any(p not in ("", "—") for _, p in sides), (runs.suite, sides)
    return first


def first_item_sides(item: Any) -> list[tuple[str, str]]:
    """(gold, prediction) texts of an opened item: a field table's rows, or the pair."""
    rows = item.locator("table.fields tbody tr")
    if rows.count():
        out = []
        for i in range(rows.count()):
            cells = rows.nth(i).locator("td pre")
            out.append((cells.nth(0).inner_text().strip(), cells.nth(1).inner_text().strip()))
        return out
    pair = item.locator("div.pair pre")
    if pair.count() == 2:
        return [(pair.nth(0).inner_text().strip(), pair.nth(1).inner_text().strip())]
    return []


def check_disagreements(page: Any, runs: SuiteRuns) -> bool:
    """A comparison lists the items the runs disagree on, each with gold and both answers, or
    says that they agree on every item (biblio's demo: one system in two dialects). Returns
    whether there is a list."""
    assert runs.b is not None
    key, rows = disagreements(runs.a, runs.b)
    if not rows:
        assert key is not None
        assert f"A and B score every shared item the same on {key}" in page.inner_text("body")
        return False
    table = page.locator("table.disagree").first
    assert table.count(), f"{runs.suite}: no disagreement list"
    first = table.locator("tbody tr").first.locator("td")
    gold, pred_a, pred_b = (first.nth(i).inner_text().strip() for i in (5, 6, 7))
    assert "—" not in (gold, pred_a, pred_b), (runs.suite, gold, pred_a, pred_b)
    return True
