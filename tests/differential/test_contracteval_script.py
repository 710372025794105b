"""Differential test: `assay score contracteval` against ContractEval's own ``Evaluation.py``.

The ContractEval rows (``assay legal contracteval-rows``) of CUAD's first 102 contracts, filled
by four kinds of model (``contracteval_outputs``), go through assay here and through the
benchmark's unmodified script in a scratch environment (``regen_contracteval``; its results
table is pinned in ``contracteval_reference.json``). The script prints three decimals; every
figure of its table must be assay's figure rounded the same way.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

import assay
from assay.suites.contracteval import contracteval_rows
from tests.conftest import SHARED
from tests.differential.contracteval_outputs import STRATEGIES, sample, with_outputs

CUAD = SHARED / "data" / "legal" / "cuad" / "master_clauses.csv"
PINNED = Path(__file__).with_name("contracteval_reference.json")
pytestmark = pytest.mark.skipif(not CUAD.is_file(), reason=f"CUAD data not found at {CUAD}")
#: the script's column → assay's metric
COLUMNS = {
    "accuracy": "accuracy",
    "precision": "precision",
    "recall": "recall",
    "f1_score": "f1",
    "f2_score": "f2",
    "no related clause count": "no_related_rate",  # a rate, whatever the column says
    "false no related clause rate": "false_no_related_rate_paper",  # over the paper's 1,244
    "jaccard_similarity_mean": "jaccard",
}


@cache
def rows() -> list[dict[str, object]]:
    return sample(contracteval_rows(CUAD, None)[0])


@cache
def reference() -> dict[str, dict[str, float]]:
    data = json.loads(PINNED.read_text(encoding="utf-8"))
    assert data["rows"] == len(rows())
    figures: dict[str, dict[str, float]] = data["figures"]
    return figures


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_every_figure_of_the_script_is_ours_rounded(strategy: str) -> None:
    run = assay.score("contracteval", predictions=with_outputs(rows(), strategy), ci=False)
    theirs = reference()[strategy]
    assert theirs["valid_data_count"] == run.cohort.evaluated == len(rows())
    ours = {column: run.metrics[metric].value for column, metric in COLUMNS.items()}
    assert {c: round(v or 0.0, 3) for c, v in ours.items()} == {c: theirs[c] for c in COLUMNS}
