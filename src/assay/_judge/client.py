"""The judge client: structured JSON answers from any OpenAI-compatible chat-completions endpoint.

One call = render a versioned prompt → look the answer up in the cache → else POST
``/chat/completions`` (timeouts; retries with exponential backoff on 429, 5xx, timeouts and
connection errors, bounded per request and across the run; at most ``concurrency`` requests in
flight; the budget checked before each request) → check the model that answered → parse the
JSON → validate it with a pydantic model and an optional check → on a malformed answer, ask
again with the error shown → cache the valid answer → account tokens and cost (from counted
tokens only). The API key comes from the environment only and appears in no log, repr, cache or
run.

A dead endpoint stops the run: when one request has spent its retries, or the run its retry
budget (``max_total_retries`` retries, ``max_retry_time_s`` seconds of failed attempts and
backoff), the client raises ``JudgeUnavailableError`` and is *halted*: requests waiting to
retry wake and stop, later ones are not sent. An answer naming another model than the one asked
for halts it too (``JudgeModelMismatchError``) unless ``allow_model_mismatch``.
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

from assay._io.strict import StrictJSONError
from assay._io.strict import loads as strict_loads
from assay._judge.cache import CacheEntry, JudgeCache, cache_key, inputs_digest
from assay._judge.errors import (
    FATAL_ERRORS,
    JudgeConfigError,
    JudgeError,
    JudgeHTTPError,
    JudgeModelMismatchError,
    JudgeOutputError,
    JudgeServerError,
    JudgeTimeoutError,
    JudgeTruncatedError,
    JudgeUnavailableError,
)
from assay._judge.ledger import CallRecord, Ledger
from assay._judge.pricing import call_cost, is_snapshot_of, resolve_price
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
FATAL = FATAL_ERRORS


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
    content: str | None  # None: the answer carried no message content
    input_tokens: int | None  # None (both): the answer's tokens were not counted
    output_tokens: int | None
    attempts: int
    finish_reason: str | None = None
    model: str | None = None  # the model the answer names


def same_model(asked: str, answered: str) -> bool:
    """The answering model is the one asked for: the same name (case aside), or a dated or
    pinned snapshot of it (asked "gpt-4o", answered "gpt-4o-2024-08-06")."""
    return is_snapshot_of(answered.strip().lower(), asked.strip().lower())


def counted_tokens(usage: object) -> tuple[int | None, int | None]:
    """(prompt, completion) tokens of an answer's ``usage``, or (None, None) when they were not
    counted: no usage, non-integer or negative counts, or 0 prompt tokens (no prompt is empty:
    an endpoint reporting 0 counted nothing)."""
    if not isinstance(usage, dict):
        return None, None
    tokens_in, tokens_out = usage.get("prompt_tokens"), usage.get("completion_tokens")
    if not isinstance(tokens_in, int) or not isinstance(tokens_out, int):
        return None, None
    if isinstance(tokens_in, bool) or isinstance(tokens_out, bool):
        return None, None
    if tokens_in <= 0 or tokens_out < 0:
        return None, None
    return tokens_in, tokens_out


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
    if not text:
        raise ValueError("empty answer")
    fence = re.match(r"^```(?:json)?\s*(.*?)\s*```$", text, re.S)
    if fence:
        text = fence.group(1)
    try:  # as strictly as a record (assay._io.strict): an answer nested 10⁴ deep is refused
        return strict_loads(text)
    except StrictJSONError as err:
        raise ValueError(f"not usable JSON ({err})") from None
    except json.JSONDecodeError as err:
        start, end = text.find("{"), text.rfind("}")
        if 0 <= start < end:
            try:
                return strict_loads(text[start : end + 1])
            except StrictJSONError as inner:
                raise ValueError(f"not usable JSON ({inner})") from None
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
        sleep: Callable[[float], None] | None = None,
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
        self._sleep = sleep  # None: backoff waits wake when the client halts
        self._slots = threading.BoundedSemaphore(settings.concurrency)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        #: why the client stopped sending (a dead endpoint, another model answering)
        self.halted: JudgeError | JudgeConfigError | None = None
        self.retries = 0  # across the run
        self.retry_seconds = 0.0  # failed attempts and backoff, summed across the run
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
                    if entry.answered_model is not None:
                        self._check_model(entry.answered_model)
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
                        answered_model=entry.answered_model,
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
                    {"role": "assistant", "content": reply.content or ""},
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
                answered_model=reply.model,
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
                        answered_model=reply.model,
                    )
                )
            self.ledger.record(call)
            return JudgeResult(value, call)
        raise JudgeOutputError(
            f"{prompt.id}: no valid answer in {len(problems)} tries; last: {problems[-1]}"
        )

    @staticmethod
    def _validate(content: str | None, schema: type[T], check: Callable[[T], None] | None) -> T:
        """Parse and validate an answer; every problem is a ValueError with a short reason."""
        if content is None:
            raise ValueError("the answer has no message content")
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

    def _halt(self, error: JudgeError | JudgeConfigError) -> None:
        """Stop sending: requests waiting to retry wake and stop, later ones are not sent."""
        with self._lock:
            if self.halted is None:
                self.halted = error
        self._stop.set()

    def _check_halted(self) -> None:
        halted = self.halted
        if halted is not None:
            raise JudgeUnavailableError(f"not sent, the run is stopping: {halted}")

    def _wait(self, seconds: float) -> None:
        if self._sleep is not None:
            self._sleep(seconds)
        else:
            self._stop.wait(seconds)

    def _spend_retry(self, seconds: float, last: JudgeError) -> None:
        """Take one retry and ``seconds`` (the failed attempt and the backoff before the next)
        from the run's retry budget; when that would pass it, halt (JudgeUnavailableError)."""
        s = self.settings
        with self._lock:
            spent = (
                self.retries + 1 > s.max_total_retries
                or self.retry_seconds + seconds > s.max_retry_time_s
            )
            if not spent:
                self.retries += 1
                self.retry_seconds += seconds
                return
            error = JudgeUnavailableError(
                f"{self.config.base_url}: the run's retry budget is spent ({self.retries} "
                f"retries and {self.retry_seconds:.1f} s of failed attempts and backoff so far; "
                f"max_total_retries {s.max_total_retries}, max_retry_time_s "
                f"{s.max_retry_time_s:g}); last failure: {last}"
            )
        self._halt(error)
        raise error

    def _check_model(self, answered: str) -> None:
        """Halt on an answer from another model than the one asked for (unless allowed)."""
        asked = self.config.model
        if same_model(asked, answered) or self.settings.allow_model_mismatch:
            return
        error = JudgeModelMismatchError(
            f"{self.config.base_url} answered as model {answered!r}, not {asked!r} as asked (a "
            f"dated snapshot such as '{asked}-2024-08-06' would be the same model). If the "
            f"endpoint serves the model under that name, pass --model {answered!r}; "
            "--allow-model-mismatch (judge.allow_model_mismatch) keeps its answers and "
            "records the name"
        )
        self._halt(error)
        raise error

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
        last: JudgeTimeoutError | JudgeServerError | None = None
        attempts = self.settings.max_retries + 1
        for attempt in range(attempts):
            self._check_halted()
            reservation = self.ledger.reserve(estimate)
            started = time.monotonic()
            try:
                with self._slots:
                    self._check_halted()
                    response = self._http.post(
                        "/chat/completions", json=payload, headers=self._headers()
                    )
            except (httpx.ConnectError, httpx.ConnectTimeout) as err:
                self.ledger.release(reservation)  # never reached the endpoint: not sent
                last = JudgeTimeoutError(
                    f"{self.config.base_url}: cannot connect ({type(err).__name__})"
                )
                retry_after = None
            except httpx.TimeoutException:
                # the server may have done the work: its cost is unknown
                self.ledger.settle(reservation, None)
                last = JudgeTimeoutError(
                    f"{self.config.base_url}: no answer within {self.settings.timeout_s:g} s"
                )
                retry_after = None
            except httpx.TransportError as err:
                self.ledger.settle(reservation, None)  # sent, then the connection failed
                last = JudgeTimeoutError(
                    f"{self.config.base_url}: the connection failed ({type(err).__name__})"
                )
                retry_after = None
            else:
                status = response.status_code
                if status == 200:
                    return self._reply(response, reservation, attempt + 1)
                self.ledger.settle(reservation, 0.0)
                detail = self._scrub(response.text)
                if status in (401, 403, 404):
                    error = JudgeConfigError(
                        f"{self.config.base_url} refused model {self.config.model!r}: HTTP "
                        f"{status} ({detail})"
                    )
                    self._halt(error)
                    raise error
                if status != 429 and status < 500:
                    raise JudgeHTTPError(f"HTTP {status} ({detail})", status)
                last = JudgeServerError(f"HTTP {status} after retries ({detail})", status)
                retry_after = response.headers.get("retry-after")
            if attempt + 1 == attempts:
                break
            delay = self._backoff(attempt + 1, retry_after)
            self._spend_retry(time.monotonic() - started + delay, last)
            self._wait(delay)
        assert last is not None
        final: JudgeTimeoutError | JudgeServerError = (
            JudgeServerError(f"{last} [{attempts} attempts]", last.status)
            if isinstance(last, JudgeServerError)
            else JudgeTimeoutError(f"{last} [{attempts} attempts]")
        )
        self._halt(final)
        raise final

    def _reply(self, response: httpx.Response, reservation: float, attempts: int) -> _Reply:
        """The answer text, token usage and model of a 200 response (a missing content is
        None, which the caller treats as an unusable answer); an answer from another model
        halts the client (``_check_model``)."""
        try:
            body = response.json()
        except ValueError:
            body = None
        tokens_in, tokens_out = counted_tokens(
            body.get("usage") if isinstance(body, dict) else None
        )
        self.ledger.settle(
            reservation,
            call_cost(self.config.model, tokens_in, tokens_out, self.settings.prices),
            None if tokens_in is None or tokens_out is None else (tokens_in, tokens_out),
        )
        model = body.get("model") if isinstance(body, dict) else None
        model = model if isinstance(model, str) and model.strip() else None
        if model is not None:
            self._check_model(model)
        try:
            content = body["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            content = None
        try:
            finish = body["choices"][0].get("finish_reason")
        except (KeyError, IndexError, TypeError, AttributeError):
            finish = None
        finish = finish if isinstance(finish, str) else None
        return _Reply(
            content if isinstance(content, str) else None,
            tokens_in,
            tokens_out,
            attempts,
            finish,
            model,
        )

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
