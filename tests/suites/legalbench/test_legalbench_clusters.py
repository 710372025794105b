"""LegalBench's cuad_* rows are clauses of CUAD contracts: rows that name their contract are
resampled by contract by default; rows that do not (the released TSVs) stay iid."""

from __future__ import annotations

from pathlib import Path

import assay
from tests.conftest import write_jsonl


def _rows(with_contract: bool) -> list[dict[str, str]]:
    rows = []
    for c in range(12):
        for k in range(5):
            answer = "Yes" if (c + k) % 3 else "No"
            right = c % 4 != 0  # one contract in four answered wrong throughout
            other = "No" if answer == "Yes" else "Yes"
            row = {"id": f"cuad-{c}-{k}", "answer": answer, "predicted": answer if right else other}
            if with_contract:
                row["contract"] = f"contract-{c}"
            rows.append(row)
    return rows


def test_rows_naming_their_contract_resample_contracts(tmp_path: Path) -> None:
    pred = write_jsonl(tmp_path / "lb.jsonl", _rows(True))
    run = assay.score("legalbench", pred=pred, n_bootstrap_ci=300)
    assert run.units is not None
    assert (run.units.by, run.units.source, run.units.n_clusters) == (
        "contract",
        "suite default",
        12,
    )
    assert "|cl:contract|" in run.signature
    assert any("only 12 clusters (contract)" in w for w in run.warnings)


def test_rows_without_a_contract_stay_iid(tmp_path: Path) -> None:
    pred = write_jsonl(tmp_path / "lb.jsonl", _rows(False))
    run = assay.score("legalbench", pred=pred, n_bootstrap_ci=300)
    assert run.units is None and "|cl:" not in run.signature


def test_some_rows_without_a_contract_are_their_own_clusters(tmp_path: Path) -> None:
    rows = _rows(True)
    del rows[0]["contract"], rows[1]["contract"]
    run = assay.score("legalbench", pred=write_jsonl(tmp_path / "lb.jsonl", rows), ci=False)
    assert run.units is not None and run.units.n_clusters == 14
    assert any("2 item(s) without 'contract' are each their own cluster" in w for w in run.warnings)
