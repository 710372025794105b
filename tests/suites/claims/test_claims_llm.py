"""The LLM matcher end to end against a fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from assay._cli import main
from assay.suites.claims import Claim, MatcherAnswer
from assay.suites.claims._lib.llm_matcher import claims_block, matcher_prompt
from assay.suites.claims._lib.model import check_answer
from tests.judge.fake_openai import Reply, completion, fake_server
from tests.suites.claims.claims_copies import CLAIM_TREE, load_reference, make_copy, write_paper_dir

pytestmark = pytest.mark.skipif(
    not CLAIM_TREE.is_dir(), reason="../shared/data/claims is not laid beside the clone"
)
KEY = "sk-claims-test-SECRET-987654"


def _slugs(block: str) -> list[str]:
    return [json.loads(line)["slug"] for line in block.strip().splitlines() if line.startswith("{")]


def matcher_answer(body: dict[str, Any]) -> dict[str, Any]:
    """What a good matcher would say about the constructed copies."""
    user = body["messages"][1]["content"]
    ref_block = user.split("REFERENCE", 1)[1].split("CLI (the system's claims):", 1)[0]
    cand_block = user.split("CLI (the system's claims):", 1)[1].split("For EVERY", 1)[0]
    refs, cands = _slugs(ref_block), set(_slugs(cand_block))
    matches = []
    for slug in refs:
        if f"x-{slug}" in cands:
            matches.append(
                {
                    "ref_slug": slug,
                    "cli_slug": f"x-{slug}",
                    "match_quality": "exact",
                    "panel_match": True,
                    "role_match": True,
                    "notes": "",
                }
            )
        elif f"{slug}-part-a" in cands:
            matches.append(
                {
                    "ref_slug": slug,
                    "cli_slug": f"{slug}-part-a",
                    "match_quality": "partial",
                    "panel_match": "n/a",
                    "role_match": False,
                    "notes": "split",
                }
            )
        else:
            matches.append(
                {
                    "ref_slug": slug,
                    "cli_slug": None,
                    "match_quality": "none",
                    "panel_match": "n/a",
                    "role_match": False,
                    "notes": "",
                }
            )
    return {"matches": matches}


def good(body: dict[str, Any], n: int) -> Reply:
    return completion(json.dumps(matcher_answer(body)), 3000, 800)


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ASSAY_JUDGE_API_KEY", KEY)
    expected = {}
    for paper in load_reference():
        claims, exp = make_copy(paper)
        write_paper_dir(tmp_path / "ext", paper.paper, claims, paper.doi)
        expected[paper.paper] = exp
    return expected


def _evaluate(url: str, *extra: str) -> tuple[int, str, str]:
    return _cli(
        "claims",
        "evaluate",
        "--reference",
        str(CLAIM_TREE),
        "--extracted",
        "ext",
        "--matcher",
        "llm",
        "--model",
        "gpt-4o",
        "--base-url",
        url,
        "--no-store",
        "--n-bootstrap-ci",
        "100",
        *extra,
    )


def test_llm_matcher_scores_and_second_run_is_free(workdir: dict[str, Any]) -> None:
    with fake_server(good) as srv:
        code, out, err = _evaluate(srv.url, "-o", "first.json")
        assert code == 0, err
        assert len(srv.requests) == 3
        assert "3 calls (0 from the cache)" in err and "$0.0" in err
        code, out2, err2 = _evaluate(srv.url, "-o", "second.json")
        assert code == 0 and len(srv.requests) == 3  # all from the cache
        assert "3 calls (3 from the cache), 0 HTTP requests" in err2
    first, second = (
        json.loads(Path("first.json").read_text()),
        json.loads(Path("second.json").read_text()),
    )
    first.pop("generated_at"), second.pop("generated_at")
    assert first == second
    per_paper = {r["paper"]: r for r in first["summaries"]["per_paper"]}
    for paper, exp in workdir.items():
        assert per_paper[paper]["recovery"] == pytest.approx(exp.recovery)
        assert per_paper[paper]["exact"] == len(exp.exact)
    judge = first["summaries"]["judge"]
    # gpt-4o at $2.50 / $10 per 1M tokens: 3 × (3000 · 2.5e-6 + 800 · 1e-5)
    assert judge["calls"] == 3 and judge["cost_usd"] == pytest.approx(3 * 0.0155)
    assert first["summaries"]["matcher"]["prompt"] == "matcher@v2"
    for text in (Path("first.json").read_text(), out, err, out2, err2):
        assert KEY not in text
    assert all(KEY not in p.read_text() for p in Path(".assay/cache").rglob("*.json"))


def test_malformed_answer_fails_only_that_paper(workdir: dict[str, Any]) -> None:
    def responder(body: dict[str, Any], n: int) -> Reply:
        user = body["messages"][1]["content"]
        if "d1r-tracks-da-50ms-delay" in user:
            answer = matcher_answer(body)
            answer["matches"] = answer["matches"][:-1]  # one reference claim left out
            return completion(json.dumps(answer))
        return good(body, n)

    with fake_server(responder) as srv:
        code, _out, err = _evaluate(srv.url, "-o", "run.json")
        assert code == 0, err
        # the ejdrup paper was asked 1 + 2 corrective times
        assert len(srv.requests) == 2 + 3
    run = json.loads(Path("run.json").read_text())
    [failure] = run["cohort"]["failures"]
    assert failure["id"] == "ejdrup-2026-dopamine"
    assert (
        "matcher failed" in failure["reason"]
        and "no entry for reference claim" in failure["reason"]
    )
    assert run["metrics"]["failure"]["value"] == pytest.approx(1 / 3)
    assert {i["id"]: i["status"] for i in run["items"]}["ejdrup-2026-dopamine"] == "failed"


def test_budget_stop_writes_a_partial_scorecard(workdir: dict[str, Any]) -> None:
    """--max-cost stops the matcher: the papers it finished are scored, written and marked
    partial; the others are listed; the exit code is 3; the answers stay cached."""
    with fake_server(good) as srv:
        code, _out, err = _evaluate(
            srv.url, "--max-cost", "0.07", "--concurrency", "1", "-o", "partial.json"
        )
        assert code == 3, err
        assert "PARTIAL scorecard" in err and "was not sent" in err
        sent = len(srv.requests)
        assert 1 <= sent < 3
    cached = list(Path(".assay/cache/judge").rglob("*.json"))
    assert len(cached) == sent  # answers obtained before the stop are kept for the rerun
    run = json.loads(Path("partial.json").read_text())
    partial = run["summaries"]["partial"]
    assert "budget" in partial["reason"] and len(partial["not_matched"]) == 3 - sent
    scored = [i["id"] for i in run["items"]]
    assert len(scored) == sent and not set(scored) & set(partial["not_matched"])
    for item in run["items"]:
        assert item["status"] == "ok"
        assert item["scores"]["recovery"] == pytest.approx(workdir[item["id"]].recovery)
    # the rerun finishes from the cache what was paid for, and asks only for the rest
    with fake_server(good) as srv:
        code, _out, err = _evaluate(srv.url, "-o", "full.json")
        assert code == 0 and len(srv.requests) == 3 - sent


def test_dead_endpoint_exits_non_zero_and_stores_nothing(
    workdir: dict[str, Any], tmp_path: Path
) -> None:
    def down(body: dict[str, Any], n: int) -> Reply:
        return Reply(status=503, body={"error": {"message": "overloaded"}})

    store = tmp_path / "runs.db"
    with fake_server(down) as srv:
        code, _out, err = _cli(
            "claims",
            "evaluate",
            "--reference",
            str(CLAIM_TREE),
            "--extracted",
            "ext",
            "--matcher",
            "llm",
            "--model",
            "gpt-4o",
            "--base-url",
            srv.url,
            "--store",
            str(store),
            "-o",
            "dead.json",
            "--n-bootstrap-ci",
            "50",
            "--config",
            _fast_retries(tmp_path),
        )
    assert code == 2, err
    assert "error: stopped: " in err and "HTTP 503 after retries" in err
    assert "0 of 3 papers had been answered" in err and "nothing was scored or stored" in err
    assert not Path("dead.json").exists()
    assert not store.exists() or "claims" not in _stored_tasks(store)


def _fast_retries(tmp_path: Path) -> str:
    cfg = tmp_path / "fast.yaml"
    cfg.write_text(
        "claims:\n  judge:\n    max_retries: 1\n    backoff_base_s: 0.01\n    backoff_max_s: 0.01\n"
    )
    return str(cfg)


def _stored_tasks(store: Path) -> str:
    import sqlite3

    with sqlite3.connect(store) as db:
        tables = [r[0] for r in db.execute("select name from sqlite_master where type='table'")]
        rows = []
        for t in tables:
            rows += [str(r) for r in db.execute(f"select * from {t}")]
    return " ".join(rows)


def test_truncated_answer_is_a_listed_failure(workdir: dict[str, Any]) -> None:
    def responder(body: dict[str, Any], n: int) -> Reply:
        reply = good(body, n)
        if "d1r-tracks-da-50ms-delay" in body["messages"][1]["content"]:
            reply.body["choices"][0]["finish_reason"] = "length"
            content = reply.body["choices"][0]["message"]["content"]
            reply.body["choices"][0]["message"]["content"] = content[: len(content) // 2]
        return reply

    with fake_server(responder) as srv:
        code, _out, err = _evaluate(srv.url, "-o", "run.json")
        assert code == 0, err
        assert len(srv.requests) == 3  # a cut answer is not asked again: it would be cut again
    run = json.loads(Path("run.json").read_text())
    [failure] = run["cohort"]["failures"]
    assert failure["id"] == "ejdrup-2026-dopamine"
    assert "finish_reason 'length'" in failure["reason"] and "raise max_tokens" in failure["reason"]
    assert run["summaries"]["left_out"]["failed"] == ["ejdrup-2026-dopamine"]
    assert run["metrics"]["recovery"]["n"] == 2


def test_unknown_model_with_budget_fails_fast(workdir: dict[str, Any]) -> None:
    code, _, err = _cli(
        "claims",
        "evaluate",
        "--reference",
        str(CLAIM_TREE),
        "--extracted",
        "ext",
        "--matcher",
        "llm",
        "--model",
        "local-llama",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--max-cost",
        "1",
        "--no-store",
    )
    assert code == 2 and "price of model 'local-llama' is unknown" in err


def test_prompt_and_answer_checks() -> None:
    prompt = matcher_prompt()
    assert prompt.id == "matcher@v2" and prompt.placeholders() == {"reference", "candidates"}
    ref = [Claim("a", "A rises.", "empirical", "fig1"), Claim("b", "B falls.", "control", "fig2")]
    cands = [Claim("x", "A goes up.", "empirical", "fig1")]
    messages = prompt.render({"reference": claims_block(ref), "candidates": claims_block(cands)})
    # the deterministic matcher's panel rule and many-to-one matching, said to the LLM too
    assert "NEITHER claim cites a figure panel" in messages[1]["content"]
    assert "Several reference claims may point to the same CLI claim" in messages[1]["content"]
    assert matcher_prompt(1).id == "matcher@v1"  # the earlier wording stays loadable
    assert '"slug": "a"' in messages[1]["content"] and "$" not in re.sub(
        r"\$\d", "", messages[1]["content"]
    )
    ok = MatcherAnswer.model_validate(
        {
            "matches": [
                {
                    "ref_slug": "a",
                    "cli_slug": "x",
                    "match_quality": "exact",
                    "panel_match": True,
                    "role_match": True,
                },
                {
                    "ref_slug": "b",
                    "cli_slug": "x",
                    "match_quality": "none",
                    "panel_match": True,
                    "role_match": True,
                },
            ]
        }
    )
    check_answer(ok, ref, cands)
    assert ok.matches[1].cli_slug is None and ok.matches[1].panel_match == "n/a"
    bad = MatcherAnswer.model_validate(
        {"matches": [{"ref_slug": "a", "cli_slug": "zzz", "match_quality": "partial"}]}
    )
    with pytest.raises(ValueError, match=r"no entry for reference claim\(s\) b.*zzz"):
        check_answer(bad, ref, cands)
    with pytest.raises(ValueError, match="needs a cli_slug"):
        MatcherAnswer.model_validate(
            {"matches": [{"ref_slug": "a", "cli_slug": None, "match_quality": "exact"}]}
        )
