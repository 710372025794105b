"""``assay legal contracteval-rows``: ContractEval rows from CUAD (seed 000 §17)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import assay
from assay._cli.app import build_cli
from assay.errors import InputError
from assay.suites.contracteval import contracteval_rows, master_clause_rows, squad_rows
from tests.conftest import SHARED

CUAD = SHARED / "data" / "legal" / "cuad" / "master_clauses.csv"
needs_cuad = pytest.mark.skipif(not CUAD.exists(), reason=f"CUAD data absent: {CUAD}")


def _squad(path: Path) -> Path:
    data = {
        "version": "aok_v1.0",
        "data": [
            {
                "title": "ACME_2019_EX-10_DISTRIBUTOR AGREEMENT",
                "paragraphs": [
                    {
                        "context": "...",
                        "qas": [
                            {"id": "ACME_2019_EX-10_DISTRIBUTOR AGREEMENT__Governing Law",
                             "question": "Highlight ...", "is_impossible": False,
                             "answers": [{"text": "governed by the laws of Texas",
                                          "answer_start": 10}]},
                            {"id": "ACME_2019_EX-10_DISTRIBUTOR AGREEMENT__Audit Rights",
                             "question": "Highlight ...", "is_impossible": True,
                             "answers": []},
                        ],
                    }
                ],
            }
        ],
    }  # fmt: skip
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_rows_from_the_squad_test_split(tmp_path: Path) -> None:
    rows = squad_rows(_squad(tmp_path / "test.json"))
    assert rows == [
        {"id": "ACME_2019_EX-10_DISTRIBUTOR AGREEMENT__Governing Law",
         "contract": "ACME_2019_EX-10_DISTRIBUTOR AGREEMENT", "category": "Governing Law",
         "gold_spans": ["governed by the laws of Texas"], "output": None},
        {"id": "ACME_2019_EX-10_DISTRIBUTOR AGREEMENT__Audit Rights",
         "contract": "ACME_2019_EX-10_DISTRIBUTOR AGREEMENT", "category": "Audit Rights",
         "gold_spans": [], "output": None},
    ]  # fmt: skip
    bad = tmp_path / "bad.json"
    bad.write_text('{"data": [{"title": "x", "paragraphs": [{"qas": [{"id": "no-sep"}]}]}]}')
    with pytest.raises(InputError, match=r"qas\[0\]: id must be"):
        squad_rows(bad)


def test_not_master_clauses(tmp_path: Path) -> None:
    bad = tmp_path / "m.csv"
    bad.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(InputError, match="not CUAD's master_clauses"):
        master_clause_rows(bad)


@needs_cuad
def test_rows_from_master_clauses_and_a_contract_list(tmp_path: Path) -> None:
    rows, missing = master_clause_rows(CUAD)
    assert len(rows) == 510 * 41 and not missing
    assert len({r["category"] for r in rows}) == 41
    positives = sum(1 for r in rows if r["gold_spans"])
    assert 0 < positives < len(rows)
    names = sorted({r["contract"] for r in rows})[:3]
    listing = tmp_path / "test_contracts.txt"
    listing.write_text("\n".join([*names, "NOT A CUAD CONTRACT"]) + "\n", encoding="utf-8")
    subset, missing = contracteval_rows(CUAD, listing)
    assert {r["contract"] for r in subset} == set(names) and len(subset) == 3 * 41
    assert missing == ["NOT A CUAD CONTRACT"]


@needs_cuad
def test_the_command_and_the_rubric_on_its_rows(tmp_path: Path) -> None:
    listing = tmp_path / "contracts.txt"
    rows, _ = master_clause_rows(CUAD)
    names = sorted({r["contract"] for r in rows})[:4]
    listing.write_text("\n".join(names) + "\n", encoding="utf-8")
    out = tmp_path / "rows.jsonl"
    args = ["contracteval-rows", str(CUAD), "--test-split", str(listing), "-o", str(out)]
    result = CliRunner().invoke(build_cli(), ["legal", *args])
    assert result.exit_code == 0, result.output
    assert "164 rows (4 contracts," in result.output
    made = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    # answer every pair with its gold spans (or "No related clause."): a perfect run
    for r in made:
        r["output"] = "\n".join(r["gold_spans"]) or "No related clause."
    out.write_text("".join(json.dumps(r) + "\n" for r in made), encoding="utf-8")
    run = assay.score("contracteval", pred=out, ci=False)
    assert run.metrics["accuracy"].value == 1.0
    assert run.metrics["f1"].value == 1.0


def test_reading_master_clauses_gives_the_csv_field_limit_back(tmp_path: Path) -> None:
    before = csv.field_size_limit()
    path = tmp_path / "master_clauses.csv"
    path.write_text("Filename,Parties,Parties-Answer\nA.pdf,\"['Acme']\",Acme\n", encoding="utf-8")
    rows, _ = master_clause_rows(path)
    assert rows and csv.field_size_limit() == before
