"""The claims run's summaries (seed 003): the per-paper table, the match-quality totals, the
first unmatched extracted claims of each paper, the papers left out and why, which matcher ran
(and what the LLM matcher cost), and the repairs made to the inputs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay.suites.claims._lib.align import embedding_status, matcher_line
from assay.suites.claims._lib.llm_matcher import matcher_prompt
from assay.suites.claims._lib.matcher import hybrid_thresholds, trust_note
from assay.suites.claims.settings import ClaimsSettings


def claims_summaries(
    items: Sequence[Item],
    scores: Sequence[ItemScore],
    settings: ClaimsSettings,
    *,
    stopped: str | None = None,
    not_matched: Sequence[str] = (),
) -> dict[str, Any]:
    """Seed 003's per-paper table, match-quality totals, the first unmatched extracted
    claims of each paper, what the LLM matcher cost, and any input repairs (``stopped``: why
    ``--max-cost`` stopped the LLM matcher, leaving the papers ``not_matched`` out)."""
    per_paper = []
    totals = {"exact": 0, "partial": 0, "none": 0}
    unmatched: dict[str, list[str]] = {}
    for item, sc in zip(items, scores, strict=True):
        d = sc.details
        per_paper.append(
            {
                "paper": item.id,
                "status": item.status,
                "n_reference": d["n_reference"],
                "n_extracted": d["n_extracted"],
                "recovery": sc.scores["recovery"],
                "panel_agreement": sc.scores["panel_agreement"],
                "role_agreement": sc.scores["role_agreement"],
                **d["match_quality"],
                "n_unmatched_extracted": len(d["unmatched_extracted"]),
            }
        )
        for k in totals:
            totals[k] += d["match_quality"][k]
        if d["unmatched_extracted"]:
            shown = d["unmatched_extracted"][: settings.unmatched_shown]
            unmatched[item.id] = [u["slug"] for u in shown]
    left_out: dict[str, list[str]] = {"failed": [], "missing": []}
    for item in items:
        if item.status in left_out:
            left_out[item.status].append(item.id)
    file_failures = {
        it.id: list(it.gold.get("file_failures", []) + (it.pred or {}).get("file_failures", []))
        for it in items
        if it.gold.get("file_failures") or (it.pred or {}).get("file_failures")
    }
    return {
        "matcher": matcher_summary(settings),
        "scored_papers": sum(1 for it in items if it.status == "ok"),
        "left_out": left_out,
        "file_failures": file_failures,
        "partial": {"reason": stopped, "not_matched": list(not_matched)} if stopped else None,
        "per_paper": per_paper,
        "match_quality": totals,
        "unmatched_extracted_shown": unmatched,
        "judge": judge_summary(scores) if settings.matcher == "llm" else None,
        "repairs": {
            it.id: list(it.gold.get("repairs", [])) for it in items if it.gold.get("repairs")
        },
    }


def matcher_summary(s: ClaimsSettings) -> dict[str, Any]:
    """Which matcher ran, with what it needs to be reproduced and how far to trust it."""
    if s.matcher == "llm":
        prompt = matcher_prompt(s.prompt_version)
        return {
            "name": "llm",
            "model": s.judge.model,
            "answered_by": s.judge.answered_by,
            "prompt": prompt.id,
        }
    status = embedding_status(s)[1]
    out: dict[str, Any] = {
        "name": "deterministic",
        "ran": matcher_line(s),
        "trust": trust_note(s, status.enabled),
        "embeddings": status.line().replace("embedding rescue", "embeddings"),
        "similarity": s.similarity,
        "assignment": s.assignment,
        "panel_rule": s.panel_rule,
    }
    if s.similarity == "hybrid":
        tc, tm, high = hybrid_thresholds(s, status.enabled)
        out.update(
            csls_threshold=tc,
            mutual_threshold=tm,
            match_threshold=high,
            lexical_weight=s.lexical_weight,
            second_pass=s.second_pass and s.assignment == "many_to_one",
        )
    else:
        out.update(exact_threshold=s.exact_threshold, partial_threshold=s.partial_threshold)
    return out


def judge_summary(scores: Sequence[ItemScore]) -> dict[str, Any]:
    """Calls, tokens and USD of the matcher answers this run used (as first obtained, so a
    rerun from the cache reports the same figures; cost None when any call's tokens were not
    counted or its price is unknown), and the models that answered."""
    usages = [sc.details["judge"] for sc in scores if "judge" in sc.details]
    costs = [u["cost_usd"] for u in usages]
    counted = all(u["input_tokens"] is not None and u["output_tokens"] is not None for u in usages)
    return {
        "calls": len(usages),
        # None when any answer's tokens were not counted: a sum of the others would understate
        "input_tokens": sum(u["input_tokens"] for u in usages) if counted else None,
        "output_tokens": sum(u["output_tokens"] for u in usages) if counted else None,
        "cost_usd": round(sum(costs), 6) if costs and None not in costs else None,
        "models": sorted({u["model"] for u in usages}),
        "answered_by": sorted({u["answered_model"] for u in usages if u.get("answered_model")}),
    }
