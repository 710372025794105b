"""Registry entries: a metric name with its tier (T0 headline … T3 log), unit, aggregation and
the suites that compute it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from assay.errors import ConfigError
from assay.metrics.kinds import proportion_kinds

RegistryTier = Literal["T0", "T1", "T2", "T3"]
REGISTRY_TIERS: tuple[RegistryTier, ...] = ("T0", "T1", "T2", "T3")
TIER_NAMES: dict[RegistryTier, str] = {"T0": "headline", "T1": "core", "T2": "deep", "T3": "log"}
#: a MetricSpec's tier as a registry tier: headline → T0, core → T1, diagnostic → T2
SPEC_TIER: dict[str, RegistryTier] = {"headline": "T0", "core": "T1", "diagnostic": "T2"}
#: the metric kinds whose values are proportions: those registered with the range [0, 1]
PROPORTION_KINDS = proportion_kinds()


def tier_rank(tier: str) -> int:
    """0 for T0 … 3 for T3; an unknown tier is a ConfigError naming the allowed ones."""
    if tier not in REGISTRY_TIERS:
        raise ConfigError(f"tier must be one of {', '.join(REGISTRY_TIERS)}, not {tier!r}")
    return [str(t) for t in REGISTRY_TIERS].index(tier)


def as_registry_tier(tier: str) -> RegistryTier:
    """A spec tier (headline/core/diagnostic) or a registry tier (T0–T3) as T0–T3."""
    if tier in SPEC_TIER:
        return SPEC_TIER[tier]
    tier_rank(tier)
    return tier  # type: ignore[return-value]


def family_of(name: str) -> str | None:
    """``accuracy[contract]`` → ``accuracy[*]``: per-class metrics share one entry."""
    if name.endswith("]") and "[" in name and not name.endswith("[*]"):
        return name[: name.index("[")] + "[*]"
    return None


@dataclass(frozen=True)
class MetricEntry:
    """One registered metric (or a family ``name[*]`` of per-class metrics)."""

    name: str
    tier: RegistryTier
    unit: str = "proportion"
    aggregation: str = "mean"
    suites: tuple[str, ...] = ()
    higher_is_better: bool = True
    description: str = ""

    @property
    def tier_name(self) -> str:
        return TIER_NAMES[self.tier]
