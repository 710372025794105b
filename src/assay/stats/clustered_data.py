"""Real clustered evaluation data for the simulations (``assay.stats.simulation``).

Two public data sets whose items sit inside clusters, turned into two systems' statistics tables
(the same items, one cluster label per item):

* **CUAD v1** (``master_clauses.csv``: 510 contracts × 41 clause categories; a category is
  present when its context cell is not ``[]``). Items are (contract, category) pairs, clustered
  by contract. System A is the *no-clause* baseline (predicts every clause absent); system B a
  classifier with contract effects: it predicts category c present in a contract when c's base
  rate, scaled by how many *other* categories the contract has (over their mean), reaches 1/2
  (a contract with many clauses is predicted to have more). Metrics: accuracy (correct / items),
  macro-F1 over the classes present/absent, clause micro-F1 (tp, fp, fn pooled: the
  per-document field F1 of an extraction run, fields = categories) and macro-F1 over the 41
  categories (each category's F1 of "present", averaged).
* **WMT22 cs-en** (1,448 segments in 137 documents, ``*.docids.tsv``): each system's per-segment
  chrF++ statistics against reference B (sacrebleu's counts, ``assay.metrics.corpus``); the
  corpus chrF++ is ``finalize(Σ rows)``. Systems A and B are two of the submitted outputs.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assay.errors import InputError
from assay.metrics.spec import MetricSpec, fbeta_metric, ratio_metric
from assay.metrics.table import StatsTable

#: where each data set lies under the shared data folder
CUAD_CSV = Path("legal") / "cuad" / "master_clauses.csv"
WMT22_CS_EN = Path("mt") / "wmt22" / "cs-en"
WMT22_PREFIX = "generaltest2022.cs-en"


@dataclass(frozen=True)
class ClusteredData:
    """Two systems scored on the same items; ``labels[i]`` is item i's cluster."""

    name: str
    unit: str
    table_a: StatsTable
    table_b: StatsTable
    labels: tuple[str, ...]
    specs: tuple[MetricSpec, ...]

    @property
    def n_clusters(self) -> int:
        return len(set(self.labels))


def cuad_presence(path: Path) -> tuple[list[str], list[str], np.ndarray]:
    """(contract names, the 41 categories, presence matrix contracts × categories of 0/1)."""
    if not path.is_file():
        raise InputError(f"{path}: no CUAD master_clauses.csv here")
    csv.field_size_limit(1 << 28)
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        header = reader.fieldnames or []
        categories = [c for c in header if c != "Filename" and not c.endswith("-Answer")]
        names, rows = [], []
        for k, row in enumerate(reader):
            names.append(row.get("Filename") or f"contract-{k}")
            rows.append([row[c].strip() not in ("", "[]") for c in categories])
    return names, categories, np.asarray(rows, dtype=np.float64)


def _cuad_table(
    names: list[str], categories: list[str], truth: np.ndarray, pred: np.ndarray
) -> StatsTable:
    """One row per (contract, category): correct, items, tp/fp/fn/tn of the clause, and the
    category's own tp[c]/fp[c]/fn[c] triple (zeros in the other categories' triples)."""
    m, c = truth.shape
    t, p = truth.reshape(-1), pred.reshape(-1)
    tp, fp, fn = t * p, (1 - t) * p, t * (1 - p)
    per_class = np.zeros((m * c, 3 * c))
    cat = np.tile(np.arange(c), m)
    rows = np.arange(m * c)
    per_class[rows, 3 * cat] = tp
    per_class[rows, 3 * cat + 1] = fp
    per_class[rows, 3 * cat + 2] = fn
    columns = (
        "correct",
        "items",
        "tp",
        "fp",
        "fn",
        "tn",
        *(f"{part}[{j}]" for j in range(c) for part in ("tp", "fp", "fn")),
    )
    tn = (1 - t) * (1 - p)
    values = np.column_stack([(t == p), np.ones(m * c), tp, fp, fn, tn, per_class])
    ids = tuple(f"{k}/{j}" for k in range(m) for j in range(c))
    return StatsTable(ids, columns, values.astype(np.float64))


def cuad_specs(n_categories: int) -> tuple[MetricSpec, ...]:
    triples = tuple(f"{part}[{j}]" for j in range(n_categories) for part in ("tp", "fp", "fn"))
    """accuracy; macro-F1 over the classes present/absent (what a binary classification run
    reports: each class's F1, the absent class's tp = tn, fp = fn, fn = fp); clause micro-F1;
    and the harder macro-F1 over the categories (each category's F1 of "present")."""
    return (
        ratio_metric("accuracy", "correct", "items"),
        MetricSpec(
            "macro_f1", "macro_fbeta", ("tp", "fp", "fn", "tn", "fn", "fp"), params={"beta": 1.0}
        ),
        fbeta_metric("clause_f1", "tp", "fp", "fn"),
        MetricSpec("category_macro_f1", "macro_fbeta", triples, params={"beta": 1.0}),
    )


def cuad_classifier(truth: np.ndarray) -> np.ndarray:
    """The classifier with contract effects (module docstring): predicts c present when
    rate[c] · others / mean(others) ≥ 1/2, others = the contract's other present categories."""
    rate = truth.mean(axis=0)
    others = truth.sum(axis=1, keepdims=True) - truth
    predicted: np.ndarray = (rate * others / others.mean() >= 0.5).astype(np.float64)
    return predicted


def cuad(shared_data: Path) -> ClusteredData:
    """CUAD: A = no-clause baseline, B = the classifier with contract effects."""
    names, categories, truth = cuad_presence(shared_data / CUAD_CSV)
    labels = tuple(n for n in names for _ in categories)
    return ClusteredData(
        name="CUAD clauses in contracts",
        unit="contract",
        table_a=_cuad_table(names, categories, truth, np.zeros_like(truth)),
        table_b=_cuad_table(names, categories, truth, cuad_classifier(truth)),
        labels=labels,
        specs=cuad_specs(len(categories)),
    )


def _lines(path: Path) -> list[str]:
    if not path.is_file():
        raise InputError(f"{path}: no such WMT22 file")
    return path.read_text(encoding="utf-8").splitlines()


def wmt22_cs_en(
    shared_data: Path, system_a: str = "Online-B", system_b: str = "CUNI-Transformer"
) -> ClusteredData:
    """WMT22 cs-en: per-segment chrF++ statistics of two systems against reference B,
    clustered by document (``*.docids.tsv``)."""
    from assay.metrics.corpus.sufficient import (
        SEGMENTS_COLUMN,
        chrf_metric,
        extract_systems,
        n_references,
    )

    folder = shared_data / WMT22_CS_EN
    refs = [(r,) for r in _lines(folder / f"{WMT22_PREFIX}.ref.B.en")]
    systems = [_lines(folder / f"{WMT22_PREFIX}.hyp.{s}.en") for s in (system_a, system_b)]
    docs = [line.split("\t")[1] for line in _lines(folder / f"{WMT22_PREFIX}.docids.tsv")]
    if not len(refs) == len(docs) == len(systems[0]) == len(systems[1]):
        raise InputError(f"{folder}: references, documents and systems differ in length")
    metric = chrf_metric(word_order=2)
    blocks = extract_systems(metric, systems, refs)
    ids = tuple(str(i + 1) for i in range(len(refs)))
    columns = (*metric.columns, SEGMENTS_COLUMN)
    ones = np.ones((len(refs), 1))
    tables = [StatsTable(ids, columns, np.hstack([b, ones])) for b in blocks]
    spec = metric.spec(metric.signature(n_references(refs)))
    return ClusteredData(
        name=f"WMT22 cs-en segments in documents ({system_a} vs {system_b})",
        unit="document",
        table_a=tables[0],
        table_b=tables[1],
        labels=tuple(docs),
        specs=(spec,),
    )
