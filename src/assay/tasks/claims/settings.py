"""The claims suite's settings section (``claims:`` in assay.yaml)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator
from pydantic.config import JsonDict

from assay.judge.settings import JudgeSettings
from assay.settings.model import Section

#: settings fields that are not command-line options (mappings and the judge sub-section)
NOT_A_FLAG: JsonDict = {"cli": False}


class ClaimsSettings(Section):
    """Which matcher aligns reference and extracted claims, and how agreement is decided.

    The seed's matcher is an LLM; the thresholds of the deterministic matcher are ours (chosen on
    the public claim trees: paraphrases score ≥ 0.77 token F1, unrelated claims of the same paper
    ≤ 0.52, halves of a split claim 0.67–0.70).
    """

    matcher: Literal["deterministic", "llm"] = Field(
        "deterministic", description="how claims are aligned"
    )
    similarity: Literal["token_f1", "token_set_ratio"] = Field(
        "token_f1", description="deterministic matcher's text similarity"
    )
    drop_stopwords: bool = Field(
        True, description="ignore English function words when comparing claim texts"
    )
    embedding_model: str | None = Field(
        None,
        description="sentence-transformers model (local cache or path) whose cosine similarity "
        "the deterministic matcher takes when higher; needs the [embeddings] extra; off if unset",
    )
    embedding_path: str | None = Field(None, description="local directory of that model")
    exact_threshold: float = Field(
        0.75, ge=0.0, le=1.0, description="similarity at or above which a match is exact"
    )
    partial_threshold: float = Field(
        0.5, ge=0.0, le=1.0, description="similarity at or above which a match is partial"
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
        if self.partial_threshold > self.exact_threshold:
            raise ValueError(
                f"partial_threshold ({self.partial_threshold}) must not exceed "
                f"exact_threshold ({self.exact_threshold})"
            )
        return self
