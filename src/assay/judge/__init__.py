"""LLM judges and matchers over any OpenAI-compatible chat-completions endpoint.

A suite builds a :class:`JudgeClient` from its ``judge:`` settings section, loads a versioned
prompt it ships (:func:`load_prompt`) and asks for JSON validated by a pydantic model
(:meth:`JudgeClient.complete_json`). Answers are cached on disk by (model, prompt version,
inputs digest); tokens and cost are accounted per call; ``max_cost`` stops a run before it
overspends. See docs/claims.md, "The judge client".
"""

from assay.judge.cache import CacheEntry, JudgeCache, cache_key, inputs_digest
from assay.judge.client import (
    JudgeClient,
    JudgeConfig,
    JudgeResult,
    parse_json_object,
    resolve_config,
)
from assay.judge.errors import (
    BudgetExceededError,
    JudgeConfigError,
    JudgeError,
    JudgeHTTPError,
    JudgeOutputError,
    JudgeTimeoutError,
    JudgeTruncatedError,
)
from assay.judge.ledger import CallRecord, Ledger
from assay.judge.pricing import call_cost, resolve_price
from assay.judge.prompts import PromptTemplate, available_prompts, load_prompt, parse_prompt
from assay.judge.settings import DEFAULT_PRICES, JudgeSettings, ModelPrice

__all__ = [
    "DEFAULT_PRICES",
    "BudgetExceededError",
    "CacheEntry",
    "CallRecord",
    "JudgeCache",
    "JudgeClient",
    "JudgeConfig",
    "JudgeConfigError",
    "JudgeError",
    "JudgeHTTPError",
    "JudgeOutputError",
    "JudgeResult",
    "JudgeSettings",
    "JudgeTimeoutError",
    "JudgeTruncatedError",
    "Ledger",
    "ModelPrice",
    "PromptTemplate",
    "available_prompts",
    "cache_key",
    "call_cost",
    "inputs_digest",
    "load_prompt",
    "parse_json_object",
    "parse_prompt",
    "resolve_config",
    "resolve_price",
]
