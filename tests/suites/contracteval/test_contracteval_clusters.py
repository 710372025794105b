"""The done-when of issue 32's clusters, on CUAD itself: ContractEval rows are (contract,
category) pairs, 41 per contract, and a model's skill varies by contract. Scored with
``--cluster-by contract`` the CIs are about √deff wider than iid ones and the scorecard says
so; the suite's default is the contract already."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import assay
from assay._cli.app import build_cli
from assay.stats.units import few_units_factor
from assay.suites.contracteval._lib.cuad_rows import master_clause_rows
from tests.conftest import SHARED, write_jsonl

CUAD = SHARED / "data" / "legal" / "cuad" / "master_clauses.csv"
pytestmark = pytest.mark.skipif(not CUAD.exists(), reason=f"CUAD data absent: {CUAD}")
N_CONTRACTS = 120


def _rows(tmp_path: Path) -> Path:
    """A model whose diligence is a property of the contract: per contract a probability of
    answering a category right (the clause's spans, or "No related clause" when absent)."""
    rows, _ = master_clause_rows(CUAD)
    contracts = list(dict.fromkeys(r["contract"] for r in rows))[:N_CONTRACTS]
    rng = random.Random(32)
    skill = {c: rng.betavariate(2, 2) for c in contracts}
    kept: list[dict[str, Any]] = []
    for row in rows:
        if row["contract"] not in skill:
            continue
        right = rng.random() < skill[row["contract"]]
        if row["gold_spans"]:
            output = "\n".join(row["gold_spans"]) if right else "No related clause."
        else:
            output = "No related clause." if right else "The parties agree to cooperate."
        kept.append({**row, "output": output})
    return write_jsonl(tmp_path / "rows.jsonl", kept)


def _score(path: Path, *extra: str) -> str:
    res = CliRunner().invoke(
        build_cli(),
        ["score", "contracteval", "--pred", str(path), "--no-store", *extra],
        catch_exceptions=False,
    )
    assert res.exit_code == 0, res.output
    return res.output


def _ci(output: str, metric: str) -> tuple[float, float]:
    match = re.search(rf"│ {metric} +│ +[0-9.]+ │ \[([0-9.]+), ([0-9.]+)\]", output)
    assert match, output
    return float(match[1]), float(match[2])


def test_cuad_cluster_by_contract_widens_cis_by_root_deff_and_says_so(tmp_path: Path) -> None:
    rows = _rows(tmp_path)
    clustered = _score(rows, "--cluster-by", "contract", "-o", str(tmp_path / "c.json"))
    iid = _score(rows, "--cluster-by", "item", "-o", str(tmp_path / "i.json"))
    run = assay.Run.load(tmp_path / "c.json")
    assert run.units is not None and run.units.n_clusters == N_CONTRACTS
    m = run.metrics["accuracy"]
    assert m.design_effect is not None and m.design_effect > 3  # clauses of a contract agree
    says = re.search(r"CIs over 120 contracts \(design effect up to ([0-9.]+)", clustered)
    assert says, clustered
    assert float(says[1]) == pytest.approx(
        max(
            x.design_effect
            for x in run.metrics.values()
            if x.tier == "headline" and x.design_effect
        ),
        abs=0.05,
    )
    assert "|cl:contract|" in clustered and "|cl:" not in iid and "CIs over" not in iid
    lo_c, hi_c = _ci(clustered, "accuracy")
    lo_i, hi_i = _ci(iid, "accuracy")
    ratio = (hi_c - lo_c) / (hi_i - lo_i)
    assert ratio == pytest.approx(m.design_effect**0.5 * few_units_factor(N_CONTRACTS), rel=0.2)


def test_the_suite_default_is_the_contract(tmp_path: Path) -> None:
    rows = _rows(tmp_path)
    run = assay.score("contracteval", pred=rows, n_bootstrap_ci=200)
    assert run.units is not None
    assert (run.units.by, run.units.source) == ("contract", "suite default")
    assert run.table_units().by == "contract"
