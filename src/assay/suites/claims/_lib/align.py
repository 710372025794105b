"""Pairing and aligning: each extracted paper is matched against its reference paper once,
when the inputs are read, so a matcher failure is that paper's failure (status "failed", with
the reason) rather than a silent zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from assay._engine.keys import normalize_doi
from assay._fields.embedding import Embedder, EmbeddingStatus, load_embedding_model
from assay._io.records import ParseFailure, ReadResult, SourceRecord
from assay._judge import (
    BudgetExceededError,
    JudgeClient,
    JudgeError,
    JudgeHTTPError,
    JudgeTimeoutError,
)
from assay.errors import AssayError
from assay.suites.claims._lib.llm_matcher import match_llm, matcher_prompt
from assay.suites.claims._lib.matcher import match_deterministic
from assay.suites.claims._lib.model import Alignment, Paper
from assay.suites.claims.settings import ClaimsSettings


def embedding_status(settings: ClaimsSettings) -> tuple[Embedder | None, EmbeddingStatus]:
    """The matcher's optional embedder and a status line saying whether it is on and why."""
    off = settings.embedding_model is None or settings.embedding_model.lower() in (
        "none",
        "off",
        "",
    )
    if off and settings.embedding_path is None:
        return None, EmbeddingStatus(False, "no embedding_model configured", None)
    model = str(settings.embedding_path) if off else str(settings.embedding_model)
    return load_embedding_model(model, settings.embedding_path)


def matcher_line(s: ClaimsSettings) -> str:
    """Which matcher runs, in words ("deterministic hybrid (TF-IDF + wordllama ...), ...")."""
    if s.matcher == "llm":
        return f"llm ({s.judge.model or 'model from the environment'})"
    status = embedding_status(s)[1]
    if s.similarity == "hybrid":
        signal = "TF-IDF + " + status.reason if status.enabled else f"TF-IDF only: {status.reason}"
        return f"deterministic hybrid ({signal}), {s.assignment.replace('_', '-')}"
    return f"deterministic {s.similarity}, {s.assignment.replace('_', '-')}"


def pair_by_doi(preds: Sequence[ReadResult], golds: Sequence[ReadResult]) -> list[ReadResult]:
    """Give an extracted paper whose slug is not a reference slug the slug of the reference
    paper with its DOI (extraction runs often name papers differently)."""
    gold_ids = {g.id for g in golds if g.id is not None}
    by_doi: dict[str, str] = {}
    for g in golds:
        if isinstance(g, SourceRecord) and g.id is not None:
            doi = normalize_doi(g.record.get("doi"))
            if doi:
                by_doi.setdefault(doi, g.id)
    out: list[ReadResult] = []
    for p in preds:
        if isinstance(p, SourceRecord) and p.id not in gold_ids:
            target = by_doi.get(normalize_doi(p.record.get("doi")) or "")
            if target is not None:
                record = {**p.record, "paper": target, "paired_by": f"doi (was {p.id})"}
                p = SourceRecord(target, record, p.file, p.line)
        out.append(p)
    return out


class EndpointUnavailableError(AssayError):
    """The LLM matcher's endpoint answered no paper at all (down, unreachable, failing): the run
    stops with nothing scored or stored, instead of a scorecard of zeros."""


@dataclass(frozen=True)
class Aligned:
    """The aligned records, and, when ``--max-cost`` stopped the matcher, why and which papers
    it never matched (left out of the records: the scorecard is partial)."""

    records: list[ReadResult]
    stopped: str | None = None
    not_matched: list[str] = field(default_factory=list)


def _endpoint_down(error: JudgeError) -> bool:
    """A failure of the endpoint, not of the answer: connection, timeout, 5xx."""
    if isinstance(error, JudgeTimeoutError):
        return True
    return isinstance(error, JudgeHTTPError) and (error.status is None or error.status >= 500)


def _with_alignment(record: SourceRecord, alignment: Alignment) -> SourceRecord:
    data = {**record.record, "alignment": alignment.model_dump(mode="json")}
    return SourceRecord(record.id, data, record.file, record.line)


def align_papers(
    preds: Sequence[ReadResult],
    golds: Sequence[ReadResult],
    settings: ClaimsSettings,
    *,
    client: JudgeClient | None = None,
) -> Aligned:
    """Every extracted paper that has a reference paper, with its ``alignment`` added; a paper
    the matcher could not align becomes a ParseFailure naming the reason (a truncated answer
    too). Papers without a reference are returned as they are (the cohort lists them as
    unmatched).

    LLM matcher: when every paper failed on the endpoint itself, EndpointUnavailableError; when
    the budget stopped the run, the papers matched so far are kept and the others left out."""
    reference: dict[str, Paper] = {}
    for g in golds:
        if isinstance(g, SourceRecord) and g.id is not None:
            reference.setdefault(g.id, Paper.from_record(g.record))
    todo = [
        (i, p)
        for i, p in enumerate(preds)
        if isinstance(p, SourceRecord) and p.id is not None and p.id in reference
    ]
    out = list(preds)
    if settings.matcher == "deterministic":
        embedder = embedding_status(settings)[0]
        for i, p in todo:
            ref, cand = reference[str(p.id)], Paper.from_record(p.record)
            alignment = match_deterministic(ref.claims, cand.claims, settings, embedder=embedder)
            out[i] = _with_alignment(p, alignment)
        return Aligned(out)

    own = client is None
    judge = client or JudgeClient(settings.judge)
    try:
        prompt = matcher_prompt(settings.prompt_version)

        def run(pair: tuple[int, SourceRecord]) -> Alignment:
            _, p = pair
            ref, cand = reference[str(p.id)], Paper.from_record(p.record)
            return match_llm(judge, prompt, ref.claims, cand.claims)

        results, fatal = judge.map_until_fatal(run, todo)
        endpoint = judge.config.base_url
    finally:
        if own:
            judge.close()
    if fatal is not None and not isinstance(fatal, BudgetExceededError):
        raise fatal
    done = [r for r in results if r is not None]
    if done and all(isinstance(r, JudgeError) and _endpoint_down(r) for r in done):
        raise EndpointUnavailableError(
            f"the LLM matcher's endpoint {endpoint} answered none of the {len(done)} papers "
            f"tried ({done[0]}); nothing was scored or stored"
        )
    dropped: list[int] = []
    for (i, p), result in zip(todo, results, strict=True):
        if result is None:
            dropped.append(i)
        elif isinstance(result, JudgeError):
            out[i] = ParseFailure(p.file, p.line, f"matcher failed: {result}", p.id)
        else:
            out[i] = _with_alignment(p, result)
    if fatal is None:
        return Aligned(out)
    gone = set(dropped)
    return Aligned(
        [r for k, r in enumerate(out) if k not in gone],
        stopped=str(fatal),
        not_matched=sorted(str(preds[k].id) for k in dropped),
    )
