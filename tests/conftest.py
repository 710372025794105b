"""Shared fixtures: a clean settings cache per test and helpers to write input files."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from assay._settings import clear_settings_cache

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture(scope="session")
def _session_store(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One SQLite run store for the whole session, so `assay score` never writes into the repo."""
    return f"sqlite:///{tmp_path_factory.mktemp('store') / 'assay.db'}"


@pytest.fixture(autouse=True)
def _clean_settings(monkeypatch: pytest.MonkeyPatch, _session_store: str) -> Iterator[None]:
    monkeypatch.delenv("ASSAY_CONFIG", raising=False)
    monkeypatch.setenv("ASSAY_STORE", _session_store)
    clear_settings_cache()
    yield
    clear_settings_cache()


def write_jsonl(path: Path, rows: Sequence[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def labels_files(tmp_path: Path) -> tuple[Path, Path]:
    """A small gold/prediction pair: 12 items, 3 classes, one ERROR row, one missing."""
    gold = [
        {"id": f"d{i}", "expected": lab}
        for i, lab in enumerate(["contract", "invoice", "memo", "contract", "invoice", "memo"] * 2)
    ]
    preds = [
        {"id": "d0", "predicted": "Contract"},
        {"id": "d1", "predicted": '"invoice"'},
        {"id": "d2", "predicted": "letter"},
        {"id": "d3", "predicted": {"doc_type": "contract"}},
        {"id": "d4", "predicted": "ERROR: timeout"},
        {"id": "d5", "predicted": "This is a memo."},
        {"id": "d6", "predicted": "contract"},
        {"id": "d7", "predicted": "invoice"},
        {"id": "d8", "predicted": "memo"},
        {"id": "d9", "predicted": "invoice"},
        {"id": "d10", "predicted": "invoice"},
    ]
    return write_jsonl(tmp_path / "gold.jsonl", gold), write_jsonl(tmp_path / "pred.jsonl", preds)
