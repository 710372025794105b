"""The judge client's settings: endpoint, model, limits, cache and the price table.

A suite that uses the judge holds a ``judge:`` sub-section of this type in its own settings
section (``claims: {judge: {model: ..., max_cost: 5}}``). The API key is never a setting: only
the *name* of the environment variable that holds it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from pydantic import Field, field_validator

from assay._settings.model import Section


class ModelPrice(Section):
    """List price of one model in US dollars per million tokens."""

    input_per_mtok: float = Field(ge=0.0, description="USD per 1M input (prompt) tokens")
    output_per_mtok: float = Field(ge=0.0, description="USD per 1M output (completion) tokens")

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        """input_tokens · p_in / 1e6 + output_tokens · p_out / 1e6."""
        return (input_tokens * self.input_per_mtok + output_tokens * self.output_per_mtok) / 1e6


#: list prices (USD per 1M tokens) at the time of writing; override or extend in assay.yaml.
#: A model not listed (nor a dated snapshot of one listed) has cost None, never a guess.
DEFAULT_PRICES: dict[str, ModelPrice] = {
    "gpt-4o": ModelPrice(input_per_mtok=2.5, output_per_mtok=10.0),
    "gpt-4o-mini": ModelPrice(input_per_mtok=0.15, output_per_mtok=0.6),
    "gpt-4.1": ModelPrice(input_per_mtok=2.0, output_per_mtok=8.0),
    "gpt-4.1-mini": ModelPrice(input_per_mtok=0.4, output_per_mtok=1.6),
    "claude-opus-4": ModelPrice(input_per_mtok=15.0, output_per_mtok=75.0),
    "claude-sonnet-4": ModelPrice(input_per_mtok=3.0, output_per_mtok=15.0),
}


class JudgeSettings(Section):
    """How to reach an OpenAI-compatible chat-completions endpoint and what a run may spend."""

    base_url: str | None = Field(
        None,
        description="endpoint base URL, e.g. https://api.openai.com/v1 "
        "(else $ASSAY_JUDGE_BASE_URL, $OPENAI_BASE_URL, then OpenAI's)",
    )
    model: str | None = Field(None, description="model name (else $ASSAY_JUDGE_MODEL)")
    api_key_env: str | None = Field(
        None,
        description="name of the environment variable holding the API key "
        "(default: ASSAY_JUDGE_API_KEY, then OPENAI_API_KEY); the key itself is never a setting",
    )
    timeout_s: float = Field(
        120.0, gt=0.0, description="seconds before a request times out (--timeout)"
    )
    max_retries: int = Field(
        4,
        ge=0,
        description="retries of one request on timeouts, connection errors, 429 and 5xx; a "
        "request that fails them all stops the run (the endpoint is down)",
    )
    max_total_retries: int = Field(
        50,
        ge=0,
        description="retries allowed across the whole run (every request's together); when "
        "spent, the run stops",
    )
    max_retry_time_s: float = Field(
        600.0,
        gt=0.0,
        description="seconds the whole run may spend on failed attempts and their backoff "
        "(summed over requests); when spent, the run stops",
    )
    max_invalid_retries: int = Field(
        2, ge=0, description="retries when the answer is not valid JSON of the expected shape"
    )
    backoff_base_s: float = Field(1.0, ge=0.0, description="first backoff; doubles each retry")
    backoff_max_s: float = Field(60.0, ge=0.0, description="longest backoff (and Retry-After)")
    concurrency: int = Field(4, ge=1, description="requests in flight at once")
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    max_tokens: int = Field(4096, ge=1, description="completion token cap per request")
    json_mode: bool = Field(
        True,
        description='send response_format {"type": "json_object"} (off for endpoints '
        "that reject it)",
    )
    cache: bool = Field(True, description="reuse answers stored under cache_dir")
    cache_dir: str = Field(".assay/cache/judge", description="where answers are cached")
    max_cost: float | None = Field(
        None, ge=0.0, description="USD budget: no request starts that could exceed it"
    )
    chars_per_token: float = Field(
        3.0,
        gt=0.0,
        description="prompt characters per token assumed when estimating a request's "
        "worst-case cost against max_cost (low = conservative)",
    )
    prices: dict[str, ModelPrice] = Field(
        default_factory=lambda: dict(DEFAULT_PRICES),
        description="USD per 1M tokens by model name; dated snapshots resolve to their base name",
    )
    allow_model_mismatch: bool = Field(
        False,
        description="accept answers from a model other than the one asked for (a dated "
        "snapshot of the asked name is the same model); else the run stops at the first",
    )
    allow_unusable_answers: bool = Field(
        False,
        description="keep a run in which more than half of the items asked got no usable "
        "answer (each is a listed failure); else the run is refused",
    )
    answered_by: list[str] | None = Field(
        None,
        description="recorded by assay, not read: the model names the endpoint answered with "
        "(so the run's settings, id and signature know them)",
    )

    @field_validator("base_url")
    @classmethod
    def _no_credentials_in_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"base_url must be an http(s) URL, got {value!r}")
        if parts.username or parts.password:
            raise ValueError("base_url must not hold credentials; put the key in the environment")
        return value.rstrip("/")
