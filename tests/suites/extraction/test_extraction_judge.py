"""The --judge pass (seed 000 §3, §11) against a fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import assay
from assay._cli.app import build_cli
from assay._judge import JudgeClient, JudgeSettings
from assay.suites.extraction._lib.judge import judge_run, review_requests
from tests.conftest import write_jsonl
from tests.judge.fake_openai import Reply, completion, fake_server

GOLD = [
    # document_name: token-set ratio in the band; effective_date: 0.67; parties: coverage 0.5
    {"id": "c1", "expected": {"document_name": "Supply Agreement", "effective_date": "3/1/2020"}},
    {"id": "c2", "expected": {"parties": ["Acme Corp", "Zenith LLC"], "governing_law": "Texas"}},
    {"id": "c3", "expected": {"governing_law": "New York"}},
]
PRED = [
    {"id": "c1", "predicted": {"document_name": "Master Supply", "effective_date": "March 2020"}},
    {"id": "c2", "predicted": {"parties": ["Acme Corporation"], "governing_law": "Texas"}},
    {"id": "c3", "predicted": {"governing_law": "the laws of New York"}},
]


def _run(tmp_path: Path) -> Path:
    run = assay.score(
        "extraction",
        pred=write_jsonl(tmp_path / "p.jsonl", PRED),
        gold=write_jsonl(tmp_path / "g.jsonl", GOLD),
        ci=False,
    )
    path = tmp_path / "run.json"
    run.save(path)
    return path


def _verdicts(body: dict[str, Any], n: int) -> Reply:
    """accurate for the date, inaccurate otherwise (the prompt names the field)."""
    user = body["messages"][-1]["content"]
    ok = "Field: effective_date" in user
    return completion(
        json.dumps(
            {
                "correctness": "accurate" if ok else "inaccurate",
                "completeness": "complete" if ok else "partial",
                "reason": "same month" if ok else "a different name",
            }
        ),
        prompt_tokens=200,
        completion_tokens=30,
    )


ENV = {"ASSAY_JUDGE_API_KEY": "sk-test-not-a-real-key"}


def _settings(url: str, tmp_path: Path, **kw: Any) -> JudgeSettings:
    base = {"base_url": url, "model": "judge-model", "cache_dir": str(tmp_path / "cache")}
    base["prices"] = {"judge-model": {"input_per_mtok": 1.0, "output_per_mtok": 2.0}}
    return JudgeSettings.model_validate({**base, **kw})


def test_ambiguous_band_fields_are_the_requests(tmp_path: Path) -> None:
    from assay._engine.run import Run

    requests = list(review_requests(Run.load(_run(tmp_path))))
    assert [(r.row, r.field) for r in requests] == [
        ("c1", "document_name"),
        ("c1", "effective_date"),
        ("c2", "parties"),
    ]
    assert requests[1].expected == "3/1/2020" and requests[1].predicted == "March 2020"
    assert requests[2].predicted == ["Acme Corporation"]
    assert all(0.5 <= r.score <= 0.85 for r in requests)


def test_judge_pass_calibration_and_cache(tmp_path: Path) -> None:
    from assay._engine.run import Run

    run = Run.load(_run(tmp_path))
    with fake_server(_verdicts) as srv:
        with JudgeClient(_settings(srv.url, tmp_path), env=ENV) as client:
            result = judge_run(run, client)
            assert client.ledger.summary()["spent_usd"] == pytest.approx(3 * 260 / 1e6)
        assert len(srv.requests) == 3
        auth = {h.get("Authorization") for h in srv.headers_seen}
        assert auth == {"Bearer sk-test-not-a-real-key"}
        # a second pass is answered from the cache: no new request, same records
        with JudgeClient(_settings(srv.url, tmp_path), env=ENV) as client:
            again = judge_run(run, client)
        assert len(srv.requests) == 3
    cal = result.calibration
    assert (cal.n_judged, cal.n_scored) == (3, 3)
    # parties scores 0.5: weak (<= 0.5) and judged inaccurate, an agreement; the other two lie
    # strictly between weak and strong, so they can neither agree nor lean (seed 000 §11)
    assert (cal.agree_rate.k, cal.judge_strict.k, cal.judge_lenient.k) == (1, 0, 0)
    assert cal.agree_rate.value == pytest.approx(1 / 3)
    assert [r["verdict"] for r in result.records] == ["inaccurate", "accurate", "inaccurate"]
    assert [r["kind"] for r in result.records] == ["calibration"] * 3
    assert [r["cached"] for r in again.records] == [True] * 3
    assert [r["verdict"] for r in again.records] == [r["verdict"] for r in result.records]


def test_strong_and_weak_rows_agree_or_lean(tmp_path: Path) -> None:
    """With a band that reaches past the thresholds, agreement and leans are counted."""
    from assay._engine.run import Run

    run = assay.score(
        "extraction",
        pred=write_jsonl(tmp_path / "p.jsonl", PRED),
        gold=write_jsonl(tmp_path / "g.jsonl", GOLD),
        ci=False,
        ambiguous_band=(0.0, 1.0),
    )
    run.save(tmp_path / "wide.json")
    with fake_server(_verdicts) as srv, JudgeClient(_settings(srv.url, tmp_path), env=ENV) as c:
        result = judge_run(Run.load(tmp_path / "wide.json"), c)
    scores = {(r["row"], r["field"]): r["score"] for r in result.records}
    assert scores[("c2", "governing_law")] == 1.0  # strong, judged inaccurate: strict
    cal = result.calibration
    strong_wrong = sum(
        1 for r in result.records if r["score"] >= 0.85 and r["verdict"] == "inaccurate"
    )
    assert cal.judge_strict.k == strong_wrong > 0
    assert cal.n_scored == len(result.records)


def test_a_failing_field_is_an_unscored_record_and_the_budget_stops_the_pass(
    tmp_path: Path,
) -> None:
    from assay._engine.run import Run

    run = Run.load(_run(tmp_path))

    def flaky(body: dict[str, Any], n: int) -> Reply:
        if "Field: parties" in body["messages"][-1]["content"]:
            return completion("not json at all")
        return _verdicts(body, n)

    strict_json = _settings("http://127.0.0.1:1/v1", tmp_path, max_invalid_retries=0)
    with fake_server(flaky) as srv:
        s0 = JudgeSettings.model_validate({**strict_json.model_dump(), "base_url": srv.url})
        with JudgeClient(s0, env=ENV) as c:
            result = judge_run(run, c)
    parties = [r for r in result.records if r["field"] == "parties"]
    assert parties[0]["verdict"] is None and "error" in parties[0]
    assert (result.calibration.n_judged, result.calibration.n_scored) == (3, 2)
    with fake_server(_verdicts) as srv:
        s = _settings(srv.url, tmp_path, max_cost=0.0, cache=False, concurrency=1)
        with JudgeClient(s, env=ENV) as c:
            stopped = judge_run(run, c)
    assert stopped.records == [] and stopped.stopped is not None


def test_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_path = _run(tmp_path)
    monkeypatch.setenv("ASSAY_JUDGE_API_KEY", "sk-test-not-a-real-key")
    cfg = tmp_path / "assay.yaml"
    with fake_server(_verdicts) as srv:
        cfg.write_text(
            "extraction:\n  judge:\n"
            f"    base_url: {srv.url}\n    model: judge-model\n"
            f"    cache_dir: {tmp_path / 'cache'}\n",
            encoding="utf-8",
        )
        result = CliRunner().invoke(
            build_cli(), ["extraction", "judge", str(run_path), "--config", str(cfg)]
        )
    assert result.exit_code == 0, result.output
    assert "3 ambiguous-band fields, 3 judged, 3 scored" in result.output
    records = (tmp_path / "run.judgments.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(records) == 3 and json.loads(records[0])["kind"] == "calibration"
    cal = json.loads((tmp_path / "run.judge_calibration.json").read_text(encoding="utf-8"))
    assert cal["judge_calibration"]["n_judged"] == 3
    assert set(cal["judge_calibration"]) >= {"agree_rate", "judge_strict", "judge_lenient"}
    assert "sk-test" not in json.dumps(cal)
