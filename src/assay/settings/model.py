"""The settings every suite shares: statistics defaults and the run options."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Section(BaseModel):
    """Base of every settings section: frozen, and an unknown key is an error."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class StatsSettings(Section):
    """Resampling defaults (seed 001: B = 1000, seed 12345, alpha 0.05; AR R = 10,000)."""

    ci: bool = True
    n_bootstrap_ci: int = Field(1000, ge=1)
    n_bootstrap: int = Field(1000, ge=1)
    n_trials: int = Field(10_000, ge=1)
    seed: int = 12345
    alpha: float = Field(0.05, gt=0.0, lt=1.0)
    method: Literal["bootstrap", "ar"] = "bootstrap"
    p_value: Literal["assay", "sacrebleu"] = "assay"
    min_items_ci: int = Field(30, ge=0)
    min_items_test: int = Field(10, ge=0)


class RunSettings(Section):
    """How items are scored: parallel jobs and the executor kind."""

    jobs: int = Field(1, ge=1)
    executor: Literal["process", "thread"] = "process"
