"""The claims suite's settings section (``claims:`` in assay.yaml)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator
from pydantic.config import JsonDict

from assay._judge import JudgeSettings
from assay._settings.model import SuiteSection

#: settings fields that are not command-line options (mappings and the judge sub-section)
NOT_A_FLAG: JsonDict = {"cli": False}


class ClaimsSettings(SuiteSection):
    """Which matcher aligns reference and extracted claims, and how agreement is decided.

    The seed's matcher is an LLM. The deterministic matcher's default similarity is ``hybrid``
    (TF-IDF terms blended with wordllama sentence embeddings, hubness-corrected; semantic.py) with
    thresholds calibrated on known-answer round trips built from the public claim trees and their
    plain-language rewrites (roundtrip.py, ``benchmarks/bench_claims.py --accuracy``). The token
    similarities and their thresholds are the earlier matcher, kept for comparison.
    """

    matcher: Literal["deterministic", "llm"] = Field(
        "deterministic", description="how claims are aligned"
    )
    similarity: Literal["hybrid", "token_f1", "token_set_ratio"] = Field(
        "hybrid",
        description="deterministic matcher's text similarity: hybrid (TF-IDF + embeddings, "
        "hubness-corrected) or a token similarity",
    )
    assignment: Literal["many_to_one", "one_to_one"] = Field(
        "many_to_one",
        description="each reference claim picks its best extracted claim (the seed's matcher; "
        "several may pick the same one), or an optimal one-to-one assignment",
    )
    drop_stopwords: bool = Field(
        True, description="ignore English function words when comparing claim texts"
    )
    embedding_model: str | None = Field(
        "wordllama",
        description="sentence embedder of the deterministic matcher: wordllama (extra "
        "[semantic]) or a sentence-transformers model (local cache or --embedding-path; extra "
        "[embeddings]); blended into hybrid, max() with token similarities; none: off",
    )
    embedding_path: str | None = Field(None, description="local directory of that model")
    allow_fallback: bool = Field(
        False,
        description="when the configured embedder cannot run (its extra is not installed), "
        "score with the matcher's other signals instead of refusing; the run records it",
    )
    matcher_backend: str | None = Field(
        None,
        description="the matcher that ran, set by the suite (not an option): it enters the "
        "run's settings, config digest, id and signature",
        json_schema_extra=NOT_A_FLAG,
    )
    lexical_weight: float = Field(
        0.7, ge=0.0, le=1.0, description="hybrid: weight of TF-IDF against the embedding cosine"
    )
    hubness_k: int = Field(
        5, ge=1, description="hybrid: neighbours averaged by the hubness correction (CSLS)"
    )
    csls_threshold: float | None = Field(
        None,
        description="hybrid: corrected similarity at or above which a pair matches [default: "
        "calibrated, with or without embeddings]",
    )
    mutual_threshold: float | None = Field(
        None,
        description="hybrid: corrected similarity at or above which two claims that are each "
        "other's best match [default: calibrated]",
    )
    match_threshold: float | None = Field(
        None,
        description="hybrid: blended similarity at or above which a pair matches whatever its "
        "neighbours [default: calibrated]",
    )
    fragment_precision: float = Field(
        0.9,
        ge=0.0,
        le=1.0,
        description="hybrid: an extracted claim at least this share of whose words are one "
        "run of a reference claim's, word for word, ...",
    )
    fragment_recall: float = Field(
        0.7,
        ge=0.0,
        le=1.0,
        description="... covering at most this share of the reference's content words is a "
        "fragment of it: picked only when no whole candidate is eligible",
    )
    second_pass: bool = Field(
        True,
        description="hybrid: a reference claim left unmatched takes its best extracted claim "
        "among those no reference picked, when it is that claim's best reference and their "
        "corrected similarity reaches mutual_threshold (mutual best among the leftovers)",
    )
    min_similarity: float = Field(
        0.1,
        ge=0.0,
        le=1.0,
        description="hybrid: blended similarity below which no pair matches, however much it "
        "stands out (a paper with few claims has little neighbourhood to compare with)",
    )
    share_ratio: float = Field(
        0.4,
        ge=0.0,
        le=1.0,
        description="hybrid: a reference claim may take an extracted claim only when its "
        "corrected similarity is at least this share of that claim's best reference's (a "
        "merger, not a neighbour's match)",
    )
    narrower_ratio: float = Field(
        0.6,
        gt=0.0,
        description="hybrid: a match is partial when its length ratio (extracted / reference "
        "words, over the paper's median ratio) is at or below this (a split claim's half)",
    )
    broader_ratio: float = Field(
        1.6,
        gt=0.0,
        description="hybrid: ... or at or above this (a claim merging several)",
    )
    exact_threshold: float = Field(
        0.75,
        ge=0.0,
        le=1.0,
        description="token similarities: similarity at or above which a match is exact",
    )
    partial_threshold: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="token similarities: similarity at or above which a match is partial",
    )
    panel_rule: Literal["equal", "overlap"] = Field(
        "equal",
        description="deterministic panel agreement: the same panel set, or any shared panel",
    )
    na_counts_as: Literal["disagreement", "excluded"] = Field(
        "disagreement",
        description='panel/role agreement of "n/a": in the denominator (the seed\'s '
        "definition) or left out of it",
    )
    role_aliases: dict[str, str] = Field(
        default_factory=dict,
        description="role spellings mapped to one role, e.g. {interpretive: interpretation}",
        json_schema_extra=NOT_A_FLAG,
    )
    unmatched_shown: int = Field(
        10, ge=0, description="unmatched extracted claims listed per paper in the scorecard"
    )
    pair_by_doi: bool = Field(
        True, description="pair an extracted paper with the reference paper of the same DOI"
    )
    prompt_version: int | None = Field(
        None, description="LLM matcher prompt version (default: the newest shipped)"
    )
    diff_metrics: list[str] = Field(
        ["recovery", "role_agreement"],
        description="metrics `assay claims diff` judges a change by (seed: recovery and role)",
    )
    judge: JudgeSettings = Field(
        default_factory=JudgeSettings,
        description="the LLM matcher's endpoint, model, limits, cache and prices",
        json_schema_extra=NOT_A_FLAG,
    )

    @model_validator(mode="after")
    def _thresholds_ordered(self) -> ClaimsSettings:
        if self.narrower_ratio >= self.broader_ratio:
            raise ValueError(
                f"narrower_ratio ({self.narrower_ratio}) must be below "
                f"broader_ratio ({self.broader_ratio})"
            )
        if self.partial_threshold > self.exact_threshold:
            raise ValueError(
                f"partial_threshold ({self.partial_threshold}) must not exceed "
                f"exact_threshold ({self.exact_threshold})"
            )
        return self
