"""The chained suite (seed 000 §5) and the handoff ablation (§12)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import assay
from assay.suites.chained import chained_composite, chained_summary, handoff_ablation
from tests.conftest import write_jsonl


def test_composite() -> None:
    assert chained_composite(1.0, 0.0) == pytest.approx(0.25)
    assert chained_composite(0.4, 0.8, weights=(1, 1)) == pytest.approx(0.6)
    with pytest.raises(ValueError):
        chained_composite(1.0, 1.0, weights=(0, 0))
    s = chained_summary(
        sorter_doc_type=1.0, sorter_subtype=0.5, extractor_overall=0.8, extractor_presence=0.9
    )
    # the sorter component is the doc_type accuracy (seed 000 §5), not the subtype accuracy
    assert s["chained_composite"] == pytest.approx(0.25 * 1.0 + 0.75 * 0.8)


def _rows(shift: float, seed: int = 3) -> list[dict[str, object]]:
    rng = random.Random(seed)
    rows = []
    for i in range(60):
        base = rng.random()
        rows.append(
            {
                "id": f"doc{i}",
                "expected_subtype": "license",
                "doc_type": "contract",
                "subtype": "license" if i % 3 else "other",
                "confidence": 0.7,
                "extractor_overall": min(1.0, base * 0.8 + shift),
                "extractor_field_presence": 0.9,
            }
        )
    return rows


def test_trackers(tmp_path: Path) -> None:
    rows = _rows(0.0)
    rows[0]["doc_type"] = "ERROR: timeout"
    run = assay.score("chained", pred=write_jsonl(tmp_path / "c.jsonl", rows), ci=False)
    m = run.metrics
    assert m["sorter_exact_match"].value == pytest.approx(59 / 60)
    sub = [float(i % 3 != 0) for i in range(60)]
    ext = [0.0] + [float(r["extractor_overall"]) for r in rows[1:]]  # type: ignore[arg-type]
    assert m["sorter_subtype_accuracy"].value == pytest.approx(sum(sub[1:]) / 60)
    doc = [float(i > 0) for i in range(60)]  # row 0 is an error row: doc_type wrong
    want = sum(0.25 * d + 0.75 * e for d, e in zip(doc, ext, strict=True)) / 60
    assert m["chained_composite"].value == pytest.approx(want)


def test_handoff_ablation(tmp_path: Path) -> None:
    pred = assay.score("chained", pred=write_jsonl(tmp_path / "p.jsonl", _rows(0.0)), ci=False)
    gt = assay.score("chained", pred=write_jsonl(tmp_path / "g.jsonl", _rows(0.1)), ci=False)
    ab = handoff_ablation(pred, gt, n_resamples=500)
    gap = (gt.metrics["extractor_overall"].value or 0) - (
        pred.metrics["extractor_overall"].value or 0
    )
    assert ab.sorter_loss_pp == pytest.approx(100 * gap)
    assert ab.ci_lower_pp is not None and ab.ci_upper_pp is not None
    assert ab.ci_lower_pp <= ab.sorter_loss_pp <= ab.ci_upper_pp
    assert ab.significant and ab.n_shared == 60
    same = handoff_ablation(pred, pred, n_resamples=200)
    assert same.sorter_loss_pp == 0.0 and not same.significant


def test_handoff_ablation_command(tmp_path: Path) -> None:
    """``assay legal handoff-ablation PRED_RUN GT_RUN`` (seed 000 §12) from the command line."""
    import json

    from click.testing import CliRunner

    from assay._cli.app import build_cli

    pred = assay.score("chained", pred=write_jsonl(tmp_path / "p.jsonl", _rows(0.0)), ci=False)
    gt = assay.score("chained", pred=write_jsonl(tmp_path / "g.jsonl", _rows(0.1)), ci=False)
    pred.save(tmp_path / "pred.json")
    gt.save(tmp_path / "gt.json")
    out = tmp_path / "ablation.json"
    args = ["handoff-ablation", str(tmp_path / "pred.json"), str(tmp_path / "gt.json")]
    result = CliRunner().invoke(
        build_cli(), ["legal", *args, "--n-bootstrap", "500", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "on 60 documents" in result.output and "sorter_loss_pp" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    want = handoff_ablation(pred, gt, n_resamples=500)
    assert data["sorter_loss_pp"] == pytest.approx(want.sorter_loss_pp)
    assert data["predicted_run"] == pred.run_id and data["ground_truth_run"] == gt.run_id
    bad = CliRunner().invoke(build_cli(), ["legal", *args[:2], str(tmp_path / "nope.json")])
    assert bad.exit_code != 0
