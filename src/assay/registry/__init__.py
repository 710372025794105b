"""The metric registry (name → tier T0–T3, unit, aggregation, suites), bundles, profiles and
the score emitter with its sinks (seed 000 §0.1 and "Run sink & tracing")."""

from assay.registry.build import ENV_VAR, build_registry
from assay.registry.bundles import (
    AgentProfile,
    Bundle,
    ResolvedBundle,
    bundles,
    dashboard_metrics,
    get_bundle,
    get_profile,
    headline_metrics,
    prune_records,
    validate_registry,
)
from assay.registry.emitter import EmitOutcome, Emitter, HeadlineDelta, Skipped, build_emitter
from assay.registry.model import (
    REGISTRY_TIERS,
    SPEC_TIER,
    MetricEntry,
    RegistryTier,
    as_registry_tier,
    family_of,
    tier_rank,
)
from assay.registry.registry import MetricRegistry, entry_from_spec
from assay.registry.sinks import LocalManifestSink, OtlpSink, ScoreRecord, Sink

__all__ = [
    "ENV_VAR",
    "REGISTRY_TIERS",
    "SPEC_TIER",
    "AgentProfile",
    "Bundle",
    "EmitOutcome",
    "Emitter",
    "HeadlineDelta",
    "LocalManifestSink",
    "MetricEntry",
    "MetricRegistry",
    "OtlpSink",
    "RegistryTier",
    "ResolvedBundle",
    "ScoreRecord",
    "Sink",
    "Skipped",
    "as_registry_tier",
    "build_emitter",
    "build_registry",
    "bundles",
    "dashboard_metrics",
    "entry_from_spec",
    "family_of",
    "get_bundle",
    "get_profile",
    "headline_metrics",
    "prune_records",
    "tier_rank",
    "validate_registry",
]
