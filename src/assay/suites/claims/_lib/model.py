"""The claims suite's data: a claim, a paper's claims, and the matcher's answer (seed 003's JSON).

Claims and papers are frozen dataclasses held in memory; what crosses a process or file boundary
(a matcher's answer, an alignment) is a pydantic model validated on the way in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

MatchQuality = Literal["exact", "partial", "none"]
Agreement = bool | Literal["n/a"]


@dataclass(frozen=True)
class Claim:
    """One claim: its slug, its sentence, its role and the panel text it cites."""

    slug: str
    text: str
    role: str | None = None
    panel: str | None = None
    concepts: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "claim": self.text,
            "role": self.role,
            "panel": self.panel,
            "concepts": list(self.concepts),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Claim:
        return cls(
            slug=str(data["slug"]),
            text=str(data["claim"]),
            role=data.get("role"),
            panel=data.get("panel"),
            concepts=tuple(data.get("concepts") or ()),
        )


@dataclass(frozen=True)
class Paper:
    """A paper's claims (reference or extracted), keyed by the paper's slug."""

    paper: str
    claims: tuple[Claim, ...]
    doi: str | None = None
    title: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_record(self) -> dict[str, Any]:
        """The JSON record the cohort pairs and digests (content only, no file paths)."""
        return {
            "paper": self.paper,
            "doi": self.doi,
            "title": self.title,
            "claims": [c.to_json() for c in self.claims],
        }

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> Paper:
        return cls(
            paper=str(data["paper"]),
            claims=tuple(Claim.from_json(c) for c in data.get("claims", [])),
            doi=data.get("doi"),
            title=data.get("title"),
        )


class ClaimMatch(BaseModel):
    """The matcher's verdict on one reference claim (seed 003's ``matches[]`` entry).

    ``cli_slug`` is the chosen extracted claim (None when ``match_quality`` is ``none``);
    ``panel_match`` and ``role_match`` say whether it cites the reference's panel and role
    ("n/a" when one side has none). ``similarity`` is set by the deterministic matcher only.
    """

    model_config = ConfigDict(extra="ignore", frozen=True)

    ref_slug: str
    cli_slug: str | None = None
    match_quality: MatchQuality
    panel_match: Agreement = "n/a"
    role_match: Agreement = False
    notes: str = ""
    similarity: float | None = None

    @model_validator(mode="before")
    @classmethod
    def _no_match_has_no_candidate(cls, data: Any) -> Any:
        """A ``none`` verdict carries no candidate, panel or role agreement, whatever was sent."""
        if isinstance(data, dict) and data.get("match_quality") == "none":
            return {**data, "cli_slug": None, "panel_match": "n/a", "role_match": False}
        return data

    @model_validator(mode="after")
    def _match_has_candidate(self) -> ClaimMatch:
        if self.match_quality != "none" and not self.cli_slug:
            raise ValueError(
                f"ref_slug {self.ref_slug!r}: match_quality {self.match_quality!r} needs a cli_slug"
            )
        return self

    @property
    def recovered(self) -> bool:
        """Exact + partial = recovered (seed 003)."""
        return self.match_quality != "none"


class MatcherAnswer(BaseModel):
    """The matcher's JSON object: ``{"matches": [...]}``, one entry per reference claim."""

    model_config = ConfigDict(extra="ignore")

    matches: list[ClaimMatch]


def check_answer(
    answer: MatcherAnswer, reference: Sequence[Claim], candidates: Sequence[Claim]
) -> None:
    """Raise ValueError unless every reference slug appears exactly once and every chosen
    candidate slug exists: a malformed answer is retried, never scored."""
    ref_slugs = [c.slug for c in reference]
    cand_slugs = {c.slug for c in candidates}
    counts = Counter(m.ref_slug for m in answer.matches)
    problems: list[str] = []
    missing = [s for s in ref_slugs if s not in counts]
    if missing:
        problems.append(f"no entry for reference claim(s) {', '.join(missing[:5])}")
    unknown = sorted(s for s in counts if s not in set(ref_slugs))
    if unknown:
        problems.append(f"unknown ref_slug(s) {', '.join(unknown[:5])}")
    twice = sorted(s for s, n in counts.items() if n > 1)
    if twice:
        problems.append(f"ref_slug(s) listed more than once: {', '.join(twice[:5])}")
    chosen = {m.cli_slug for m in answer.matches if m.cli_slug is not None}
    bad = sorted(chosen - cand_slugs)
    if bad:
        problems.append(f"cli_slug(s) not among the extracted claims: {', '.join(bad[:5])}")
    if problems:
        raise ValueError("; ".join(problems))


def ordered_matches(answer: MatcherAnswer, reference: Sequence[Claim]) -> list[ClaimMatch]:
    """The answer's entries in reference order (after :func:`check_answer`)."""
    by_slug = {m.ref_slug: m for m in answer.matches}
    return [by_slug[c.slug] for c in reference]


class JudgeUsage(BaseModel):
    """What one LLM matcher call cost (from the cache entry, so reruns report the same)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str
    prompt: str
    prompt_version: int
    cache_key: str
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    attempts: int = 1
    #: the model the endpoint named in its answer (None: it named none)
    answered_model: str | None = None


class Alignment(BaseModel):
    """A matcher's result for one paper: one ClaimMatch per reference claim, in order."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    matcher: str
    matches: list[ClaimMatch]
    judge: JudgeUsage | None = None
    notes: list[str] = Field(default_factory=list)
