"""The settings every suite shares: statistics defaults and the run options."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from assay._settings.sources import MIN_ITEMS_TEST
from assay.errors import UsageError


class Section(BaseModel):
    """Base of every settings section: frozen, and an unknown key is an error."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class SuiteSection(Section):
    """Base of a suite's section: what every suite takes besides its own options.

    ``cluster_by`` names the resampling unit: a field (a path, ``meta.contract``) of the gold
    record, else of the prediction record, whose value is each item's cluster; CIs and paired
    tests then resample clusters (``assay.stats.units``). ``item`` says iid items even where the
    suite has a default cluster. Left unset, it is absent from the section's dump, so the
    settings digest of a run that does not cluster is what it was before the option existed.
    """

    cluster_by: str | None = Field(
        None,
        description="resample clusters: the gold (else prediction) field naming each item's "
        "cluster, e.g. contract or meta.doc; 'item' for iid items (default: the suite's)",
    )

    @model_serializer(mode="wrap")
    def _unset_cluster_omitted(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict) and data.get("cluster_by") is None:
            data.pop("cluster_by", None)
        return data


#: most resamples or trials accepted (a typo such as 100000000 for 1000 is an error, not an
#: hour of work; a million already pins a p-value to ±0.0005)
MAX_RESAMPLES = 1_000_000


class StatsSettings(Section):
    """Resampling defaults (seed 001: B = 1000, seed 12345, alpha 0.05; AR R = 10,000)."""

    ci: bool = True
    n_bootstrap_ci: int = Field(1000, ge=1, le=MAX_RESAMPLES)
    n_bootstrap: int = Field(1000, ge=1, le=MAX_RESAMPLES)
    n_trials: int = Field(10_000, ge=1, le=MAX_RESAMPLES)
    seed: int = Field(12345, ge=0)  # numpy's generators take seeds ≥ 0
    alpha: float = Field(0.05, gt=0.0, lt=1.0)
    method: Literal["bootstrap", "ar"] = "bootstrap"
    p_value: Literal["assay", "sacrebleu"] = "assay"
    min_items_ci: int = Field(30, ge=0)
    min_items_test: int = Field(MIN_ITEMS_TEST, ge=0)
    resampling: Literal["multinomial", "poisson"] = Field(
        "multinomial",
        description="bootstrap weights: multinomial draws (exactly N per resample) or "
        "Poisson(1) weights keyed by (seed, item id, replicate), the same for any partitioning",
    )

    @staticmethod
    def check_resamples(n: int) -> None:
        """A resample or trial count given outside the settings (a CLI option) in bounds."""
        if not 1 <= n <= MAX_RESAMPLES:
            raise UsageError(f"resamples must be from 1 to {MAX_RESAMPLES:,}, got {n:,}")


class RunSettings(Section):
    """How items are scored: parallel jobs and the executor kind."""

    jobs: int = Field(1, ge=1)
    executor: Literal["process", "thread"] = "process"
    dask: str | None = Field(
        None, description="dask://HOST:PORT: score on that Dask scheduler instead (extra [dask])"
    )
    partitions: int | None = Field(
        None,
        ge=1,
        description="item partitions on a Dask cluster (default: 4 per worker, at most 5,000 "
        "items each)",
    )
    spill: bool | None = Field(
        None,
        description="score out of core, per-item data in temporary files (default: from "
        "100,000 gold records up)",
    )
    spill_dir: str | None = Field(
        None, description="folder for the out-of-core files (default: the system's temporary one)"
    )
    samples: bool = Field(
        False,
        description="several predictions per id are samples of one item: each item's row is "
        "the mean over its samples (any suite)",
    )
    sample_field: str | None = Field(
        None,
        description="the predictions' sample index field (implies samples; default: sample, "
        "sample_index, sample_idx or epoch when present, else repeated ids in file order)",
    )
    pass_at: list[int] = Field(
        default_factory=list,
        description="the k of pass@k with samples (default: 1 and the most samples of an item)",
    )

    @field_validator("dask")
    @classmethod
    def _check_dask(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith("dask://"):
            raise ValueError("must look like dask://HOST:PORT")
        return value


class ModelPrice(Section):
    """USD per 1M tokens for one model: ``{input: 0.03, output: 0.13}`` or ``[0.03, 0.13]``."""

    input: float = Field(ge=0.0, description="USD per 1M prompt tokens")
    output: float = Field(ge=0.0, description="USD per 1M completion tokens")

    @model_validator(mode="before")
    @classmethod
    def _from_pair(cls, value: Any) -> Any:
        if isinstance(value, list | tuple):
            if len(value) != 2:
                raise ValueError("a price pair is [input, output] USD per 1M tokens")
            return {"input": value[0], "output": value[1]}
        if isinstance(value, dict):
            unknown = sorted(str(k) for k in value if k not in ("input", "output"))
            if unknown:
                raise ValueError(f"unknown key {unknown[0]!r} (a price has input and output)")
        return value


class AnalyticsSettings(Section):
    """Experiment analytics (seed 000 §9–§11, §13–§14): A/B tie band, noise floor, judge
    calibration thresholds, the price table and the Monte Carlo defaults."""

    tie_band: float = Field(0.001, ge=0.0, description="|Δ| at or below this is a tie (§9)")
    noise_dir: str = Field(".assay/noise", description="where noise floors are recorded")
    noise_level: float = Field(0.95, gt=0.0, lt=1.0, description="rerun-noise band coverage")
    noise_trials: int = Field(2000, ge=100, description="swap trials per rerun pair")
    judge_strong: float = Field(0.85, ge=0.0, le=1.0, description="deterministic strong (≥)")
    judge_weak: float = Field(0.5, ge=0.0, le=1.0, description="deterministic weak (≤)")
    prices: dict[str, ModelPrice] = Field(default_factory=dict)
    committee_sizes: list[int] = Field(default_factory=lambda: [1, 3, 5, 7, 9, 15, 25])
    mc_simulations: int = Field(2000, ge=10, description="Monte Carlo draws per document")
    escalation_thresholds: list[float] = Field(
        default_factory=lambda: [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0]
    )
    failure_docs: int = Field(320_000, ge=1, description="documents in a failure simulation")
    max_tries: int = Field(1, ge=1, description="attempts on the primary model")
    near_miss_min_share: float = Field(0.2, gt=0.0, le=1.0)
    exemplar_budget_tokens: int = Field(4000, ge=0)

    @model_validator(mode="after")
    def _check(self) -> AnalyticsSettings:
        if self.judge_weak >= self.judge_strong:
            raise ValueError("judge_weak must be below judge_strong")
        for key in self.prices:
            if not key.strip():
                raise ValueError("prices: a model key must not be empty")
        folded = [k.casefold() for k in self.prices]
        dupes = sorted({k for k in folded if folded.count(k) > 1})
        if dupes:
            raise ValueError(f"prices: keys differ only in case: {', '.join(dupes)}")
        if any(k < 1 for k in self.committee_sizes):
            raise ValueError("committee_sizes must be >= 1")
        if any(not 0.0 <= t <= 1.0 for t in self.escalation_thresholds):
            raise ValueError("escalation_thresholds must lie in [0, 1]")
        return self
