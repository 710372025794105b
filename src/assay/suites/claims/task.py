"""The claims suite (seed 003): extracted claims scored against a curator's reference, per paper.

The item is a paper: its reference claims are the gold, its extracted claims the prediction.
Reading pairs the papers (by slug, or by DOI) and aligns each pair with the configured matcher;
scoring turns an alignment into the paper's counts (metrics.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import ItemScore, LoadedInputs, Task
from assay._judge import JudgeClient
from assay.errors import UsageError
from assay.metrics.spec import MetricSpec
from assay.suites.claims.align import align_papers, embedding_status, pair_by_doi
from assay.suites.claims.loading import read_papers
from assay.suites.claims.metrics import PaperCounts, claims_metric_specs, paper_counts
from assay.suites.claims.model import Alignment, Paper
from assay.suites.claims.settings import ClaimsSettings


class ClaimsTask(Task[ClaimsSettings]):
    """Claim-extraction round trip: recovery, panel agreement and role agreement per paper.

    ``client`` is an optional JudgeClient for the LLM matcher (the CLI passes one so it can
    report what the run spent); without it the task builds one from the settings.
    """

    name: ClassVar[str] = "claims"
    description: ClassVar[str] = (
        "claim-extraction round trip: recovery, panel and role agreement per paper"
    )
    metrics_version: ClassVar[int] = 1
    settings_model = ClaimsSettings

    def __init__(self, client: JudgeClient | None = None) -> None:
        self.client = client
        #: set by load when --max-cost stopped the LLM matcher: why, and the papers left out
        self.stopped: str | None = None
        self.not_matched: list[str] = []

    def __getstate__(self) -> dict[str, Any]:
        # a client holds sockets and locks; workers only score
        return {"client": None, "stopped": self.stopped, "not_matched": self.not_matched}

    def load(self, pred: Path, gold: tuple[Path, ...], settings: ClaimsSettings) -> LoadedInputs:
        """Reference papers (gold) and extracted papers (predictions), aligned pair by pair."""
        if len(gold) != 1:
            raise UsageError("claims takes exactly one reference (--gold / --reference)")
        golds = read_papers(gold[0])
        preds = read_papers(pred)
        if settings.pair_by_doi:
            preds = pair_by_doi(preds, golds)
        aligned = align_papers(preds, golds, settings, client=self.client)
        self.stopped, self.not_matched = aligned.stopped, aligned.not_matched
        if aligned.not_matched:  # never matched: out of the partial scorecard altogether
            left = set(aligned.not_matched)
            golds = [g for g in golds if g.id not in left]
        return LoadedInputs(aligned.records, golds, (pred,), gold)

    def score_item(self, item: Item, settings: ClaimsSettings) -> ItemScore:
        reference = Paper.from_record(item.gold)
        alignment: Alignment | None = None
        extracted: Paper | None = None
        if item.status == "ok" and item.pred is not None:
            extracted = Paper.from_record(item.pred)
            alignment = Alignment.model_validate(item.pred["alignment"])
        counts = paper_counts(
            alignment,
            len(reference.claims),
            extracted.claims if extracted else (),
            na_counts_as=settings.na_counts_as,
            failed=item.status == "failed",
            left_out=item.status != "ok",
        )
        flags: list[str] = [] if item.status == "ok" else [item.status]
        if extracted is not None and not extracted.claims:
            flags.append("no_extracted_claims")
        return ItemScore(
            stats=counts.stats(),
            scores={
                "recovery": counts.recovery,
                "panel_agreement": counts.panel_agreement,
                "role_agreement": counts.role_agreement,
            },
            flags=tuple(flags),
            details=_details(counts, alignment, extracted, item, reference),
        )

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: ClaimsSettings
    ) -> list[MetricSpec]:
        return claims_metric_specs()

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: ClaimsSettings
    ) -> dict[str, Any]:
        """Seed 003's per-paper table, match-quality totals, the first unmatched extracted
        claims of each paper, what the LLM matcher cost, and any input repairs."""
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
            "matcher": _matcher_summary(settings),
            "scored_papers": sum(1 for it in items if it.status == "ok"),
            "left_out": left_out,
            "file_failures": file_failures,
            "partial": {"reason": self.stopped, "not_matched": self.not_matched}
            if self.stopped
            else None,
            "per_paper": per_paper,
            "match_quality": totals,
            "unmatched_extracted_shown": unmatched,
            "judge": _judge_summary(scores) if settings.matcher == "llm" else None,
            "repairs": {
                it.id: list(it.gold.get("repairs", [])) for it in items if it.gold.get("repairs")
            },
        }

    def cli_group(self) -> Any:
        from assay._cli.claims import claims_group

        return claims_group


def _details(
    counts: PaperCounts,
    alignment: Alignment | None,
    extracted: Paper | None,
    item: Item,
    reference: Paper,
) -> dict[str, Any]:
    """Why a paper scored as it did: every match with the two claims' sentences (reference
    beside extracted, for the report), and every unmatched extracted claim."""
    texts = {c.slug: c.text for c in extracted.claims} if extracted else {}
    ref_texts = {c.slug: c.text for c in reference.claims}
    details: dict[str, Any] = {
        "matcher": alignment.matcher if alignment else None,
        "n_reference": counts.n_reference,
        "n_extracted": counts.n_extracted,
        "match_quality": {"exact": counts.exact, "partial": counts.partial, "none": counts.none},
        "matches": [
            {
                **m.model_dump(mode="json", exclude_none=True),
                "reference": ref_texts.get(m.ref_slug),
                "extracted": texts.get(m.cli_slug) if m.cli_slug else None,
            }
            for m in alignment.matches
        ]
        if alignment
        else [],
        "unmatched_extracted": [
            {"slug": slug, "claim": texts[slug]} for slug in counts.unmatched_extracted
        ],
    }
    if alignment is not None and alignment.judge is not None:
        details["judge"] = alignment.judge.model_dump(mode="json")
    if item.pred is not None and item.pred.get("paired_by"):
        details["paired_by"] = item.pred["paired_by"]
    return details


def _matcher_summary(s: ClaimsSettings) -> dict[str, Any]:
    if s.matcher == "llm":
        from assay.suites.claims.llm_matcher import matcher_prompt

        prompt = matcher_prompt(s.prompt_version)
        return {"name": "llm", "model": s.judge.model, "prompt": prompt.id}
    from assay.suites.claims.matcher import hybrid_thresholds, trust_note

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


def matcher_line(s: ClaimsSettings) -> str:
    """Which matcher runs, in words ("deterministic hybrid (TF-IDF + wordllama ...), ...")."""
    if s.matcher == "llm":
        return f"llm ({s.judge.model or 'model from the environment'})"
    status = embedding_status(s)[1]
    if s.similarity == "hybrid":
        signal = "TF-IDF + " + status.reason if status.enabled else f"TF-IDF only: {status.reason}"
        return f"deterministic hybrid ({signal}), {s.assignment.replace('_', '-')}"
    return f"deterministic {s.similarity}, {s.assignment.replace('_', '-')}"


def _judge_summary(scores: Sequence[ItemScore]) -> dict[str, Any]:
    """Calls, tokens and USD of the matcher answers this run used (as first obtained, so a
    rerun from the cache reports the same figures; cost None when any price was unknown)."""
    usages = [sc.details["judge"] for sc in scores if "judge" in sc.details]
    costs = [u["cost_usd"] for u in usages]
    return {
        "calls": len(usages),
        "input_tokens": sum(u["input_tokens"] or 0 for u in usages),
        "output_tokens": sum(u["output_tokens"] or 0 for u in usages),
        "cost_usd": round(sum(costs), 6) if costs and None not in costs else None,
        "models": sorted({u["model"] for u in usages}),
    }
