"""Every threshold of the typed field scorers (seed 000 §3), with the seed's defaults."""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator, model_validator

from assay._settings.model import SuiteSection

#: CUAD clause-QA labels are partial samples of these lists: their score is GT coverage
DEFAULT_PARTIAL_GT_FIELDS = ["parties", "key_obligations", "termination_clauses"]
#: verbatim-clause fields whose label is one sentence of a longer passage
DEFAULT_CONTAINMENT_FIELDS = ["governing_law", "term_length", "renewal_terms"]
#: party labels that only name a role ("Shipper.", "the Seller"): instantiated by any party
DEFAULT_ROLE_WORDS = [
    "agent", "borrower", "buyer", "client", "company", "consultant", "contractor", "customer",
    "developer", "distributor", "employee", "employer", "franchisee", "franchisor", "guarantor",
    "landlord", "lender", "lessee", "lessor", "licensee", "licensor", "manufacturer", "member",
    "owner", "partner", "parties", "party", "provider", "purchaser", "recipient", "reseller",
    "seller", "shipper", "sponsor", "supplier", "tenant", "vendor",
]  # fmt: skip
#: words a label-only expected date is made of ("Effective Date:", "the date of the Closing")
DEFAULT_DATE_LABEL_WORDS = [
    "agreement", "as", "closing", "commencement", "date", "dated", "day", "effective",
    "execution", "expiration", "hereof", "last", "of", "on", "signature", "signed", "the",
    "this", "termination", "upon", "year", "month",
]  # fmt: skip
#: dropped from the end of ids before the exact comparison ("Acme Corp." == "ACME", "Acme
#: Holdings, Inc." == "ACME"; issue 34 added the group words and the suffixes other
#: jurisdictions write with dots, "S.p.A.", "K.K.")
DEFAULT_CORPORATE_SUFFIXES = [
    "INC", "INCORPORATED", "CORP", "CORPORATION", "CO", "COMPANY", "LLC", "LLP", "LP", "LTD",
    "LIMITED", "PLC", "GMBH", "AG", "SA", "NV", "BV", "PTE", "PTY", "SPA", "SAS", "SARL", "KK",
    "AB", "AS", "OY", "GROUP", "HOLDING", "HOLDINGS",
]  # fmt: skip


class FieldSettings(SuiteSection):
    """Thresholds of the field scorers; the extraction suite's section extends this model."""

    date_partial_month: float = Field(
        0.67, ge=0, le=1, description="date partial credit: same year and month"
    )
    date_partial_cluster: float = Field(
        0.67, ge=0, le=1, description="date partial credit: within date_cluster_days"
    )
    date_cluster_days: int = Field(
        45, ge=0, description="execution vs effective date window, in days"
    )
    date_partial_year: float = Field(
        0.33, ge=0, le=1, description="date partial credit: same year only"
    )
    date_label_words: list[str] = Field(
        default=list(DEFAULT_DATE_LABEL_WORDS),
        description="words of label-only expected dates (null-expectation rule)",
        json_schema_extra={"cli": False},
    )
    money_tolerance: float = Field(
        0.01, ge=0, description="money amounts are equal within this many units (one cent)"
    )
    duration_tolerance_days: float = Field(
        0.5, ge=0, description="durations are equal within this many days"
    )
    corporate_suffixes: list[str] = Field(
        default=list(DEFAULT_CORPORATE_SUFFIXES),
        description="dropped from ids before the exact comparison",
        json_schema_extra={"cli": False},
    )
    bipartite_match_threshold: float = Field(
        0.6, ge=0, le=1, description="entity-list element similarity needed for a match"
    )
    partial_gt_fields: list[str] = Field(
        default=list(DEFAULT_PARTIAL_GT_FIELDS),
        description="list fields scored by GT coverage (recall), not F1",
    )
    containment_fields: list[str] = Field(
        default=list(DEFAULT_CONTAINMENT_FIELDS),
        description="fields scored by containment whatever their declared scalar type",
    )
    role_words: list[str] = Field(
        default=list(DEFAULT_ROLE_WORDS),
        description="role-word party labels, instantiated when any party is predicted",
        json_schema_extra={"cli": False},
    )
    contained_label_min_tokens: int = Field(
        3, ge=1, description="a GT label this long, verbatim inside a predicted item, is matched"
    )
    contained_label_max_tokens: int = Field(
        6, ge=1, description="longest GT label the contained-label rule applies to"
    )
    span_coverage_match: float = Field(
        0.7,
        ge=0,
        le=1,
        description="an expected list item this share token-covered by one predicted item "
        "matches it (free_text and containment elements)",
    )
    embedding_enabled: bool = Field(
        False,
        description="embedding rescue for name/free_text scores (embedding_model: wordllama, "
        "extra [semantic]; or a sentence-transformers model, extra [embeddings])",
    )
    embedding_model: str = Field(
        "sentence-transformers/all-MiniLM-L6-v2",
        description="wordllama[:variant] (the model its wheel carries), or a "
        "sentence-transformers model name resolved in the local cache",
    )
    embedding_path: str | None = Field(
        None, description="local directory of the embedding model (wins over embedding_model)"
    )
    embedding_rescue_below: float = Field(
        0.7, ge=0, le=1, description="string scores below this get max(string, cosine)"
    )
    ambiguous_band: tuple[float, float] = Field(
        (0.5, 0.85), description="field scores in [lo, hi] mark the row needs_judge_review"
    )

    @field_validator(
        "date_label_words",
        "corporate_suffixes",
        "partial_gt_fields",
        "containment_fields",
        "role_words",
        mode="before",
    )
    @classmethod
    def _split_words(cls, value: Any) -> Any:
        """A comma-separated string (a CLI option) is accepted for a word list."""
        if isinstance(value, str):
            return [w.strip() for w in value.split(",") if w.strip()]
        return value

    @field_validator("ambiguous_band", mode="before")
    @classmethod
    def _band_from_text(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(float(v) for v in value.replace(",", " ").split())
        return value

    @model_validator(mode="after")
    def _check_ranges(self) -> FieldSettings:
        lo, hi = self.ambiguous_band
        if not 0 <= lo <= hi <= 1:
            raise ValueError(f"ambiguous_band must be 0 <= lo <= hi <= 1, got {lo}, {hi}")
        if self.contained_label_min_tokens > self.contained_label_max_tokens:
            raise ValueError("contained_label_min_tokens must be <= contained_label_max_tokens")
        return self


DEFAULT_FIELD_SETTINGS = FieldSettings()
