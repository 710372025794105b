"""The claims demo (assay.suites.claims.examples): what suites/claims/docs.md runs, with known
answers."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

import assay
from assay.suites.claims._lib.diff import diff_runs
from assay.suites.claims.examples import TOPICS, write_demo


def _digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(root)).encode() + p.read_bytes())
    return h.hexdigest()


def test_demo_is_deterministic(tmp_path: Path) -> None:
    paths = write_demo(tmp_path / "a")
    write_demo(tmp_path / "b")
    assert [p.name for p in paths] == ["reference", "extracted-v1", "extracted-v2.jsonl"]
    assert _digest(tmp_path / "a") == _digest(tmp_path / "b")


def test_demo_scores_as_designed(tmp_path: Path) -> None:
    reference, v1, v2 = write_demo(tmp_path)
    base = assay.score("claims", pred=v1, gold=reference, n_bootstrap_ci=100)
    cand = assay.score("claims", pred=v2, gold=reference, n_bootstrap_ci=100)
    first = TOPICS[0].paper
    recovery = {i.id: i.scores["recovery"] for i in base.items}
    # v1 misses every fifth claim; the first paper also loses its broken claim file
    assert recovery == {t.paper: (0.6 if t.paper == first else 0.8) for t in TOPICS}
    [failure] = base.summaries["file_failures"][first]
    assert failure["file"].endswith("cli-3.md") and "invalid YAML" in failure["reason"]
    assert all(i.scores["recovery"] == 1.0 for i in cand.items)
    result = diff_runs(base, cand)
    assert result.verdict == "net_win" and result.test == "exact_sign_flip"
    assert result.moves[0].p_value == pytest.approx(2 / 2**8)
    assert diff_runs(cand, base).verdict == "regression"
