"""Runs for the analytics tests: classification runs scored from data written here."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

import assay
from assay._engine.run import Run

LABELS = ("contract", "invoice", "memo")

MakeRun = Callable[..., Run]


def write_gold(path: Path, n: int) -> Path:
    rows = [{"id": f"d{i:03d}", "expected": LABELS[i % 3]} for i in range(n)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def write_preds(path: Path, n: int, correct: Sequence[bool]) -> Path:
    rows = [
        {"id": f"d{i:03d}", "predicted": LABELS[i % 3] if ok else LABELS[(i + 1) % 3]}
        for i, ok in zip(range(n), correct, strict=True)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def make_run(tmp_path: Path) -> MakeRun:
    """make_run(name, correct=[...]) or make_run(name, p=0.8, seed=1, n=200): a scored run."""

    def make(
        name: str,
        *,
        correct: Sequence[bool] | None = None,
        p: float | Sequence[float] = 0.8,
        seed: int = 0,
        n: int = 200,
        score_seed: int | None = None,
        save: bool = True,
    ) -> Run:
        if correct is None:
            rng = np.random.default_rng(seed)
            probs = np.broadcast_to(np.asarray(p, dtype=float), (n,))
            correct = list(rng.random(n) < probs)
        n = len(correct)
        gold = write_gold(tmp_path / f"gold{n}.jsonl", n)
        pred = write_preds(tmp_path / f"{name}.jsonl", n, correct)
        run = assay.score("classification", pred=pred, gold=gold, name=name, seed=score_seed)
        if save:
            run.save(tmp_path / f"{name}.json")
        return run

    return make
