"""Field-scoring pairs built from CUAD's real labels, for differential tests against a reference.

Standard library only, so the same module builds the same pairs in assay's environment and in a
scratch environment that has the reference package (llm-dojo-scoring v0.7.0) installed. A pair is
``(key, field_type, prediction, gold)``; keys are stable (``<kind>:<contract row>:<n>``), so the
reference's scores can be pinned by key without copying any CUAD text into the repository.

The predictions are what a model plausibly returns for a CUAD contract: the raw clause span where
the gold is CUAD's normalized answer (dates, governing law, the document name, party names), the
label of another contract (a wrong answer), or a formatting variant of the gold (money, dates).
"""

from __future__ import annotations

import ast
import csv
import re
from collections.abc import Iterator
from pathlib import Path

Pair = tuple[str, str, object, object]

DATE_COLUMNS = ("Agreement Date", "Effective Date", "Expiration Date")
CLAUSE_COLUMNS = (
    "License Grant",
    "Anti-Assignment",
    "Cap on Liability",
    "Audit Rights",
    "Minimum Commitment",
    "Revenue/Profit Sharing",
)
#: how far away the "other contract" of a wrong-answer pair is (row offsets, deterministic)
OFFSETS = (1, 7)
_MONEY = re.compile(r"\$\s?\d[\d,]*(?:\.\d{2})?(?:\s(?:million|thousand))?", re.IGNORECASE)
_MONTHS = [
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
]  # fmt: skip


def read_rows(master_clauses: Path) -> list[dict[str, str]]:
    """The 510 contracts of CUAD's master_clauses.csv, one dict per row."""
    with master_clauses.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def spans(row: dict[str, str], column: str) -> list[str]:
    """The raw clause spans of one category (a Python-list literal in the CSV)."""
    value = row[column].strip()
    return [str(s) for s in ast.literal_eval(value)] if value.startswith("[") else []


def party_names(row: dict[str, str]) -> list[str]:
    """The party names of the normalized answer, aliases in brackets and redactions dropped."""
    out = []
    for part in row["Parties-Answer"].split(";"):
        name = part.split("(")[0].strip(" ,.;:")
        if re.search(r"\w", name) and not name.startswith("["):
            out.append(name)
    return out


def _other(rows: list[dict[str, str]], i: int, k: int) -> dict[str, str]:
    return rows[(i + k) % len(rows)]


def _long_date(us_date: str) -> str | None:
    """``6/21/1999`` written as ``June 21, 1999`` (None when it is not m/d/yyyy)."""
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", us_date.strip())
    if not m or not 1 <= int(m.group(1)) <= 12:
        return None
    return f"{_MONTHS[int(m.group(1)) - 1]} {int(m.group(2))}, {m.group(3)}"


def _money_variants(amount: str) -> list[str]:
    """Formatting variants of a dollar amount a model might write instead of the contract's."""
    digits = re.sub(r"[^\d.]", "", amount.split()[0])
    if not digits or digits == ".":
        return []
    value = float(digits)
    scale = amount.lower()
    if "million" in scale:
        value *= 1_000_000
    elif "thousand" in scale:
        value *= 1_000
    return [
        f"USD {value:,.2f}",
        f"{value:.0f} dollars",
        f"${value + 0.01:,.2f}",
        f"${value * 10:,.0f}",
    ]


def pairs(rows: list[dict[str, str]]) -> Iterator[Pair]:
    """Every pair, in a fixed order."""
    for i, row in enumerate(rows):
        yield from _row_pairs(rows, i, row)


def _row_pairs(rows: list[dict[str, str]], i: int, row: dict[str, str]) -> Iterator[Pair]:
    gold_name = row["Document Name-Answer"].strip()
    if gold_name:
        for n, span in enumerate(spans(row, "Document Name")[:2]):
            yield f"id:{i}:{n}", "id", span, gold_name
        other = _other(rows, i, OFFSETS[0])["Document Name-Answer"].strip()
        yield f"id:{i}:x", "id", other, gold_name
    for column in DATE_COLUMNS:
        gold = row[f"{column}-Answer"].strip()
        if not gold:
            continue
        tag = column.split()[0].lower()
        for n, span in enumerate(spans(row, column)[:2]):
            yield f"date-{tag}:{i}:{n}", "date", span, gold
        if (long := _long_date(gold)) is not None:
            yield f"date-{tag}:{i}:long", "date", long, gold
        yield f"date-{tag}:{i}:x", "date", _other(rows, i, OFFSETS[1])[f"{column}-Answer"], gold
    law = row["Governing Law-Answer"].strip()
    if law:
        for n, span in enumerate(spans(row, "Governing Law")[:1]):
            yield f"containment:{i}:{n}", "containment", span, law
            yield f"free_text:law:{i}:{n}", "free_text", span, law
        yield f"containment:{i}:x", "containment", _other(rows, i, 3)["Governing Law-Answer"], law
    names = party_names(row)
    raw = [s for s in spans(row, "Parties") if re.search(r"\w", s)]
    for n, name in enumerate(names[:2]):
        best = raw[n] if n < len(raw) else ""
        yield f"name:{i}:{n}", "name", best, name
        for k in OFFSETS:
            others = party_names(_other(rows, i, k))
            if others:
                yield f"name:{i}:{n}:x{k}", "name", others[0], name
    if names:
        yield f"list-name:{i}:raw", "entity_list:name", raw, names
        yield f"list-name:{i}:x", "entity_list:name", party_names(_other(rows, i, 1)), names
    for column in CLAUSE_COLUMNS:
        clauses = spans(row, column)
        if not clauses:
            continue
        tag = column.split()[0].lower()
        first = clauses[0]
        words = first.split()
        yield f"free_text:{tag}:{i}:half", "free_text", " ".join(words[: len(words) // 2]), first
        other = spans(_other(rows, i, 1), column)
        if other:
            yield f"free_text:{tag}:{i}:x", "free_text", other[0], first
        half = [" ".join(c.split()[: max(1, len(c.split()) // 2)]) for c in clauses]
        yield f"list-text:{tag}:{i}:half", "entity_list:free_text", half, clauses
        for m, amount in enumerate(_MONEY.findall(" ".join(clauses))[:2]):
            for n, variant in enumerate(_money_variants(amount)):
                yield f"money:{tag}:{i}:{m}:{n}", "money", variant, amount
