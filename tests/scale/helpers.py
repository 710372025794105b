"""Synthetic classification inputs, a task whose first scoring call kills its worker, and a
2-worker local Dask cluster with the artifact comparison the Dask tests share."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from assay._engine.item import Item
from assay._engine.run import Run
from assay._engine.task import ItemScore
from assay.suites.classification import ClassificationSettings, ClassificationTask

LABELS = ("contract", "invoice", "memo", "letter")


@contextmanager
def local_dask_address() -> Iterator[str]:
    """A 2-worker, one-thread-each local Dask cluster on loopback, as ``dask://host:port``."""
    import distributed

    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as lc:
        yield "dask://" + lc.scheduler_address.removeprefix("tcp://")


def artifact_body(run: Run) -> dict[str, Any]:
    """The run's artifact without its timestamp: what two equal runs share byte for byte."""
    data: dict[str, Any] = json.loads(run.to_json())
    data.pop("generated_at")
    return data


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
