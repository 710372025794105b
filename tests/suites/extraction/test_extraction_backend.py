"""With the embedding rescue on, the run records what loaded (issue 34, item 8): seed 000 §3's
rescue degrades silently to the string score when its extra is missing, but the settings (and
so the config digest and run id) name it, so the two runs are never one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import assay
from assay._fields.embedding import load_embedding_model
from assay._settings import load_settings
from assay.suites.extraction.examples import write_demo


def _run(root: Path) -> assay.Run:
    settings = load_settings(root / "extraction.yaml")
    return assay.score(
        "extraction",
        pred=root / "candidate.jsonl",
        gold=root / "gold.jsonl",
        settings=settings,
        ci=False,
        embedding_enabled=True,
        embedding_model="wordllama",
    )


def test_the_rescue_backend_is_part_of_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_demo(tmp_path)
    load_embedding_model.cache_clear()
    monkeypatch.setitem(sys.modules, "wordllama", None)
    without = _run(tmp_path)
    assert without.settings["extraction"]["embedding_backend"] == (
        "off: wordllama is not installed; install the [semantic] extra"
    )
    monkeypatch.delitem(sys.modules, "wordllama")
    load_embedding_model.cache_clear()
    if not load_embedding_model("wordllama", None)[1].enabled:
        pytest.skip("the [semantic] extra is not installed")
    with_it = _run(tmp_path)
    assert with_it.settings["extraction"]["embedding_backend"] == "wordllama l2_supercat_256"
    assert with_it.run_id != without.run_id
