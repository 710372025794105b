"""The synthetic legal corpus every legal suite's example data is drawn from (no third-party
data): 30 contracts with CUAD-like clauses, and the answers of made-up models to them.

One seeded stream (:data:`SEED`) draws, in this order, the contracts, the LegalBench answers, the
sorter's subtype answers and the doc-class rows; that order fixes every byte ``assay demo legal``
writes, so these draws stay together here, below the suites. Each suite's ``examples.py`` writes
its own files from :func:`corpus` (ContractEval's answers and the chained rows are drawn from
their own seeds there); ``assay demo legal`` calls every suite's writer into one folder.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the seed of the one stream the shared draws come from
SEED = 16
#: CUAD folder name, subtype key, the label a sorter answers with
FOLDERS = (
    ("License_Agreements", "license", "License Agreement"),
    ("Distributor", "distributor", "Distributor Agreement"),
    ("Supply", "supply", "Supply Agreement"),
    ("Franchise", "franchise", "Franchise Agreement"),
    ("Affiliate_Agreements", "affiliate", "Affiliate Agreement"),
    ("Joint Venture _ Filing", "joint_venture", "Joint Venture Agreement"),
    ("Consulting_Agreements", "consulting", "Consulting Agreement"),
    ("Non_Compete_Non_Solicit", "non_compete_no_solicit", "Non-Compete Agreement"),
)
#: CUAD category → the clause a contract holding it has (``{state}``, ``{a}``, ``{b}`` filled in)
CLAUSES = {
    "Governing Law": "This Agreement shall be governed by the laws of the State of {state}.",
    "Anti-Assignment": "Neither party may assign this Agreement without the prior written "
    "consent of the other party.",
    "Audit Rights": "{a} may audit the books and records of {b} once per calendar year.",
    "Cap on Liability": "In no event shall either party's liability exceed the fees paid in the "
    "twelve months preceding the claim.",
    "Exclusivity": "{b} shall purchase the Products exclusively from {a} in the Territory.",
    "Non-Compete": "{b} shall not sell competing products during the Term.",
}
STATES = ("New York", "Delaware", "California", "Texas", "Ontario")
COMPANIES = ("Acme Corp", "Zenith LLC", "Borealis Inc", "Quanta Holdings", "Lumen Ltd",
             "Harbor Partners LP", "Vertex Systems Inc", "Orchid Labs Corp")  # fmt: skip
CONSIDERATION = ("All Cash", "All Stock", "Mixed Cash & Stock", "Mixed Cash & Stock (Election)")


def write_jsonl(path: Path, rows: Sequence[dict[str, Any]]) -> Path:
    """``rows`` as JSON lines (keys sorted, UTF-8 kept); returns ``path``."""
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows), "utf-8"
    )
    return path


def contracts(rng: random.Random, n: int) -> list[dict[str, Any]]:
    """``n`` contracts ``{name, folder, parties, clauses}``, each CUAD category present with
    probability 0.6 (its one clause) or absent (``[]``)."""
    out = []
    for i in range(n):
        folder = FOLDERS[i % len(FOLDERS)]
        a, b = rng.sample(COMPANIES, 2)
        present = {c: rng.random() < 0.6 for c in CLAUSES}
        clauses = {
            c: [t.format(state=rng.choice(STATES), a=a, b=b)] if present[c] else []
            for c, t in CLAUSES.items()
        }
        out.append({"name": f"{a.split()[0].upper()}_{2000 + i}_EX-10_{folder[2].upper()}",
                    "folder": folder, "parties": (a, b), "clauses": clauses})  # fmt: skip
    return out


def legalbench_rows(rng: random.Random, n: int) -> list[dict[str, Any]]:
    """LegalBench hearsay rows ``{id, answer, predicted}``: right with a trailing dot, right as
    "1.0"/"0.0", wrong, or an ``ERROR:`` row."""
    rows = []
    for i in range(n):
        gold = rng.choice(("Yes", "No"))
        other = "No" if gold == "Yes" else "Yes"
        k = rng.random()
        answer = (gold + "." if k < 0.6 else {"Yes": "1.0", "No": "0.0"}[gold] if k < 0.75
                  else other if k < 0.93 else "ERROR: timeout")  # fmt: skip
        rows.append({"id": f"hearsay-{i:03d}", "answer": gold, "predicted": answer})
    return rows


def sorter_rows(rng: random.Random, docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A sorter's answer per contract against its CUAD folder: the right label, "other", or a
    random subtype key."""
    rows = []
    for d in docs:
        folder, _, label = d["folder"]
        r = rng.random()
        predicted = label if r < 0.7 else ("other" if r < 0.8 else rng.choice(FOLDERS)[1])
        rows.append({"id": d["name"], "expected": folder, "doc_type": "contract",
                     "predicted": predicted, "confidence": round(0.5 + r / 2, 2)})  # fmt: skip
    return rows


def docclass_rows(rng: random.Random, n: int) -> tuple[list[dict[str, Any]], ...]:
    """Doc-class rows: every row with doc_type and subclass in one record, and the merger
    agreements' gold and answers apart in MAUD's field names."""
    merged, gold, pred = [], [], []
    for i in range(n):
        merger = i % 3 != 0
        sub = rng.choice(CONSIDERATION) if merger else None
        doc = "merger_agreement" if merger else "contract"
        doc_pred = doc if rng.random() < 0.9 else ("contract" if merger else "merger_agreement")
        sub_pred = sub if sub and rng.random() < 0.75 else rng.choice(CONSIDERATION)
        rid = f"dc-{i:03d}"
        merged.append({"id": rid, "expected": doc, "expected_subclass": sub,
                       "predicted": doc_pred, "predicted_subclass": sub_pred if merger else None,
                       "confidence": 0.8, "input_mode": "text"})  # fmt: skip
        if merger:
            gold.append({"id": rid, "expected": doc, "expected_consideration": sub})
            pred.append({"id": rid, "predicted": doc_pred, "predicted_consideration": sub_pred,
                         "confidence": 0.8})  # fmt: skip
    return merged, gold, pred


@dataclass(frozen=True)
class DemoCorpus:
    """The shared draws, in the order the stream makes them."""

    contracts: list[dict[str, Any]]
    legalbench: list[dict[str, Any]]
    sorter: list[dict[str, Any]]
    docclass_merged: list[dict[str, Any]]
    maud_gold: list[dict[str, Any]]
    maud_rows: list[dict[str, Any]]


def corpus() -> DemoCorpus:
    """The corpus, drawn afresh (the same every call): 30 contracts, 80 LegalBench rows, a sorter
    answer per contract, 60 doc-class rows (40 merger agreements)."""
    rng = random.Random(SEED)
    docs = contracts(rng, 30)
    legalbench = legalbench_rows(rng, 80)
    sorter = sorter_rows(rng, docs)
    merged, maud_gold, maud_rows = docclass_rows(rng, 60)
    return DemoCorpus(docs, legalbench, sorter, merged, maud_gold, maud_rows)
