"""Synthetic classification inputs and a task whose first scoring call kills its worker."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay.suites.classification import ClassificationSettings, ClassificationTask

LABELS = ("contract", "invoice", "memo", "letter")


def write_classification(tmp: Path, n: int, *, seed: int = 0) -> tuple[Path, Path]:
    """n gold rows and predictions (about 80% right, 2% missing), ids shuffled by seed."""
    rng = np.random.default_rng(seed)
    gold_labels = rng.integers(0, len(LABELS), size=n)
    right = rng.random(n) < 0.8
    other = rng.integers(0, len(LABELS), size=n)
    missing = rng.random(n) < 0.02
    gold, pred = tmp / "gold.jsonl", tmp / "pred.jsonl"
    with gold.open("w") as g, pred.open("w") as p:
        for i in range(n):
            g.write(json.dumps({"id": f"doc-{i}", "expected": LABELS[gold_labels[i]]}) + "\n")
            if not missing[i]:
                label = LABELS[gold_labels[i]] if right[i] else LABELS[other[i]]
                p.write(json.dumps({"id": f"doc-{i}", "predicted": label}) + "\n")
    return gold, pred


class KillOnceTask(ClassificationTask):
    """The classification task, except that scoring ``victim`` the first time (no ``marker``
    file yet) kills the worker process with os._exit, as a crash would."""

    def __init__(self, marker: str, victim: str) -> None:
        super().__init__()
        self.marker = marker
        self.victim = victim

    def score_item(self, item: Item, settings: ClassificationSettings) -> ItemScore:
        if item.id == self.victim and not os.path.exists(self.marker):
            Path(self.marker).write_text(str(os.getpid()))
            os._exit(17)
        return super().score_item(item, settings)
