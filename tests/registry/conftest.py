"""A small scored classification run for the registry tests."""

from __future__ import annotations

from pathlib import Path

import pytest

import assay
from assay._engine.run import Run


@pytest.fixture
def labels_run(labels_files: tuple[Path, Path]) -> Run:
    gold, pred = labels_files
    return assay.score("classification", pred=pred, gold=gold, ci=False)
