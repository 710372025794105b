"""Two scored runs per suite that has example data (``assay demo SUITE``), made the way the
suite's docs page makes them (the CLI, in process): the per-item views and the item tables
of every suite are rendered, driven and screenshotted from these
(tests/report/test_report_suites.py and tests/dashboard/test_dashboard_suites.py). Where a
demo has one system's answers only, the second run reads a copy with every fourth answer
replaced by the next record's (``_perturbed``), so every suite has a comparison."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay._cli import main
from assay._engine.run import Run


@dataclass(frozen=True)
class SuiteRuns:
    """A suite's candidate (``a``) and baseline (``b``) runs on the same items."""

    suite: str
    a: Run
    b: Run


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
    """The demo's pred-bibr12 as the candidate; as the baseline, a copy of it with one
    paper's title and DOI wrong (the demo's other systems answer the same in other
    dialects, so they would not move)."""
    import json
    import shutil

    data = _demo("biblio", folder)
    base = data / "pred-base"
    shutil.copytree(data / "pred-bibr12", base)
    paper = json.loads((base / "soil-002.json").read_text(encoding="utf-8"))
    paper["metadata"]["title"] = "Leaf litter in soils"
    paper["metadata"]["doi"] = "10.5555/demo.2021.999"
    (base / "soil-002.json").write_text(json.dumps(paper), encoding="utf-8")
    common = ["--gold-dirs", "gold", "--expected-ids", "expected.json", "--no-store", "--no-ci"]
    ev = ["biblio", "evaluate", "--results-dir"]
    with _cwd(data):
        _cli([*ev, "pred-bibr12", *common, "--run-output", "a.run.json"])
        _cli([*ev, "pred-base", *common, "--run-output", "b.run.json"])
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


def _perturbed(src: Path, dst: Path, fields: Sequence[str]) -> None:
    """A copy of the JSONL predictions ``src`` with every fourth record's ``fields`` taken
    from the next record: a second system that differs on some items."""
    import json

    rows = [json.loads(line) for line in src.read_text(encoding="utf-8").splitlines() if line]
    for i in range(1, len(rows), 4):
        nxt = rows[(i + 1) % len(rows)]
        for f in fields:
            if f in nxt:
                rows[i][f] = nxt[f]
    dst.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _legal(
    task: str, a: Sequence[str], b: Sequence[str] | None = None, out: str = "-o",
    perturb: tuple[str, Sequence[str]] | None = None,
) -> Callable[[Path], tuple[Run, Run | None]]:  # fmt: skip
    def make(folder: Path) -> tuple[Run, Run | None]:
        import importlib

        data = folder / task
        importlib.import_module(f"assay.suites.{task}.examples").write_demo(data)
        second = b
        if perturb is not None:  # the demo has one system: the baseline reads a changed copy
            name, fields = perturb
            _perturbed(data / name, data / f"b-{name}", fields)
            second = [f"b-{name}" if x == name else x for x in a]
        return _pair(data, a, second, out)

    return make


def _scores(folder: Path) -> tuple[Run, Run]:
    """Two Inspect logs of the scores suite's demo (the candidate's and the baseline's)."""
    data = _demo("scores", folder)
    score = ["score", "scores", "--from", "inspect", "--no-store", "--pred"]
    return _pair(data, [*score, "inspect/candidate.eval"], [*score, "inspect/baseline.eval"])


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
    "legalbench": _legal("legalbench", _LB, perturb=("hearsay-answers.jsonl", ["predicted"])),
    "subtype": _legal(
        "subtype",
        ["score", "subtype", "--no-store", "--pred", "subtype.jsonl"],
        perturb=("subtype.jsonl", ["predicted"]),
    ),
    "docclass": _legal(
        "docclass",
        ["score", "docclass", "--no-store", "--pred", "docclass_merged.jsonl"],
        perturb=("docclass_merged.jsonl", ["predicted", "predicted_subclass"]),
    ),
    "maud": _legal(
        "maud",
        ["score", "maud", "--no-store", "--pred", "maud-rows.jsonl", "--gold", "maud-gold.jsonl"],
        perturb=("maud-rows.jsonl", ["predicted", "predicted_consideration"]),
    ),
    "multiclass": _legal(
        "multiclass",
        ["score", "multiclass", "--no-store", "--pred", "docclass_merged.jsonl"],
        perturb=("docclass_merged.jsonl", ["predicted", "predicted_subclass"]),
    ),
    "scores": _scores,
    "chained": _legal(
        "chained",
        ["score", "chained", "--no-store", "--pred", "pred-handoff.jsonl"],
        perturb=("pred-handoff.jsonl", ["subtype", "doc_type", "extractor_overall"]),
    ),
}


def suite_runs(suite: str, folder: Path) -> SuiteRuns:
    a, b = SUITES[suite](folder)
    assert b is not None, suite
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


def check_items(scope: Any, page: Any, runs: SuiteRuns) -> Any:
    """The assertions the report and the dashboard share, on the first run in ``scope`` (a
    page or a part of it): a score histogram, the worst-first note, and the first item opened
    shows gold beside prediction with values on both sides, and we keep a screenshot of it."""
    items = scope.locator("div.items").first
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


# -- the item tables, driven in a browser (the report's script, the dashboard's forms) --


def expected_outcomes(runs: SuiteRuns, key: str, higher_is_better: bool) -> dict[str, int]:
    """How many shared items each run did better on, counted from the artifacts' item
    records (not through the item table's code): the counts a page must show."""
    by_id = {it.id: it for it in runs.b.items}
    counts = {"candidate": 0, "baseline": 0, "tie": 0}
    for it in runs.a.items:
        other = by_id.get(it.id)
        if other is None:
            continue
        x, y = it.scores.get(key), other.scores.get(key)
        if x is None or y is None:
            continue
        if abs(x - y) <= 5e-7:
            counts["tie"] += 1
        else:
            counts["candidate" if (x > y) == higher_is_better else "baseline"] += 1
    counts["moved"] = counts["candidate"] + counts["baseline"]
    return counts


def expected_statuses(runs: SuiteRuns, pair: bool) -> dict[str, int]:
    """Items per status filter, from the artifacts: a run's own status; for a pair, "ok" in
    both, else "missing" or "failed" in either."""
    if not pair:
        items = runs.a.items
        return {s: sum(1 for it in items if it.status == s) for s in ("ok", "missing", "failed")}
    by_id = {it.id: it for it in runs.b.items}
    both = [(it.status, by_id[it.id].status) for it in runs.a.items if it.id in by_id]
    return {
        "ok": sum(1 for s in both if s == ("ok", "ok")),
        "missing": sum(1 for s in both if "missing" in s),
        "failed": sum(1 for s in both if "failed" in s),
    }


class TableDriver:
    """One item table on a page: sets its filters as a user does (the report's script
    answers at once; the dashboard's form is submitted) and reads what it shows."""

    def __init__(self, page: Any, section: str, live: bool) -> None:
        self.page, self.section, self.live = page, section, live

    def _form(self) -> Any:
        return self.page.locator(f"#{self.section} form.triage-filters")

    SELECTS = frozenset({"status", "outcome", "metric", "part", "cluster"})

    def set(self, **values: str) -> None:
        form = self._form()
        for name, value in values.items():
            field = form.locator(f"[name={name}]")
            if name in self.SELECTS:
                field.select_option(value)
            else:
                field.fill(value)  # the script re-draws on input
        if not self.live:
            with self.page.expect_navigation():
                form.locator("button[type=submit]").click()

    def matched(self) -> int:
        count = self.page.locator(f"#{self.section} [data-count]")
        return int(count.get_attribute("data-matched"))

    def ids(self) -> list[str]:
        rows = f"#{self.section} table.items-table tbody tr[data-id]"
        ids: list[str] = self.page.eval_on_selector_all(rows, "rs => rs.map(r => r.dataset.id)")
        return ids

    def sort(self, column: str) -> None:
        link = self.page.locator(f"#{self.section} thead a[data-sort={column}]")
        if self.live:
            link.click()
        else:
            with self.page.expect_navigation():
                link.click()


def drive_table(driver: TableDriver, table: Any, runs: SuiteRuns, *, thorough: bool = True) -> int:
    """Every filter and sort of an item table, each count checked against the artifacts (the
    status and better-run filters) or the server's ``select`` (the rest: the script must
    agree with it rule for rule). ``thorough``: the better-run filter on two scores and every
    sort both ways; else (a dashboard page is a request a click) on the primary score and
    each sort one way, the value's both. A filter is cleared with the next one set (one
    request, not two). Returns how many checks ran."""
    from assay._report.triage import Query, select

    checks = 0
    pair = table.mode == "pair"
    clear: dict[str, str] = {"status": "", "q": ""} | ({"outcome": ""} if pair else {})
    if table.keys:
        clear |= {"metric": table.keys[0].key, "lo": "", "hi": ""}
    if table.parts:
        clear["part"] = ""

    def show(**values: str) -> int:
        nonlocal clear
        driver.set(**(clear | values))
        clear = {k: "" for k in values if k != "metric"}
        return driver.matched()

    statuses = expected_statuses(runs, pair)
    for status in ("ok", "missing", "failed"):
        assert show(status=status) == statuses[status], (runs.suite, status, statuses)
        checks += 1
    if pair and table.keys:
        for k in table.keys[: 2 if thorough else 1]:
            want = expected_outcomes(runs, k.key, k.higher_is_better)
            for outcome in ("candidate", "baseline", "tie", "moved"):
                got = show(metric=k.key, outcome=outcome)
                assert got == want[outcome], (runs.suite, k.key, outcome)
                checks += 1
        clear["metric"] = table.keys[0].key
    if table.keys:
        lo = 1e-6 if pair else 0.5
        assert show(lo=f"{lo:g}") == len(select(table, Query(lo=lo))), runs.suite
        checks += 1
    if table.parts:
        part = next(
            (p for p in table.parts if select(table, Query(part=p))), table.parts[0]
        )  # a part some row names
        assert show(part=part) == len(select(table, Query(part=part))), (runs.suite, part)
        checks += 1
    term = select(table, Query(outcome="moved" if pair else ""))[0].id[-6:]
    want = select(table, Query(q=term))
    assert show(q=term) == len(want) >= 1, (runs.suite, term)
    checks += 1
    assert show() == len(table.rows)
    columns = ["id", "status", "value"] + (["candidate", "baseline"] if pair else [])
    for column in columns:
        for desc in (False, True) if thorough or column == "value" else (False,):
            driver.sort(column)
            shown = driver.ids()
            first = select(table, Query(sort=column, desc=desc))[: len(shown)]
            assert shown == [r.id for r in first], (runs.suite, column, desc)
            checks += 1
    return checks
