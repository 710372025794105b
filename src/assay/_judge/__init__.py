"""LLM judges and matchers over any OpenAI-compatible chat-completions endpoint.

A suite builds a :class:`JudgeClient` from its ``judge:`` settings section, loads a versioned
prompt it ships (:func:`load_prompt`) and asks for JSON validated by a pydantic model
(:meth:`JudgeClient.complete_json`). Answers are cached on disk by (model, prompt version,
inputs digest); tokens and cost are accounted per call (dollars from counted tokens only);
``max_cost`` stops a run before it overspends; retries are bounded per request and across the
run, and a dead endpoint, or one answering as another model, stops the run; a run whose answers
are mostly unusable is refused (:mod:`assay._judge.outcome`). See suites/claims/docs.md, "The
judge client".

The names below load with their module on first use (:mod:`assay._lazy`): a suite that reads
only ``assay._judge.settings`` does not import the client, its cache or its ledger.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay._judge.cache import CacheEntry, JudgeCache, cache_key, inputs_digest
    from assay._judge.client import (
        JudgeClient,
        JudgeConfig,
        JudgeResult,
        parse_json_object,
        resolve_config,
        same_model,
    )
    from assay._judge.errors import (
        FATAL_ERRORS,
        BudgetExceededError,
        JudgeConfigError,
        JudgeError,
        JudgeHTTPError,
        JudgeModelMismatchError,
        JudgeOutputError,
        JudgeRunStoppedError,
        JudgeServerError,
        JudgeTimeoutError,
        JudgeTruncatedError,
        JudgeUnavailableError,
        UnusableAnswersError,
    )
    from assay._judge.ledger import CallRecord, Ledger, cost_line
    from assay._judge.outcome import UNUSABLE_LIMIT, check_usable, run_stopped
    from assay._judge.pricing import call_cost, resolve_price
    from assay._judge.prompts import PromptTemplate, available_prompts, load_prompt, parse_prompt
    from assay._judge.settings import DEFAULT_PRICES, JudgeSettings, ModelPrice

_MODULES = {
    "assay._judge.cache": (
        "CacheEntry",
        "JudgeCache",
        "cache_key",
        "inputs_digest",
    ),
    "assay._judge.client": (
        "JudgeClient",
        "JudgeConfig",
        "JudgeResult",
        "parse_json_object",
        "resolve_config",
        "same_model",
    ),
    "assay._judge.errors": (
        "FATAL_ERRORS",
        "BudgetExceededError",
        "JudgeConfigError",
        "JudgeError",
        "JudgeHTTPError",
        "JudgeModelMismatchError",
        "JudgeOutputError",
        "JudgeRunStoppedError",
        "JudgeServerError",
        "JudgeTimeoutError",
        "JudgeTruncatedError",
        "JudgeUnavailableError",
        "UnusableAnswersError",
    ),
    "assay._judge.ledger": (
        "CallRecord",
        "Ledger",
        "cost_line",
    ),
    "assay._judge.outcome": (
        "UNUSABLE_LIMIT",
        "check_usable",
        "run_stopped",
    ),
    "assay._judge.pricing": (
        "call_cost",
        "resolve_price",
    ),
    "assay._judge.prompts": (
        "PromptTemplate",
        "available_prompts",
        "load_prompt",
        "parse_prompt",
    ),
    "assay._judge.settings": (
        "DEFAULT_PRICES",
        "JudgeSettings",
        "ModelPrice",
    ),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "DEFAULT_PRICES",
    "FATAL_ERRORS",
    "UNUSABLE_LIMIT",
    "BudgetExceededError",
    "CacheEntry",
    "CallRecord",
    "JudgeCache",
    "JudgeClient",
    "JudgeConfig",
    "JudgeConfigError",
    "JudgeError",
    "JudgeHTTPError",
    "JudgeModelMismatchError",
    "JudgeOutputError",
    "JudgeResult",
    "JudgeRunStoppedError",
    "JudgeServerError",
    "JudgeSettings",
    "JudgeTimeoutError",
    "JudgeTruncatedError",
    "JudgeUnavailableError",
    "Ledger",
    "ModelPrice",
    "PromptTemplate",
    "UnusableAnswersError",
    "available_prompts",
    "cache_key",
    "call_cost",
    "check_usable",
    "cost_line",
    "inputs_digest",
    "load_prompt",
    "parse_json_object",
    "parse_prompt",
    "resolve_config",
    "resolve_price",
    "run_stopped",
    "same_model",
]
