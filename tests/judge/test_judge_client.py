"""The judge client against a fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from assay._judge import (
    BudgetExceededError,
    JudgeClient,
    JudgeConfigError,
    JudgeHTTPError,
    JudgeModelMismatchError,
    JudgeOutputError,
    JudgeServerError,
    JudgeSettings,
    JudgeTimeoutError,
    JudgeUnavailableError,
    Ledger,
    ModelPrice,
    PromptTemplate,
    UnusableAnswersError,
    call_cost,
    check_usable,
    cost_line,
    parse_json_object,
    resolve_config,
    resolve_price,
    same_model,
)
from assay._judge.client import counted_tokens
from tests.judge.fake_openai import Reply, completion, fake_server

KEY = "sk-test-SECRET-abcdef123456"
ENV = {"ASSAY_JUDGE_API_KEY": KEY}
PROMPT = PromptTemplate(name="verdict", version=1, system="Answer in JSON.", user="Judge: $text")


class Verdict(BaseModel):
    verdict: Literal["yes", "no"]
    score: int


def settings(url: str, tmp_path: Path, **kw: Any) -> JudgeSettings:
    base: dict[str, Any] = {
        "base_url": url,
        "model": "gpt-4o",
        "cache_dir": str(tmp_path / "cache"),
        "backoff_base_s": 0.0,
        "max_retries": 2,
        "timeout_s": 5.0,
    }
    return JudgeSettings(**{**base, **kw})


def good(body: dict[str, Any], n: int) -> Reply:
    return completion(json.dumps({"verdict": "yes", "score": 3}), 1000, 200)


def test_canned_answer_is_validated_and_accounted(tmp_path: Path) -> None:
    with fake_server(good) as srv, JudgeClient(settings(srv.url, tmp_path), env=ENV) as client:
        result = client.complete_json(PROMPT, {"text": "a claim"}, Verdict)
    assert result.value == Verdict(verdict="yes", score=3)
    call = result.call
    assert (call.input_tokens, call.output_tokens, call.cached, call.attempts) == (
        1000,
        200,
        False,
        1,
    )
    # gpt-4o: $2.50 in, $10 out per 1M tokens → 1000·2.5e-6 + 200·1e-5
    assert call.cost_usd == pytest.approx(0.0045)
    assert client.ledger.spent_usd == pytest.approx(0.0045)
    sent = srv.requests[0]
    assert sent["model"] == "gpt-4o"
    assert sent["messages"][1]["content"] == "Judge: a claim"
    assert sent["response_format"] == {"type": "json_object"}
    assert srv.headers_seen[0]["Authorization"] == f"Bearer {KEY}"


def test_cache_hit_makes_no_http_call_and_repeats_exactly(tmp_path: Path) -> None:
    with fake_server(good) as srv:
        with JudgeClient(settings(srv.url, tmp_path), env=ENV) as first:
            a = first.complete_json(PROMPT, {"text": "x"}, Verdict)
        with JudgeClient(settings(srv.url, tmp_path), env=ENV) as second:
            b = second.complete_json(PROMPT, {"text": "x"}, Verdict)
        assert len(srv.requests) == 1
        assert b.value == a.value and b.call.cached and b.call.cost_usd == a.call.cost_usd
        assert second.ledger.spent_usd == 0.0
        assert second.ledger.summary()["http_requests"] == 0
        # a different input, model or prompt version is a different key
        with JudgeClient(settings(srv.url, tmp_path), env=ENV) as third:
            third.complete_json(PROMPT, {"text": "y"}, Verdict)
            v2 = PromptTemplate(name="verdict", version=2, system=PROMPT.system, user=PROMPT.user)
            third.complete_json(v2, {"text": "x"}, Verdict)
        assert len(srv.requests) == 3
    cached = list((tmp_path / "cache").rglob("*.json"))
    assert len(cached) == 3
    assert all(KEY not in p.read_text() for p in cached)


def test_malformed_answer_is_asked_again_with_the_error(tmp_path: Path) -> None:
    def responder(body: dict[str, Any], n: int) -> Reply:
        if n == 1:
            return completion("Sure! here you go: {verdict: yes}")
        if n == 2:
            return completion(json.dumps({"verdict": "maybe", "score": 1}))
        return completion("```json\n" + json.dumps({"verdict": "no", "score": 0}) + "\n```")

    with fake_server(responder) as srv, JudgeClient(settings(srv.url, tmp_path), env=ENV) as client:
        result = client.complete_json(PROMPT, {"text": "x"}, Verdict)
    assert result.value.verdict == "no"
    assert result.call.invalid_answers == 2 and result.call.attempts == 3
    assert result.call.input_tokens == 300  # tokens summed over the three answers
    retry = srv.requests[1]["messages"]
    assert retry[-2]["role"] == "assistant" and "not valid" in retry[-1]["content"]


def test_always_malformed_raises_output_error_and_caches_nothing(tmp_path: Path) -> None:
    with fake_server(lambda b, n: completion("not json at all")) as srv:
        s = settings(srv.url, tmp_path, max_invalid_retries=1)
        with JudgeClient(s, env=ENV) as client, pytest.raises(JudgeOutputError, match="2 tries"):
            client.complete_json(PROMPT, {"text": "x"}, Verdict)
        assert len(srv.requests) == 2
    assert not list((tmp_path / "cache").rglob("*.json"))


def test_semantic_check_failure_is_retried(tmp_path: Path) -> None:
    answers = iter([{"verdict": "yes", "score": 99}, {"verdict": "yes", "score": 2}])

    def check(v: Verdict) -> None:
        if v.score > 10:
            raise ValueError("score must be at most 10")

    with fake_server(lambda b, n: completion(json.dumps(next(answers)))) as srv:
        with JudgeClient(settings(srv.url, tmp_path), env=ENV) as client:
            result = client.complete_json(PROMPT, {"text": "x"}, Verdict, check=check)
        assert "score must be at most 10" in srv.requests[1]["messages"][-1]["content"]
    assert result.value.score == 2


def test_429_then_success_backs_off_exponentially(tmp_path: Path) -> None:
    sleeps: list[float] = []

    def responder(body: dict[str, Any], n: int) -> Reply:
        if n == 1:
            return Reply(429, {"error": {"message": "rate limited"}}, headers={"Retry-After": "3"})
        if n == 2:
            return Reply(503, {"error": {"message": "overloaded"}})
        return good(body, n)

    s = settings("http://x", tmp_path, backoff_base_s=0.5, backoff_max_s=10.0, max_retries=3)
    with fake_server(responder) as srv:
        s = s.model_copy(update={"base_url": srv.url})
        with JudgeClient(s, env=ENV, sleep=sleeps.append) as client:
            result = client.complete_json(PROMPT, {"text": "x"}, Verdict)
    assert result.value.score == 3 and result.call.attempts == 3
    assert sleeps == [3.0, 1.0]  # Retry-After honoured, then 0.5 · 2^1
    assert client.ledger.summary()["http_requests"] == 3


def test_retries_exhausted_on_5xx(tmp_path: Path) -> None:
    with fake_server(lambda b, n: Reply(500, {"error": "boom"})) as srv:
        s = settings(srv.url, tmp_path, max_retries=1)
        with JudgeClient(s, env=ENV) as client, pytest.raises(JudgeHTTPError, match=r"\[2 att"):
            client.complete_json(PROMPT, {"text": "x"}, Verdict)
        assert len(srv.requests) == 2


def test_answer_slower_than_the_timeout(tmp_path: Path) -> None:
    def responder(body: dict[str, Any], n: int) -> Reply:
        return Reply(200, good(body, n).body, delay=1.5 if n == 1 else 0.0)

    with fake_server(responder) as srv:
        s = settings(srv.url, tmp_path, timeout_s=0.3, max_retries=0)
        with JudgeClient(s, env=ENV) as client, pytest.raises(JudgeTimeoutError, match=r"0\.3 s"):
            client.complete_json(PROMPT, {"text": "x"}, Verdict)
        # with one retry, the second (fast) answer is used
        s = settings(srv.url, tmp_path, timeout_s=0.3, max_retries=1)
        with JudgeClient(s, env=ENV) as client:
            assert client.complete_json(PROMPT, {"text": "y"}, Verdict).value.score == 3


def test_auth_error_stops_and_never_shows_the_key(tmp_path: Path) -> None:
    def responder(body: dict[str, Any], n: int) -> Reply:
        return Reply(401, {"error": {"message": f"Incorrect API key provided: {KEY}"}})

    with fake_server(responder) as srv, JudgeClient(settings(srv.url, tmp_path), env=ENV) as client:
        with pytest.raises(JudgeConfigError) as info:
            client.complete_json(PROMPT, {"text": "x"}, Verdict)
        assert len(srv.requests) == 1
    assert KEY not in str(info.value) and "HTTP 401" in str(info.value)


def test_other_4xx_is_not_retried(tmp_path: Path) -> None:
    with fake_server(lambda b, n: Reply(400, {"error": "context too long"})) as srv:
        s = settings(srv.url, tmp_path)
        with JudgeClient(s, env=ENV) as client, pytest.raises(JudgeHTTPError, match="HTTP 400"):
            client.complete_json(PROMPT, {"text": "x"}, Verdict)
        assert len(srv.requests) == 1


def test_concurrency_limit_holds(tmp_path: Path) -> None:
    def responder(body: dict[str, Any], n: int) -> Reply:
        reply = good(body, n)
        reply.delay = 0.05
        return reply

    with fake_server(responder) as srv:
        with JudgeClient(settings(srv.url, tmp_path, concurrency=2), env=ENV) as client:
            results = client.map(
                lambda i: client.complete_json(PROMPT, {"text": str(i)}, Verdict).value,
                list(range(8)),
            )
        assert len(srv.requests) == 8
        assert srv.max_in_flight <= 2
    assert all(isinstance(r, Verdict) for r in results)


def test_budget_stops_before_it_is_exceeded(tmp_path: Path) -> None:
    # worst case of one request: (chars/3 + 32) input tokens + 100 output tokens at $1/$100
    prices = {"tiny": ModelPrice(input_per_mtok=1.0, output_per_mtok=100.0)}
    s = settings("http://x", tmp_path, model="tiny", prices=prices, max_tokens=100, max_cost=0.025)
    with fake_server(lambda b, n: completion('{"verdict": "no", "score": 1}', 50, 100)) as srv:
        s = s.model_copy(update={"base_url": srv.url})
        with JudgeClient(s, env=ENV) as client:
            outcomes = client_outcomes(client, 5)
        # each answer costs 50e-6 + 100·1e-4 = $0.01005; a third could pass $0.025
        assert outcomes == ["ok", "ok", "budget"]
        assert len(srv.requests) == 2
        assert client.ledger.spent_usd == pytest.approx(0.0201)
        assert client.ledger.spent_usd <= 0.025


def client_outcomes(client: JudgeClient, n: int) -> list[str]:
    out = []
    for i in range(n):
        try:
            client.complete_json(PROMPT, {"text": str(i)}, Verdict)
            out.append("ok")
        except BudgetExceededError:
            out.append("budget")
            break
    return out


def test_budget_stop_in_map_is_fatal(tmp_path: Path) -> None:
    prices = {"tiny": ModelPrice(input_per_mtok=1.0, output_per_mtok=100.0)}
    s = settings(
        "http://x",
        tmp_path,
        model="tiny",
        prices=prices,
        max_tokens=100,
        max_cost=0.025,
        concurrency=1,
    )
    with fake_server(lambda b, n: completion('{"verdict": "no", "score": 1}', 50, 100)) as srv:
        s = s.model_copy(update={"base_url": srv.url})
        with JudgeClient(s, env=ENV) as client, pytest.raises(BudgetExceededError):
            client.map(
                lambda i: client.complete_json(PROMPT, {"text": str(i)}, Verdict), [1, 2, 3, 4]
            )
        assert len(srv.requests) == 2


def test_max_cost_with_unknown_price_fails_fast(tmp_path: Path) -> None:
    with pytest.raises(JudgeConfigError, match="price of model 'my-local-model' is unknown"):
        JudgeClient(settings("http://127.0.0.1:9", tmp_path, model="my-local-model", max_cost=1.0))


def test_unknown_model_costs_none(tmp_path: Path) -> None:
    with (
        fake_server(good) as srv,
        JudgeClient(settings(srv.url, tmp_path, model="llama-3-local"), env=ENV) as client,
    ):
        result = client.complete_json(PROMPT, {"text": "x"}, Verdict)
    assert result.call.cost_usd is None and result.call.input_tokens == 1000
    assert client.ledger.summary()["unknown_cost_requests"] == 1


def test_price_resolution_by_snapshot_suffix_only() -> None:
    prices = JudgeSettings().prices
    assert resolve_price("gpt-4o-2024-08-06", prices) == prices["gpt-4o"]
    assert resolve_price("claude-sonnet-4-20250514", prices) == prices["claude-sonnet-4"]
    assert resolve_price("gpt-4o-mini-2024-07-18", prices) == prices["gpt-4o-mini"]
    assert resolve_price("gpt-4o-audio-preview", prices) is None  # another model: no guess
    assert resolve_price("gpt-4", prices) is None
    assert call_cost("gpt-4o", 1_000_000, 0, prices) == pytest.approx(2.5)
    assert call_cost("gpt-4o", None, 10, prices) is None


def test_config_from_environment_masks_the_key() -> None:
    env = {
        "ASSAY_JUDGE_BASE_URL": "http://127.0.0.1:8000/v1/",
        "ASSAY_JUDGE_MODEL": "m",
        "OPENAI_API_KEY": KEY,
    }
    config = resolve_config(JudgeSettings(), env)
    assert config.base_url == "http://127.0.0.1:8000/v1" and config.model == "m"
    assert config.api_key == KEY
    for text in (repr(config), str(config), repr(JudgeSettings())):
        assert KEY not in text
    assert "OPENAI_API_KEY" in repr(config)
    with pytest.raises(JudgeConfigError, match="MY_KEY is not set"):
        resolve_config(JudgeSettings(model="m", api_key_env="MY_KEY"), env)
    with pytest.raises(JudgeConfigError, match="no judge model"):
        resolve_config(JudgeSettings(), {})


def test_no_key_sends_no_authorization(tmp_path: Path) -> None:
    with fake_server(good) as srv, JudgeClient(settings(srv.url, tmp_path), env={}) as client:
        client.complete_json(PROMPT, {"text": "x"}, Verdict)
        assert "Authorization" not in srv.headers_seen[0]


def test_base_url_with_credentials_is_refused() -> None:
    with pytest.raises(ValueError, match="must not hold credentials"):
        JudgeSettings(base_url="https://user:pw@example.org/v1")


def test_parse_json_object_tolerates_fences_and_prose() -> None:
    assert parse_json_object('```json\n{"a": 1}\n```') == {"a": 1}
    assert parse_json_object('Here: {"a": [1, 2]} done') == {"a": [1, 2]}
    with pytest.raises(ValueError, match="not valid JSON"):
        parse_json_object("nothing here")


def test_client_is_thread_safe_on_the_ledger(tmp_path: Path) -> None:
    with (
        fake_server(good) as srv,
        JudgeClient(settings(srv.url, tmp_path, cache=False), env=ENV) as client,
    ):
        threads = [
            threading.Thread(target=client.complete_json, args=(PROMPT, {"text": str(i)}, Verdict))
            for i in range(6)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert client.ledger.summary()["calls"] == 6
    assert client.ledger.spent_usd == pytest.approx(6 * 0.0045)


def test_same_model_accepts_a_dated_snapshot_of_the_asked_name_only() -> None:
    assert same_model("gpt-4o", "gpt-4o") and same_model("gpt-4o", "GPT-4o")
    assert same_model("gpt-4o", "gpt-4o-2024-08-06")
    assert same_model("claude-sonnet-4", "claude-sonnet-4-20250514")
    assert not same_model("gpt-4o", "gpt-4o-mini")
    assert not same_model("gpt-4o-2024-08-06", "gpt-4o")  # a pinned ask is not confirmed
    assert not same_model("gpt-4o", "gpt-3.5-turbo")


def test_a_dead_endpoint_halts_the_client(tmp_path: Path) -> None:
    """One request spends its retries: map raises it, the requests waiting to retry stop, and
    nothing more is sent."""
    with fake_server(lambda b, n: Reply(503, {"error": "down"})) as srv:
        s = settings(srv.url, tmp_path, max_retries=2, backoff_base_s=0.05, concurrency=2)
        with JudgeClient(s, env=ENV) as client:
            with pytest.raises(JudgeServerError, match=r"HTTP 503 .*\[3 attempts\]"):
                client.map(
                    lambda i: client.complete_json(PROMPT, {"text": str(i)}, Verdict),
                    list(range(10)),
                )
            sent = len(srv.requests)
            assert sent <= 2 * 3  # two in flight, three attempts each at most
            assert isinstance(client.halted, JudgeUnavailableError)
            with pytest.raises(JudgeUnavailableError, match="not sent, the run is stopping"):
                client.complete_json(PROMPT, {"text": "later"}, Verdict)
        assert len(srv.requests) == sent


def test_the_retry_budget_spans_the_run(tmp_path: Path) -> None:
    def every_other(body: dict[str, Any], n: int) -> Reply:
        return Reply(429, {"error": "slow down"}) if n % 2 else good(body, n)

    with fake_server(every_other) as srv:
        s = settings(srv.url, tmp_path, max_retries=5, max_total_retries=2, cache=False)
        with JudgeClient(s, env=ENV) as client:
            client.complete_json(PROMPT, {"text": "a"}, Verdict)  # 429, then the answer
            client.complete_json(PROMPT, {"text": "b"}, Verdict)
            with pytest.raises(JudgeUnavailableError, match="retry budget is spent"):
                client.complete_json(PROMPT, {"text": "c"}, Verdict)
        assert client.retries == 2 and len(srv.requests) == 5


def test_the_answering_model_is_checked_and_recorded(tmp_path: Path) -> None:
    body = json.dumps({"verdict": "yes", "score": 3})
    with fake_server(lambda b, n: completion(body, model="gpt-4o-2024-08-06")) as srv:
        with JudgeClient(settings(srv.url, tmp_path), env=ENV) as client:
            first = client.complete_json(PROMPT, {"text": "x"}, Verdict)
        with JudgeClient(settings(srv.url, tmp_path), env=ENV) as client:
            again = client.complete_json(PROMPT, {"text": "x"}, Verdict)  # from the cache
    assert first.call.answered_model == again.call.answered_model == "gpt-4o-2024-08-06"
    assert again.call.cached and client.ledger.summary()["answered_by"] == ["gpt-4o-2024-08-06"]
    with fake_server(lambda b, n: completion(body, model="gpt-4o-mini")) as srv:
        s = settings(srv.url, tmp_path, cache=False)
        with JudgeClient(s, env=ENV) as client, pytest.raises(JudgeModelMismatchError):
            client.complete_json(PROMPT, {"text": "x"}, Verdict)
        allowed = settings(srv.url, tmp_path, cache=False, allow_model_mismatch=True)
        with JudgeClient(allowed, env=ENV) as client:
            call = client.complete_json(PROMPT, {"text": "x"}, Verdict).call
        assert call.answered_model == "gpt-4o-mini"


def test_counted_tokens_and_the_cost_line(tmp_path: Path) -> None:
    assert counted_tokens({"prompt_tokens": 10, "completion_tokens": 0}) == (10, 0)
    for usage in (None, {}, {"prompt_tokens": 0, "completion_tokens": 0},
                  {"prompt_tokens": -1, "completion_tokens": 3},
                  {"prompt_tokens": True, "completion_tokens": 3},
                  {"prompt_tokens": "10", "completion_tokens": 3}):  # fmt: skip
        assert counted_tokens(usage) == (None, None), usage
    replies = iter([good({}, 1), completion(json.dumps({"verdict": "no", "score": 1}), 0, 0)])
    with (
        fake_server(lambda b, n: next(replies)) as srv,
        JudgeClient(settings(srv.url, tmp_path, cache=False), env=ENV) as client,
    ):
        client.complete_json(PROMPT, {"text": "x"}, Verdict)
        assert cost_line(client.ledger.summary()) == "$0.0045 spent"
        result = client.complete_json(PROMPT, {"text": "y"}, Verdict)
        summary = client.ledger.summary()
    assert result.call.cost_usd is None and result.call.input_tokens is None
    assert summary["spent_usd"] is None and summary["counted_usd"] == pytest.approx(0.0045)
    assert cost_line(summary) == (
        "cost unknown (1 of 2 requests without token counts; $0.0045 for the other 1)"
    )
    assert cost_line(Ledger().summary()) == "nothing spent (no request sent)"


def test_check_usable_refuses_more_than_half() -> None:
    three = [f"run.json: item r{k}, field f: empty answer" for k in range(3)]
    assert check_usable(three, 6, allowed=False, what="fields") is None  # half is not more
    with pytest.raises(UnusableAnswersError) as info:
        check_usable(three, 5, allowed=False, what="fields")
    assert "3 of 5 fields could not be used" in str(info.value)
    assert "run.json: item r2, field f: empty answer" in str(info.value)
    warning = check_usable(three, 5, allowed=True, what="fields")
    assert warning is not None and "--allow-unusable-answers" in warning
