"""Synthetic inputs for every legal suite's documented commands (docs/legal.md).

``write_demo(out)`` writes, deterministically (a fixed seed, no third-party data):

- ``rows-a.jsonl`` / ``rows-b.jsonl``: ContractEval rows of two models over the same 30 contracts
  × 6 CUAD categories (``rows.jsonl`` is model A's), with verbatim, trimmed, missing and lazy
  "No related clause." answers;
- ``master_clauses_sample.csv``: a CUAD-shaped master-clauses file (Filename, category and
  ``-Answer`` columns) for ``assay legal contracteval-rows``;
- ``hearsay-answers.jsonl`` (gold and answers in one file), ``answers.jsonl`` + ``gold.jsonl``
  (LegalBench, apart);
- ``subtype.jsonl``: sorter answers against CUAD folder names;
- ``docclass_merged.jsonl``, ``maud-rows.jsonl`` + ``maud-gold.jsonl`` (MAUD's label surface);
- ``pred-handoff.jsonl`` / ``gt-handoff.jsonl``: chained rows with the predicted-subtype and the
  ground-truth-subtype handoff.
"""

from __future__ import annotations

import csv
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

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


def _jsonl(path: Path, rows: Sequence[dict[str, Any]]) -> Path:
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows), "utf-8"
    )
    return path


def _contracts(rng: random.Random, n: int) -> list[dict[str, Any]]:
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


def _answer(rng: random.Random, spans: list[str], skill: float) -> str:
    """A model's ContractEval answer: verbatim, trimmed, lazy refusal or invented clause."""
    r = rng.random()
    if not spans:
        return "No related clause." if r < skill + 0.1 else "The parties shall cooperate."
    if r < skill:
        return "\n".join(spans)
    if r < skill + (1 - skill) / 2:
        return " ".join(spans[0].split()[: max(3, len(spans[0].split()) // 2)])
    return "No related clause."


def _contracteval(docs: list[dict[str, Any]], skill: float, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [
        {"id": f"{d['name']}__{cat}", "contract": d["name"], "category": cat,
         "gold_spans": spans, "output": _answer(rng, spans, skill)}
        for d in docs
        for cat, spans in d["clauses"].items()
    ]  # fmt: skip


def _master_csv(path: Path, docs: list[dict[str, Any]]) -> Path:
    cats = list(CLAUSES)
    header = ["Filename", "Parties", "Parties-Answer"]
    for c in cats:
        header += [c, f"{c}-Answer"]
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        for d in docs:
            a, b = d["parties"]
            row = [f"{d['name']}.pdf", repr([a, b]), f"{a}; {b}"]
            for c in cats:
                spans = d["clauses"][c]
                row += [repr(spans), "Yes" if spans else "No"]
            w.writerow(row)
    return path


def _legalbench(rng: random.Random, n: int) -> list[dict[str, Any]]:
    rows = []
    for i in range(n):
        gold = rng.choice(("Yes", "No"))
        other = "No" if gold == "Yes" else "Yes"
        k = rng.random()
        answer = (gold + "." if k < 0.6 else {"Yes": "1.0", "No": "0.0"}[gold] if k < 0.75
                  else other if k < 0.93 else "ERROR: timeout")  # fmt: skip
        rows.append({"id": f"hearsay-{i:03d}", "answer": gold, "predicted": answer})
    return rows


def _sorter(rng: random.Random, docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for d in docs:
        folder, _, label = d["folder"]
        r = rng.random()
        predicted = label if r < 0.7 else ("other" if r < 0.8 else rng.choice(FOLDERS)[1])
        rows.append({"id": d["name"], "expected": folder, "doc_type": "contract",
                     "predicted": predicted, "confidence": round(0.5 + r / 2, 2)})  # fmt: skip
    return rows


def _docclass(rng: random.Random, n: int) -> tuple[list[dict[str, Any]], ...]:
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


def _chained(rng: random.Random, docs: list[dict[str, Any]], truth: bool) -> list[dict[str, Any]]:
    rows = []
    for d in docs:
        folder, key, _ = d["folder"]
        right = truth or rng.random() < 0.75
        base = rng.uniform(0.55, 0.9)
        rows.append(
            {
                "id": d["name"],
                "expected_subtype": folder,
                "doc_type": "contract",
                "subtype": key if right else "other",
                "confidence": 0.8,
                "extractor_overall": round(base if right else base - 0.2, 4),
                "extractor_field_presence": 0.9,
                "extractor_verified_precision": 0.95,
                "extractor_category_presence": 0.8,
                "extractor_schema_valid": 1.0,
            }
        )
    return rows


def write_demo(out: Path) -> list[Path]:
    """Write the legal suites' demo inputs into ``out``; return the files written."""
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(16)
    docs = _contracts(rng, 30)
    rows_a = _contracteval(docs, 0.7, 1)
    written = [
        _jsonl(out / "rows-a.jsonl", rows_a),
        _jsonl(out / "rows-b.jsonl", _contracteval(docs, 0.85, 2)),
        _jsonl(out / "rows.jsonl", rows_a),
        _master_csv(out / "master_clauses_sample.csv", docs),
    ]
    lb = _legalbench(rng, 80)
    written.append(_jsonl(out / "hearsay-answers.jsonl", lb))
    written.append(_jsonl(out / "gold.jsonl", [{"id": r["id"], "answer": r["answer"]} for r in lb]))
    written.append(
        _jsonl(out / "answers.jsonl", [{"id": r["id"], "predicted": r["predicted"]} for r in lb])
    )
    written.append(_jsonl(out / "subtype.jsonl", _sorter(rng, docs)))
    merged, gold, pred = _docclass(rng, 60)
    written.append(_jsonl(out / "docclass_merged.jsonl", merged))
    written.append(_jsonl(out / "maud-gold.jsonl", gold))
    written.append(_jsonl(out / "maud-rows.jsonl", pred))
    written.append(_jsonl(out / "pred-handoff.jsonl", _chained(random.Random(5), docs, False)))
    written.append(_jsonl(out / "gt-handoff.jsonl", _chained(random.Random(5), docs, True)))
    return written
