"""The regression gate."""

from __future__ import annotations

from pathlib import Path

import pytest

import assay
from assay.compare import gate
from assay.errors import UsageError


def test_gate(labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    run = assay.score("classification", pred=pred, gold=gold, ci=False)
    # headline: exact_match 0.667, macro 0.806
    assert gate(run, 0.6).passed
    res = gate(run, 0.7)
    assert not res.passed and [c.name for c in res.failures] == ["exact_match"]
    assert gate(run, 0.7, metrics=["macro_accuracy"]).passed
    # lower is better: failure 0.083 fails a 0.05 bar
    assert not gate(run, 0.05, metrics=["failure"]).passed
    assert gate(run, 0.5, tier="diagnostic").passed
    with pytest.raises(UsageError, match="unknown metric"):
        gate(run, 0.5, metrics=["nope"])
    with pytest.raises(UsageError, match="tier"):
        gate(run, 0.5, tier="bogus")
