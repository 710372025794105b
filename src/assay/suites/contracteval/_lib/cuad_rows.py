"""ContractEval rows from CUAD itself (seed 000 §17): one (contract, category) pair per row,
``{id, contract, category, gold_spans, output: null}``, so the rubric runs on the real benchmark
without hand-written glue.

Two sources:

- CUAD's ``master_clauses.csv``: every contract × the 41 categories (a category column paired
  with its ``-Answer`` column); ``gold_spans`` are the column's clause spans (a Python-list
  literal; empty = the category is absent);
- CUAD's test split given as a file: the SQuAD-format ``test.json`` of the CUAD QA release
  (``data[].paragraphs[].qas[]`` with ids ``<contract>__<category>`` and answer texts: the 102
  test contracts, 41 questions each, ContractEval's 4,182 pairs), or a text file of contract
  names, one a line, that restricts the master_clauses rows to those contracts.

Rows are in file order, contracts then categories; ids are ``<contract>__<category>`` as in CUAD's
QA release. A malformed cell is an error naming the file, row and column.
"""

from __future__ import annotations

import ast
import csv
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from assay._io.decoding import read_bytes
from assay._io.strict import loads_lenient
from assay.errors import InputError
from assay.suites.contracteval._lib.mapping import normalize_filename

CONTRACT_COLUMN = "Filename"


def _contract_name(filename: str) -> str:
    """CUAD's contract name: the file name without its ``.pdf`` extension."""
    name = filename.strip()
    return name[:-4] if name.lower().endswith(".pdf") else name


def categories_of(header: Sequence[str]) -> list[str]:
    """The CUAD categories of a master_clauses header: columns with an ``-Answer`` partner."""
    names = set(header)
    return [c for c in header if c != CONTRACT_COLUMN and f"{c}-Answer" in names]


def _spans(cell: str, where: str) -> list[str]:
    value = cell.strip()
    if not value or value == "[]":
        return []
    try:
        parsed = ast.literal_eval(value)
    except (ValueError, SyntaxError) as err:
        raise InputError(f"{where}: not a list of clause spans ({err})") from err
    if not isinstance(parsed, list) or not all(isinstance(s, str) for s in parsed):
        raise InputError(f"{where}: not a list of clause spans")
    return [s for s in parsed if s.strip()]


def master_clause_rows(
    master: Path, contracts: Iterable[str] | None = None
) -> tuple[list[dict[str, Any]], list[str]]:
    """Rows from ``master_clauses.csv`` (only ``contracts`` when given, matched by normalized
    name) and the requested contracts the file does not have."""
    previous = csv.field_size_limit(1 << 30)  # CUAD's clause lists pass csv's default
    try:
        with master.open(encoding="utf-8", newline="") as handle:
            reader = csv.DictReader(handle)
            header = list(reader.fieldnames or [])
            records = list(reader)
    except (OSError, UnicodeDecodeError, csv.Error) as err:
        raise InputError(f"{master}: not a readable CSV ({err})") from err
    finally:  # the limit is the process's: give it back for every other reader
        csv.field_size_limit(previous)
    cats = categories_of(header)
    if CONTRACT_COLUMN not in header or not cats:
        raise InputError(f"{master}: not CUAD's master_clauses.csv (no {CONTRACT_COLUMN} column "
                         "or no category/-Answer column pairs)")  # fmt: skip
    wanted = None if contracts is None else {normalize_filename(c): c for c in contracts}
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for line, record in enumerate(records, start=2):
        contract = _contract_name(record.get(CONTRACT_COLUMN) or "")
        key = normalize_filename(contract)
        if wanted is not None and key not in wanted:
            continue
        seen.add(key)
        for cat in cats:
            spans = _spans(record.get(cat) or "", f"{master}: row {line}, column {cat!r}")
            rows.append(_row(contract, cat, spans))
    missing = [] if wanted is None else [c for k, c in wanted.items() if k not in seen]
    return rows, missing


def _row(contract: str, category: str, spans: Sequence[str]) -> dict[str, Any]:
    return {
        "id": f"{contract}__{category}",
        "contract": contract,
        "category": category,
        "gold_spans": list(dict.fromkeys(spans)),
        "output": None,
    }


def squad_rows(test_split: Path) -> list[dict[str, Any]]:
    """Rows from CUAD's SQuAD-format test split (``test.json``): one per question."""
    try:
        data = loads_lenient(read_bytes(test_split))
    except (OSError, ValueError) as err:  # unreadable, not UTF-8, not JSON, beyond the limits
        raise InputError(f"{test_split}: not a readable JSON file ({err})") from err
    docs = data.get("data") if isinstance(data, dict) else None
    if not isinstance(docs, list):
        raise InputError(f"{test_split}: not a SQuAD-format file (no 'data' list)")
    rows: list[dict[str, Any]] = []
    for d, doc in enumerate(docs):
        where = f"{test_split}: data[{d}]"
        title = doc.get("title") if isinstance(doc, dict) else None
        if not isinstance(title, str):
            raise InputError(f"{where}: no 'title'")
        for p, para in enumerate(doc.get("paragraphs") or []):
            for q, qa in enumerate(para.get("qas") or []):
                at = f"{where}.paragraphs[{p}].qas[{q}]"
                qid = qa.get("id") if isinstance(qa, dict) else None
                if not isinstance(qid, str) or "__" not in qid:
                    raise InputError(f"{at}: id must be '<contract>__<category>'")
                answers = qa.get("answers") or []
                if not isinstance(answers, list):
                    raise InputError(f"{at}: answers must be a list")
                spans = [a.get("text", "") for a in answers if isinstance(a, dict)]
                rows.append(_row(title, qid.rsplit("__", 1)[1], [s for s in spans if s.strip()]))
    return rows


def contracteval_rows(
    master: Path | None, test_split: Path | None
) -> tuple[list[dict[str, Any]], list[str]]:
    """The rows for the given sources (see the module docstring) and the test-split contracts
    master_clauses.csv does not have."""
    if test_split is not None and test_split.suffix.lower() == ".json":
        return squad_rows(test_split), []
    if master is None:
        raise InputError("give CUAD's master_clauses.csv (and optionally the test split)")
    contracts = None
    if test_split is not None:
        try:
            lines = test_split.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as err:
            raise InputError(f"{test_split}: not a readable text file ({err})") from err
        contracts = [_contract_name(x) for x in lines if x.strip() and not x.startswith("#")]
    return master_clause_rows(master, contracts)
