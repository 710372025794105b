"""assay.suites.extraction.examples: the demo suites/extraction/docs.md runs on is deterministic and
scores."""

from __future__ import annotations

from pathlib import Path

import assay
from assay._settings.loader import load_settings
from assay.suites.extraction.examples import write_demo


def test_demo_is_deterministic_and_exercises_the_rules(tmp_path: Path) -> None:
    a, b = write_demo(tmp_path / "a"), write_demo(tmp_path / "b")
    assert [p.name for p in a] == [p.name for p in b]
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b, strict=True))
    out = tmp_path / "a"
    base = assay.score(
        "extraction", pred=out / "preds.jsonl", gold=out / "gold.jsonl", ci=False,
        settings=load_settings(out / "extraction.yaml"), source=str(out / "contracts"),
    )  # fmt: skip
    cand = assay.score(
        "extraction", pred=out / "candidate.jsonl", gold=out / "gold.jsonl", ci=False,
        settings=load_settings(out / "extraction.yaml"), source=str(out / "contracts"),
    )  # fmt: skip
    assert base.cohort.failed == 1  # the answer that is not JSON
    b_score = base.metrics["overall_extraction_score"].value
    c_score = cand.metrics["overall_extraction_score"].value
    assert b_score is not None and c_score is not None and c_score > b_score
    assert base.summaries["n_needs_judge_review"] > 0
