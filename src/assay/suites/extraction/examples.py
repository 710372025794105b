"""Synthetic contract extractions for suites/extraction/docs.md: gold, two models, source documents.

``write_demo(out)`` writes, deterministically (a fixed seed, no third-party data):

- ``gold.jsonl``: 30 CUAD-shaped gold objects (document name, parties, dates, governing law,
  contract value, notice period, key obligations) with their CUAD categories;
- ``contracts/<id>.txt``: each contract's text, which states every gold value;
- ``preds.jsonl`` (a baseline) and ``candidate.jsonl`` (a better model): the answers LLMs give —
  other date formats, "Corporation" for "Corp", a clause returned together with its neighbour,
  a party from another contract sharing only a corporate suffix, a missed or invented item, one
  answer that is not JSON;
- ``extraction.yaml``: the field types and CUAD categories of these contracts.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

NAMES = ("Acme", "Zenith", "Borealis", "Quanta", "Lumen", "Harbor", "Vertex", "Orchid",
         "Cobalt", "Meridian", "Summit", "Pioneer")  # fmt: skip
SUFFIXES = ("Corp", "Inc", "LLC", "Ltd")
LONG_SUFFIX = {"Corp": "Corporation", "Inc": "Incorporated", "LLC": "LLC", "Ltd": "Limited"}
KINDS = ("Supply Agreement", "License Agreement", "Distributor Agreement", "Services Agreement")
STATES = ("New York", "Delaware", "California", "Texas")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")  # fmt: skip
OBLIGATIONS = (
    "{a} grants {b} a non-exclusive license to use the Software in the Territory.",
    "{b} shall pay {a} a royalty of five percent of Net Sales each quarter.",
    "{b} shall purchase a minimum of 1,000 units per calendar year.",
    "{a} may audit the books and records of {b} once per year on thirty days notice.",
    "Neither party may assign this Agreement without the prior written consent of the other.",
)
CONFIG = """\
extraction:
  doc_class: contract
  field_types:
    document_name: name
    parties: entity_list:name
    effective_date: date
    expiration_date: date
    governing_law: containment
    contract_value: money
    notice_period: duration
    key_obligations: entity_list:free_text
  partial_gt_fields: [parties, key_obligations]
  category_fields:
    License Grant: key_obligations
    Minimum Commitment: key_obligations
    Audit Rights: key_obligations
"""
CATEGORY_OF = {0: "License Grant", 2: "Minimum Commitment", 3: "Audit Rights"}


def _jsonl(path: Path, rows: Sequence[dict[str, Any]]) -> Path:
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows), "utf-8"
    )
    return path


def _contract(i: int, rng: random.Random) -> dict[str, Any]:
    a_name, b_name = rng.sample(NAMES, 2)
    a = f"{a_name} {rng.choice(SUFFIXES)}"
    b = f"{b_name} {rng.choice(SUFFIXES)}"
    year, month, day = 2010 + i % 12, rng.randrange(1, 13), rng.randrange(1, 28)
    obligations = [
        t.format(a=a, b=b) for k, t in enumerate(OBLIGATIONS) if k == 0 or rng.random() < 0.7
    ]
    gold = {
        "document_name": rng.choice(KINDS).upper(),
        "parties": [a, b],
        "effective_date": f"{month}/{day}/{year}",
        "expiration_date": f"{month}/{day}/{year + rng.choice((2, 3, 5))}",
        "governing_law": rng.choice(STATES),
        "contract_value": f"${rng.randrange(50, 900) * 1000:,}",
        "notice_period": f"{rng.choice((30, 60, 90))} days",
        "key_obligations": obligations,
    }
    categories = {
        cat: [t.format(a=a, b=b)] if t.format(a=a, b=b) in obligations else []
        for k, cat in CATEGORY_OF.items()
        for t in [OBLIGATIONS[k]]
    }
    return {"id": f"contract-{i:02d}", "doc_class": "contract", "expected": gold,
            "categories": categories}  # fmt: skip


def _source(g: dict[str, Any]) -> str:
    e = g["expected"]
    m, d, y = (int(x) for x in e["effective_date"].split("/"))
    return "\n\n".join(
        [
            e["document_name"],
            f"This {e['document_name'].title()} is entered into as of {MONTHS[m - 1]} {d}, {y} "
            f'by and between {e["parties"][0]} ("Licensor") and {e["parties"][1]} ("Licensee").',
            *e["key_obligations"],
            f"The total fees payable under this Agreement are {e['contract_value']}.",
            f"This Agreement expires on {e['expiration_date']} unless renewed; either party may "
            f"terminate it on {e['notice_period']} prior written notice.",
            f"This Agreement shall be governed by the laws of the State of {e['governing_law']}.",
        ]
    )


def _answer(g: dict[str, Any], rng: random.Random, skill: float, other: dict[str, Any]) -> Any:
    """A model's extraction of one contract; ``skill`` is the share of values it gets right."""
    e = g["expected"]
    m, d, y = (int(x) for x in e["effective_date"].split("/"))

    def ok() -> bool:
        return rng.random() < skill

    a, b = e["parties"]
    a_long = " ".join([*a.split()[:-1], LONG_SUFFIX[a.split()[-1]]])
    parties = [a_long if ok() else a, b] if ok() else [a, other["expected"]["parties"][1]]
    obligations = list(e["key_obligations"])
    if not ok() and len(obligations) > 1:
        # a clause returned together with its neighbour: still matched by token coverage
        obligations = [obligations[0] + " " + obligations[1], *obligations[2:]]
    if not ok():
        obligations = obligations[:-1]
    if not ok():
        obligations.append("Licensee shall indemnify Licensor against all third-party claims.")
    pred: dict[str, Any] = {
        "document_name": e["document_name"].title() if ok() else e["document_name"].split()[0],
        "parties": parties,
        "effective_date": f"{MONTHS[m - 1]} {d}, {y}" if ok() else f"{MONTHS[m - 1]} {y}",
        "expiration_date": e["expiration_date"] if ok() else None,
        "governing_law": f"the laws of the State of {e['governing_law']}" if ok() else "the State",
        "contract_value": e["contract_value"] if ok() else "$1,000",
        "notice_period": e["notice_period"] if ok() else "two months",
        "key_obligations": obligations,
    }
    return pred


def write_demo(out: Path) -> list[Path]:
    """Write the extraction demo into ``out``; return the files written."""
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(16)
    gold = [_contract(i, rng) for i in range(30)]
    sources = out / "contracts"
    sources.mkdir(exist_ok=True)
    written = [_jsonl(out / "gold.jsonl", gold)]
    for g in gold:
        path = sources / f"{g['id']}.txt"
        path.write_text(_source(g) + "\n", encoding="utf-8")
        written.append(path)
    for name, skill, seed in (("preds.jsonl", 0.7, 1), ("candidate.jsonl", 0.9, 2)):
        r = random.Random(seed)
        rows: list[dict[str, Any]] = [
            {"id": g["id"], "predicted": _answer(g, r, skill, gold[(k + 1) % len(gold)])}
            for k, g in enumerate(gold)
        ]
        if name == "preds.jsonl":
            rows[5]["predicted"] = "I could not read this contract."  # not JSON: a failed item
        written.append(_jsonl(out / name, rows))
    config = out / "extraction.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    written.append(config)
    return written
