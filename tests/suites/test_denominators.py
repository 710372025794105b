"""Every suite keeps missing and failed items in the denominator of every quality metric, as the
README promises: a common test over every registered suite (scikit-learn's ``test_common`` in
spirit: a new suite inherits the check, and fails it until it says how to spoil its example).

Each suite's example data (its ``examples.write_demo``) is scored as written (A) and with
``K`` items spoiled (B): their prediction dropped (a missing item) or its field given the wrong
type (a failed one). For every metric whose kind has a denominator (``mean``, ``ratio``,
``macro``, ``recall``, ``fbeta``), the denominator columns summed over the spoiled items must
not shrink from A to B. The exceptions are listed with their reason in ``EXEMPT``: values a
model reports about itself, ratios over what the model predicted, errors over pairs where both
parse, and the per-paper rules of seeds 002 and 003 (their docs pages say so).
"""

from __future__ import annotations

import importlib
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import pytest

import assay
from assay._engine.registry import available_tasks
from assay._engine.run import Run
from assay._settings import load_settings
from assay.metrics.spec import MetricSpec

K = 3


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _chosen(ids: list[str], every: int = 7) -> list[str]:
    """K ids spread over the file (every 7th from the second)."""
    return [i for n, i in enumerate(ids) if n % every == 1][:K]


def drop_rows(path: Path, out: Path) -> list[str]:
    """Drop K prediction records: K missing items."""
    rows = _rows(path)
    gone = _chosen([str(r["id"]) for r in rows])
    _write(out, [r for r in rows if r["id"] not in gone])
    return gone


def spoil_field(name: str) -> Callable[[Path, Path], list[str]]:
    """Give K records' prediction field ``name`` the wrong type (a list): K failed items."""

    def spoil(path: Path, out: Path) -> list[str]:
        rows = _rows(path)
        gone = _chosen([str(r["id"]) for r in rows])
        for r in rows:
            if r["id"] in gone:
                r[name] = [r.get(name)]
        _write(out, rows)
        return gone

    return spoil


@dataclass(frozen=True)
class Case:
    """How to score a suite's example (``pred``, ``gold`` relative to its folder) and spoil it."""

    pred: str
    spoil: Callable[[Path, Path], list[str]]
    gold: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    #: item ids of the spoiled ones, from the ids the spoiler returned (default: the same)
    item_ids: Callable[[Run, list[str]], list[str]] = lambda run, gone: gone
    #: the spoiled items are missing or failed in the cohort (a translation whose entry holds
    #: an error is an item scored as an empty hypothesis, not a failed item)
    in_cohort: bool = True


def _translation_errors(path: Path, out: Path) -> list[str]:
    """K entries of the run log turned into failed translations (predicted null, an error)."""
    log = json.loads(path.read_text(encoding="utf-8"))
    gone = _chosen([str(e["id"]) for e in log["entries"]])
    for e in log["entries"]:
        if e["id"] in gone:
            e["predicted"], e["error"] = None, "timeout"
    out.write_text(json.dumps(log), encoding="utf-8")
    return gone


def _promptfoo_failures(path: Path, out: Path) -> list[str]:
    """K tests of a promptfoo output (items by ``testIdx``) given a grading result of the wrong
    type: K failed items."""
    data = json.loads(path.read_text(encoding="utf-8"))
    results = data["results"]["results"]
    gone = _chosen(list(dict.fromkeys(str(r["testIdx"]) for r in results)))
    for r in results:
        if str(r["testIdx"]) in gone:
            r["gradingResult"] = ["not a grading result"]
    out.write_text(json.dumps(data), encoding="utf-8")
    return gone


def _drop_files(path: Path, out: Path) -> list[str]:
    """Copy a prediction folder without up to K of its entries (papers: missing items)."""
    shutil.copytree(path, out)
    entries = sorted(out.iterdir())
    gone = _chosen([p.name for p in entries], every=2)
    for p in entries:
        if p.name in gone:
            shutil.rmtree(p) if p.is_dir() else p.unlink()
    return [Path(g).stem for g in gone]


def _stem_items(run: Run, gone: list[str]) -> list[str]:
    return [i for i in run.item_ids() if any(i == g or i.startswith(g) for g in gone)]


CASES: dict[str, Case] = {
    "classification": Case("candidate.jsonl", drop_rows, gold="gold.jsonl"),
    "legalbench": Case("answers.jsonl", drop_rows, gold="gold.jsonl"),
    "multiclass": Case("docclass_merged.jsonl", spoil_field("predicted")),
    "docclass": Case("docclass_merged.jsonl", spoil_field("predicted")),
    "subtype": Case("subtype.jsonl", spoil_field("predicted")),
    "maud": Case("maud-rows.jsonl", drop_rows, gold="maud-gold.jsonl"),
    "chained": Case("pred-handoff.jsonl", spoil_field("doc_type")),
    "contracteval": Case("rows-a.jsonl", spoil_field("output")),
    "extraction": Case(
        "candidate.jsonl", drop_rows, gold="gold.jsonl", options={"config": "extraction.yaml"}
    ),
    "translation": Case("a.json", _translation_errors, in_cohort=False),
    "biblio": Case(
        "pred-assay",
        _drop_files,
        gold="gold",
        options={"expected_ids": "expected.json"},
        item_ids=_stem_items,
    ),
    "claims": Case("extracted-v1", _drop_files, gold="reference", item_ids=_stem_items),
    "scores": Case(
        "promptfoo/after.json",
        _promptfoo_failures,
        options={"source": "promptfoo"},
        in_cohort=False,
    ),
}

#: suite → metric name patterns (fnmatch) whose denominators may leave spoiled items out, and why
EXEMPT: dict[str, dict[str, str]] = {
    "*": {"macro_accuracy_usable": "seed 000 §2's figure, failed rows excluded, kept by name"},
    "docclass": {"confidence": "model-reported: an item without an answer reports none"},
    "maud": {"confidence": "model-reported: an item without an answer reports none"},
    "subtype": {"confidence": "model-reported: an item without an answer reports none"},
    "chained": {
        "sorter_confidence": "model-reported",
        "extractor_*": "the extractor's own trackers, means where it reported (docs: chained)",
    },
    "extraction": {
        "*precision*": "over what the model predicted: no prediction, nothing to be precise about",
        "*_mae*": "over pairs where both values parse",
    },
    "translation": {
        "exact_match_rate": "seed 001: over non-error entries (an error entry is counted by "
        "error_rate and still scored by chrF, BLEU and TER; docs: translation)",
    },
    "biblio": {
        "*": "seed 002 / bibr: a missing paper is 0.0 on the floor metrics, left out of the "
        "other means (docs: biblio)",
    },
    "claims": {
        "*": "seed 003: a paper that failed is counted by `failure` and left out of the means "
        "(docs: claims)",
    },
}


def denominator(spec: MetricSpec, row: dict[str, float]) -> float | None:
    """The item's share of the metric's denominator; None for a kind without one here."""
    c, get = spec.columns, (lambda name: row.get(name, 0.0))
    if spec.kind in ("mean", "ratio"):
        return get(c[1])
    if spec.kind == "macro":
        return sum(get(x) for x in c[1::2])
    if spec.kind == "recall":
        return get(c[0]) + get(c[1])
    if spec.kind == "fbeta":
        return get(c[0]) + get(c[2])  # tp + fn: the gold positives
    return None  # precision (prediction-defined) and the suites' own kinds


def _exempt(suite: str, name: str) -> bool:
    patterns = [*EXEMPT["*"], *EXEMPT.get(suite, {})]
    return any(fnmatchcase(name, pattern) for pattern in patterns)


def _score(suite: str, case: Case, folder: Path, pred: Path) -> Run:
    options = {
        k: (folder / v if k in ("config", "expected_ids") else v) for k, v in case.options.items()
    }
    settings = load_settings(options.pop("config")) if "config" in options else None
    expected_ids = options.pop("expected_ids", None)
    gold = folder / case.gold if case.gold else None
    return assay.score(
        suite,
        pred=pred,
        gold=gold,
        expected_ids=expected_ids,
        settings=settings,
        ci=False,
        **options,
    )


def test_every_suite_has_a_case() -> None:
    missing = sorted(set(available_tasks()) - set(CASES))
    assert not missing, (
        f"suite(s) {missing}: add how to spoil their example to CASES (and any metric that "
        "may leave failed items out of its denominator, with the reason, to EXEMPT)"
    )


@pytest.mark.parametrize("suite", sorted(CASES))
def test_failed_and_missing_items_stay_in_every_denominator(tmp_path: Path, suite: str) -> None:
    case = CASES[suite]
    folder = tmp_path / "demo"
    importlib.import_module(f"assay.suites.{suite}.examples").write_demo(folder)
    a = _score(suite, case, folder, folder / case.pred)
    spoiled = tmp_path / ("spoiled" + Path(case.pred).suffix)
    gone = case.spoil(folder / case.pred, spoiled)
    b = _score(suite, case, folder, spoiled)
    ids = case.item_ids(a, gone)
    assert ids and len(ids) == len(gone), (ids, gone)
    if case.in_cohort:
        assert b.cohort.missing + b.cohort.failed >= len(ids)
    rows_a, rows_b = _rows_of(a, ids), _rows_of(b, ids)
    specs_b = {s.name: s for s in b.metric_specs()}
    dropped = []
    for spec in a.metric_specs():
        if _exempt(suite, spec.name) or spec.name not in specs_b:
            continue
        before = [denominator(spec, r) for r in rows_a]
        after = [denominator(specs_b[spec.name], r) for r in rows_b]
        if any(x is None for x in before + after):
            continue
        if sum(after) < sum(before):  # type: ignore[arg-type]
            dropped.append(f"{spec.name} ({sum(before)} -> {sum(after)})")  # type: ignore[arg-type]
    assert not dropped, f"{suite}: spoiled items leave the denominator of {dropped}"


def _rows_of(run: Run, ids: list[str]) -> list[dict[str, float]]:
    table = run.table()
    at = {i: n for n, i in enumerate(table.ids)}
    return [dict(zip(table.columns, table.values[at[i]].tolist(), strict=True)) for i in ids]
