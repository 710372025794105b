"""The LLM matcher: seed 003's matcher prompt on any OpenAI-compatible endpoint (assay._judge).

The answer must be ``{"matches": [...]}`` with one entry per reference claim, slugs that exist
and consistent qualities; a malformed answer is asked again with the error shown, then becomes a
matcher failure of that paper. The model the endpoint answered with is kept beside the cost.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from assay._judge import JudgeClient, PromptTemplate, load_prompt
from assay.suites.claims._lib.model import (
    Alignment,
    Claim,
    ClaimMatch,
    JudgeUsage,
    MatcherAnswer,
    check_answer,
    ordered_matches,
)

PROMPT_PACKAGE = "assay.suites.claims._lib"
PROMPT_NAME = "matcher"


def matcher_prompt(version: int | None = None) -> PromptTemplate:
    """The shipped matcher prompt (the newest version unless ``version`` is given)."""
    return load_prompt(PROMPT_PACKAGE, PROMPT_NAME, version)


def claims_block(claims: Sequence[Claim]) -> str:
    """One JSON object a line: slug, claim, panel, role (what the seed's matcher receives)."""
    lines = [
        json.dumps(
            {"slug": c.slug, "claim": c.text, "panel": c.panel, "role": c.role},
            ensure_ascii=False,
        )
        for c in claims
    ]
    return "\n".join(lines) if lines else "(none)"


def match_llm(
    client: JudgeClient,
    prompt: PromptTemplate,
    reference: Sequence[Claim],
    candidates: Sequence[Claim],
) -> Alignment:
    """Ask the judge to align ``reference`` with ``candidates``; no call when either is empty."""
    if not reference or not candidates:
        note = "no extracted claims" if reference else ""
        matches = [ClaimMatch(ref_slug=c.slug, match_quality="none", notes=note) for c in reference]
        return Alignment(matcher="llm", matches=matches)
    result = client.complete_json(
        prompt,
        {"reference": claims_block(reference), "candidates": claims_block(candidates)},
        MatcherAnswer,
        check=lambda answer: check_answer(answer, reference, candidates),
    )
    call = result.call
    return Alignment(
        matcher="llm",
        matches=ordered_matches(result.value, reference),
        judge=JudgeUsage(
            model=call.model,
            prompt=call.prompt,
            prompt_version=call.prompt_version,
            cache_key=call.cache_key,
            input_tokens=call.input_tokens,
            output_tokens=call.output_tokens,
            cost_usd=call.cost_usd,
            attempts=call.attempts,
            answered_model=call.answered_model,
        ),
    )
