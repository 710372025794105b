"""The judge client: structured JSON answers from any OpenAI-compatible chat-completions endpoint.

One call = render a versioned prompt → look the answer up in the cache → else POST
``/chat/completions`` (timeouts; retries with exponential backoff on 429, 5xx, timeouts and
connection errors; at most ``concurrency`` requests in flight; the budget checked before each
request) → parse the JSON → validate it with a pydantic model and an optional check → on a
malformed answer, ask again with the error shown → cache the valid answer → account tokens and
cost. The API key comes from the environment only and appears in no log, repr, cache or run.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from pydantic import BaseModel, ValidationError

from assay._judge.cache import CacheEntry, JudgeCache, cache_key, inputs_digest
from assay._judge.errors import (
    BudgetExceededError,
    JudgeConfigError,
    JudgeError,
    JudgeHTTPError,
    JudgeOutputError,
    JudgeTimeoutError,
    JudgeTruncatedError,
)
from assay._judge.ledger import CallRecord, Ledger
from assay._judge.pricing import call_cost, resolve_price
from assay._judge.prompts import Message, PromptTemplate
from assay._judge.settings import JudgeSettings

if TYPE_CHECKING:
    import httpx

T = TypeVar("T", bound=BaseModel)
R = TypeVar("R")
X = TypeVar("X")

DEFAULT_BASE_URL = "https://api.openai.com/v1"
BASE_URL_VARS = ("ASSAY_JUDGE_BASE_URL", "OPENAI_BASE_URL")
MODEL_VARS = ("ASSAY_JUDGE_MODEL",)
KEY_VARS = ("ASSAY_JUDGE_API_KEY", "OPENAI_API_KEY")
#: errors after which the whole run stops: retrying other items cannot help
FATAL = (BudgetExceededError, JudgeConfigError)


@dataclass(frozen=True)
class JudgeConfig:
    """Where requests go and with which key; repr and str never show the key."""

    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    key_source: str | None = None

    def __repr__(self) -> str:
        key = "None" if self.api_key is None else f"'***' (from ${self.key_source})"
        return f"JudgeConfig(base_url={self.base_url!r}, model={self.model!r}, api_key={key})"

    __str__ = __repr__


def resolve_config(settings: JudgeSettings, env: Mapping[str, str] | None = None) -> JudgeConfig:
    """Endpoint, model and key from the settings, else the environment (key: environment only)."""
    env = os.environ if env is None else env
    base_url = settings.base_url or next((env[v] for v in BASE_URL_VARS if env.get(v)), None)
    model = settings.model or next((env[v] for v in MODEL_VARS if env.get(v)), None)
    if not model:
        raise JudgeConfigError(
            "no judge model: pass --model, set judge.model in the settings or $ASSAY_JUDGE_MODEL"
        )
    names = (settings.api_key_env,) if settings.api_key_env else KEY_VARS
    source = next((n for n in names if env.get(n)), None)
    if settings.api_key_env and source is None:
        raise JudgeConfigError(f"the environment variable {settings.api_key_env} is not set")
    if base_url is not None:
        base_url = JudgeSettings(base_url=base_url).base_url
    return JudgeConfig(
        base_url=base_url or DEFAULT_BASE_URL,
        model=model,
        api_key=env[source] if source else None,
        key_source=source,
    )


@dataclass(frozen=True)
class JudgeResult(Generic[T]):
    """A validated answer and the accounting of the call that produced it."""

    value: T
    call: CallRecord


@dataclass(frozen=True)
class _Reply:
    content: str
    input_tokens: int | None
    output_tokens: int | None
    attempts: int
    finish_reason: str | None = None


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def validation_summary(err: ValidationError, limit: int = 3) -> str:
    """The first few pydantic errors as ``loc: msg``, one line."""
    parts = []
    for e in err.errors()[:limit]:
        loc = ".".join(str(p) for p in e["loc"]) or "(root)"
        parts.append(f"{loc}: {e['msg']}")
    more = len(err.errors()) - limit
    return "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")


def parse_json_object(content: str) -> Any:
    """The JSON object in an answer, tolerating a ```json fence or prose around the braces."""
    text = content.strip()
    fence = re.match(r"^```(?:json)?\s*(.*?)\s*```$", text, re.S)
    if fence:
        text = fence.group(1)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        start, end = text.find("{"), text.rfind("}")
        if 0 <= start < end:
            try:
                return json.loads(text[start : end + 1])
            except json.JSONDecodeError:
                pass
        raise ValueError(f"not valid JSON ({err.msg} at char {err.pos})") from None


class JudgeClient:
    """A reusable, thread-safe client; use it as a context manager (or call :meth:`close`)."""

    def __init__(
        self,
        settings: JudgeSettings,
        *,
        env: Mapping[str, str] | None = None,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self.config = resolve_config(settings, env)
        self.price = resolve_price(self.config.model, settings.prices)
        if settings.max_cost is not None and self.price is None:
            raise JudgeConfigError(
                f"max_cost is set but the price of model {self.config.model!r} is unknown: add "
                "it to judge.prices (USD per 1M input and output tokens)"
            )
        self.ledger = Ledger(settings.max_cost)
        self.cache = JudgeCache(settings.cache_dir) if settings.cache else None
        self._sleep = sleep
        self._slots = threading.BoundedSemaphore(settings.concurrency)
        import httpx  # here, not at the top: httpx (and its rich CLI) is heavy at start-up

        self._http = httpx.Client(
            base_url=self.config.base_url,
            timeout=httpx.Timeout(settings.timeout_s),
            transport=transport,
        )

    def __repr__(self) -> str:
        return f"JudgeClient({self.config!r})"

    def __enter__(self) -> JudgeClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    # ------------------------------------------------------------------ one structured call

    def complete_json(
        self,
        prompt: PromptTemplate,
        inputs: Mapping[str, str],
        schema: type[T],
        *,
        check: Callable[[T], None] | None = None,
    ) -> JudgeResult[T]:
        """Ask ``prompt`` filled with ``inputs``; return the answer validated by ``schema`` and
        ``check`` (which raises ValueError for a semantically wrong answer).

        Raises JudgeOutputError when every answer was malformed, JudgeTimeoutError or
        JudgeHTTPError when the endpoint failed, and the fatal BudgetExceededError /
        JudgeConfigError when the run must stop.
        """
        messages = prompt.render(inputs)
        request = {
            "messages": messages,
            "temperature": self.settings.temperature,
            "max_tokens": self.settings.max_tokens,
            "json_mode": self.settings.json_mode,
        }
        model = self.config.model
        key = cache_key(model, prompt.name, prompt.version, inputs_digest(request))
        if self.cache is not None:
            entry = self.cache.get(model, prompt.name, prompt.version, key)
            if entry is not None:
                try:
                    value = self._validate(entry.content, schema, check)
                except ValueError:
                    value = None  # stale or corrupt entry: ask again and overwrite it
                if value is not None:
                    call = CallRecord(
                        model=model,
                        prompt=prompt.name,
                        prompt_version=prompt.version,
                        cache_key=key,
                        input_tokens=entry.input_tokens,
                        output_tokens=entry.output_tokens,
                        cost_usd=entry.cost_usd,
                        cached=True,
                        attempts=entry.attempts,
                    )
                    self.ledger.record(call)
                    return JudgeResult(value, call)

        conversation: list[Message] = list(messages)
        tokens_in: int | None = 0
        tokens_out: int | None = 0
        attempts = 0
        problems: list[str] = []
        for _ in range(self.settings.max_invalid_retries + 1):
            reply = self._send(conversation)
            if reply.finish_reason == "length":
                raise JudgeTruncatedError(
                    f"{prompt.id}: the answer was cut at the token limit (finish_reason "
                    f"'length', max_tokens {self.settings.max_tokens}, "
                    f"{reply.output_tokens} output tokens); raise max_tokens"
                )
            attempts += reply.attempts
            tokens_in = (
                None
                if tokens_in is None or reply.input_tokens is None
                else (tokens_in + reply.input_tokens)
            )
            tokens_out = (
                None
                if tokens_out is None or reply.output_tokens is None
                else (tokens_out + reply.output_tokens)
            )
            try:
                value = self._validate(reply.content, schema, check)
            except ValueError as err:
                problems.append(str(err))
                conversation = [
                    *messages,
                    {"role": "assistant", "content": reply.content},
                    {
                        "role": "user",
                        "content": f"That answer is not valid: {err}. Reply with only the "
                        "corrected JSON object.",
                    },
                ]
                continue
            cost = call_cost(model, tokens_in, tokens_out, self.settings.prices)
            call = CallRecord(
                model=model,
                prompt=prompt.name,
                prompt_version=prompt.version,
                cache_key=key,
                input_tokens=tokens_in,
                output_tokens=tokens_out,
                cost_usd=cost,
                cached=False,
                attempts=attempts,
                invalid_answers=len(problems),
            )
            if self.cache is not None:
                self.cache.put(
                    CacheEntry(
                        key=key,
                        model=model,
                        prompt=prompt.name,
                        prompt_version=prompt.version,
                        content=reply.content,
                        input_tokens=tokens_in,
                        output_tokens=tokens_out,
                        cost_usd=cost,
                        attempts=attempts,
                    )
                )
            self.ledger.record(call)
            return JudgeResult(value, call)
        raise JudgeOutputError(
            f"{prompt.id}: no valid answer in {len(problems)} tries; last: {problems[-1]}"
        )

    @staticmethod
    def _validate(content: str, schema: type[T], check: Callable[[T], None] | None) -> T:
        """Parse and validate an answer; every problem is a ValueError with a short reason."""
        data = parse_json_object(content)
        try:
            value = schema.model_validate(data)
        except ValidationError as err:
            raise ValueError(validation_summary(err)) from None
        if check is not None:
            check(value)
        return value

    # ------------------------------------------------------------------ HTTP with retries

    def _estimate(self, messages: Sequence[Message]) -> float:
        """Worst-case USD of one request: prompt characters / chars_per_token + max_tokens."""
        if self.price is None:
            return 0.0
        chars = sum(len(m["content"]) for m in messages)
        tokens_in = int(chars / self.settings.chars_per_token) + 16 * len(messages)
        return self.price.cost(tokens_in, self.settings.max_tokens)

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        return headers

    def _scrub(self, text: str) -> str:
        """An endpoint's error text without the key (some echo a part of it back)."""
        if self.config.api_key:
            text = text.replace(self.config.api_key, "***")
        return _short(re.sub(r"\b(sk|key|api)[-_][A-Za-z0-9_\-*.]{6,}", "***", text))

    def _backoff(self, attempt: int, retry_after: str | None) -> float:
        """backoff_base · 2^(attempt−1), or the server's Retry-After, capped at backoff_max."""
        delay = self.settings.backoff_base_s * (2 ** (attempt - 1))
        if retry_after and re.fullmatch(r"\d+(?:\.\d+)?", retry_after.strip()):
            delay = max(delay, float(retry_after))
        return float(min(delay, self.settings.backoff_max_s))

    def _send(self, messages: Sequence[Message]) -> _Reply:
        import httpx

        payload: dict[str, Any] = {
            "model": self.config.model,
            "messages": list(messages),
            "temperature": self.settings.temperature,
            "max_tokens": self.settings.max_tokens,
        }
        if self.settings.json_mode:
            payload["response_format"] = {"type": "json_object"}
        estimate = self._estimate(messages)
        retry_after: str | None = None
        last: JudgeError | None = None
        for attempt in range(self.settings.max_retries + 1):
            if attempt:
                self._sleep(self._backoff(attempt, retry_after))
            reservation = self.ledger.reserve(estimate)
            try:
                with self._slots:
                    response = self._http.post(
                        "/chat/completions", json=payload, headers=self._headers()
                    )
            except httpx.TimeoutException:
                self.ledger.settle(reservation, None)  # the server may have done the work
                last = JudgeTimeoutError(
                    f"{self.config.base_url}: no answer within {self.settings.timeout_s:g} s"
                )
                retry_after = None
                continue
            except httpx.TransportError as err:
                self.ledger.settle(reservation, 0.0)
                last = JudgeTimeoutError(
                    f"{self.config.base_url}: cannot connect ({type(err).__name__})"
                )
                retry_after = None
                continue
            status = response.status_code
            if status == 200:
                return self._reply(response, reservation, attempt + 1)
            self.ledger.settle(reservation, 0.0)
            detail = self._scrub(response.text)
            if status in (401, 403, 404):
                raise JudgeConfigError(
                    f"{self.config.base_url} refused model {self.config.model!r}: HTTP {status} "
                    f"({detail})"
                )
            if status == 429 or status >= 500:
                last = JudgeHTTPError(f"HTTP {status} after retries ({detail})", status)
                retry_after = response.headers.get("retry-after")
                continue
            raise JudgeHTTPError(f"HTTP {status} ({detail})", status)
        assert last is not None
        raise type(last)(f"{last} [{self.settings.max_retries + 1} attempts]")

    def _reply(self, response: httpx.Response, reservation: float, attempts: int) -> _Reply:
        """The answer text and token usage of a 200 response (any shape problem → ValueError
        text the caller treats as a malformed answer)."""
        try:
            body = response.json()
        except ValueError:
            body = None
        usage = body.get("usage") if isinstance(body, dict) else None
        tokens_in = usage.get("prompt_tokens") if isinstance(usage, dict) else None
        tokens_out = usage.get("completion_tokens") if isinstance(usage, dict) else None
        tokens_in = tokens_in if isinstance(tokens_in, int) else None
        tokens_out = tokens_out if isinstance(tokens_out, int) else None
        self.ledger.settle(
            reservation, call_cost(self.config.model, tokens_in, tokens_out, self.settings.prices)
        )
        try:
            content = body["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            content = None
        if not isinstance(content, str):
            content = "(the endpoint returned no message content)"
        try:
            finish = body["choices"][0].get("finish_reason")
        except (KeyError, IndexError, TypeError, AttributeError):
            finish = None
        finish = finish if isinstance(finish, str) else None
        return _Reply(content, tokens_in, tokens_out, attempts, finish)

    # ------------------------------------------------------------------ many calls

    def map(self, fn: Callable[[X], R], items: Sequence[X]) -> list[R | JudgeError]:
        """``fn`` over ``items`` on ``concurrency`` threads, in order; a JudgeError becomes that
        item's result. A fatal error (budget, configuration) cancels what has not started and is
        raised once the requests in flight have finished."""
        results, fatal = self.map_until_fatal(fn, items)
        if fatal is not None:
            raise fatal
        return cast("list[R | JudgeError]", results)  # no fatal error: every item ran

    def map_until_fatal(
        self, fn: Callable[[X], R], items: Sequence[X]
    ) -> tuple[list[R | JudgeError | None], BaseException | None]:
        """As :meth:`map`, but a fatal error is returned beside the results instead of raised:
        every item that finished (before the error, or in flight when it came) keeps its
        result, the items never run are None — so a budget stop keeps what was paid for."""
        results: list[R | JudgeError | None] = [None] * len(items)
        fatal: BaseException | None = None
        with ThreadPoolExecutor(max_workers=self.settings.concurrency) as pool:
            futures: list[Future[R]] = [pool.submit(fn, item) for item in items]
            for k, future in enumerate(futures):
                if fatal is not None and future.cancel():
                    continue  # never started
                try:
                    results[k] = future.result()
                except FATAL as err:
                    if fatal is None:
                        fatal = err
                        for f in futures:
                            f.cancel()
                except JudgeError as err:
                    results[k] = err
        return results, fatal
