"""Differential test: MAUD's AUPR in assay against MAUD's own ``pr_curves.py``.

40 synthetic questions with class scores (``maud_outputs``, seeded) go through assay here and
through MAUD's unmodified curve code in a scratch environment (``regen_maud``; its figures are
pinned in ``maud_reference.json``): the restated rule (``assay._legal.aupr.maud_aupr``, and the
dispatcher's ``maud_question`` kind), the maud suite's ``aupr`` metric (its per-row threshold
columns), and one bootstrap replicate of those columns against the AP of the expanded sample.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest

import assay
from assay._legal.answers import MAUD_CONSIDERATION_KEYS, MAUD_CONSIDERATION_LABELS
from assay._legal.aupr import (
    ap_columns,
    ap_from_sums,
    average_precision,
    class_scores,
    maud_aupr,
    plan_classes,
)
from assay._legal.dispatch import maud_question_score
from tests.conftest import write_jsonl
from tests.differential.maud_outputs import Question, questions

PINNED = Path(__file__).with_name("maud_reference.json")


@cache
def official() -> dict[int, float]:
    data = json.loads(PINNED.read_text(encoding="utf-8"))
    return {f["question"]: f["official_aupr"] for f in data["figures"]}


def _rows(q: Question) -> tuple[list[str], list[dict[str, float]]]:
    """Gold and scores of a question, its classes named by MAUD's consideration types."""
    names = list(MAUD_CONSIDERATION_KEYS[: q.k])
    gold = [names[int(y)] for y in q.labels]
    scores = [dict(zip(names, row.tolist(), strict=True)) for row in q.logits]
    return gold, scores


def test_every_question_is_pinned() -> None:
    assert sorted(official()) == [q.number for q in questions()]


def test_the_rule_is_mauds_on_every_question() -> None:
    qs = questions()
    gold, scores, names = [], [], []
    for q in qs:
        g, s = _rows(q)
        got = maud_aupr(g, s)["aupr"]
        assert got == pytest.approx(official()[q.number], abs=1e-12), q.number
        gold += g
        scores += s
        names += [f"q{q.number}"] * len(g)
    # all questions at once, as the dispatcher's maud_question kind: the mean over questions
    out = maud_question_score(gold, gold, scores=scores, questions=names, n_boot=0)
    assert out["aupr"]["aupr"] == pytest.approx(np.mean(list(official().values())), abs=1e-12)


@pytest.mark.parametrize("number", range(0, 40, 4))
def test_the_maud_suite_reports_mauds_number(tmp_path: Path, number: int) -> None:
    q = questions()[number]
    gold, scores = _rows(q)
    rows = [
        {
            "id": f"agreement-{i:03d}",
            "expected": "merger_agreement",
            "expected_consideration": MAUD_CONSIDERATION_LABELS[g],  # MAUD's own surface
            "predicted": "merger_agreement",
            "predicted_consideration": max(s, key=s.__getitem__),
            "predicted_scores": {MAUD_CONSIDERATION_LABELS[k]: v for k, v in s.items()},
        }
        for i, (g, s) in enumerate(zip(gold, scores, strict=True))
    ]
    run = assay.score("maud", pred=write_jsonl(tmp_path / "rows.jsonl", rows), ci=False)
    assert run.metrics["aupr"].value == pytest.approx(official()[number], abs=1e-12)
    assert run.metrics["aupr"].tier == "headline"
    assert run.summaries["official_metric"]["computed"] is True


def test_a_bootstrap_replicate_is_the_ap_of_the_resample() -> None:
    """The columns are exact under resampling: a replicate's weighted sums give the AP of the
    sample with each row repeated its weight (the minority flip fixed by the whole sample)."""
    rng = np.random.default_rng(7)
    for q in questions()[:10]:
        gold, scores = _rows(q)
        classes = sorted(set(gold))
        plans, _ = plan_classes(gold, scores, classes)
        rows = [ap_columns(plans, g, s) for g, s in zip(gold, scores, strict=True)]
        weights = rng.multinomial(len(gold), np.ones(len(gold)) / len(gold))
        oriented = [class_scores(s, classes) for s in scores]
        for i, plan in enumerate(plans):
            sums = weights @ np.array([[r[c] for c in plan.columns()] for r in rows])
            y = np.array([(g == plan.cls) != plan.flip for g in gold])
            s = np.array([-row[i] if plan.flip else row[i] for row in oriented])
            want = average_precision(np.repeat(y, weights), np.repeat(s, weights))
            got = float(ap_from_sums(sums, len(plan.thresholds)))
            assert got == pytest.approx(want, abs=1e-12) or (np.isnan(got) and np.isnan(want))


def test_without_scores_the_run_says_it_is_not_mauds_number(tmp_path: Path) -> None:
    rows = [
        {"id": "a", "expected": "merger_agreement", "expected_consideration": "All Cash",
         "predicted": "merger_agreement", "predicted_consideration": "All Cash"},
    ]  # fmt: skip
    run = assay.score("maud", pred=write_jsonl(tmp_path / "rows.jsonl", rows), ci=False)
    assert "aupr" not in run.metrics
    assert run.summaries["official_metric"]["computed"] is False
    assert any("not MAUD's number" in w for w in run.warnings)
