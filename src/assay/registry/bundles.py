"""Bundles (named sets of metrics) and profiles (a pipeline stage → a bundle), with the
document-type bundles a profile may resolve to, falling back with an explicit marker."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from assay.errors import ConfigError
from assay.registry.model import tier_rank
from assay.registry.registry import MetricRegistry


@dataclass(frozen=True)
class Bundle:
    """A named, registry-validated set of metric names (``name[*]`` families allowed)."""

    name: str
    metrics: tuple[str, ...]
    description: str = ""
    #: a document-type bundle whose scorers do not exist yet declares the gap here
    pending: str | None = None

    def covers(self, metric: str, registry: MetricRegistry) -> bool:
        """True when ``metric`` (or its family) is in the bundle."""
        entry = registry.lookup(metric)
        return metric in self.metrics or (entry is not None and entry.name in self.metrics)


@dataclass(frozen=True)
class ResolvedBundle:
    """The bundle a profile uses for a document type; ``used_fallback`` says it fell back."""

    bundle: Bundle
    used_fallback: bool
    reason: str = ""


@dataclass(frozen=True)
class AgentProfile:
    """A pipeline stage's scoring identity: its task bundle and per-document-type bundles."""

    name: str
    bundle: str
    doc_bundles: Mapping[str, str] = field(default_factory=dict)
    description: str = ""
    #: False for the review agents that never require ground truth (seed 000 §0.1)
    ground_truth: bool = True

    def resolve_doc_bundle(self, doc_type: str, registry: MetricRegistry) -> ResolvedBundle:
        """The document-type bundle, or the task bundle with ``used_fallback=True`` and why."""
        task_bundle = get_bundle(registry, self.bundle)
        name = self.doc_bundles.get(doc_type)
        if name is None:
            return ResolvedBundle(
                task_bundle, True, f"profile {self.name!r} has no bundle for {doc_type!r}"
            )
        doc_bundle = get_bundle(registry, name, doc=True)
        if doc_bundle.pending:
            return ResolvedBundle(
                task_bundle, True, f"doc bundle {name!r} is pending: {doc_bundle.pending}"
            )
        return ResolvedBundle(doc_bundle, False)


def _bundle(registry: MetricRegistry, name: str, data: Mapping[str, Any], kind: str) -> Bundle:
    metrics: list[str] = []
    suite = data.get("suite")
    if suite is not None:
        metrics += registry.names(suite=str(suite))
    listed = data.get("metrics") or []
    if isinstance(listed, str) or not isinstance(listed, Iterable):
        raise ConfigError(f"{kind} {name!r}: metrics must be a list")
    for metric in listed:
        entry = registry.lookup(str(metric))
        if entry is None:
            raise ConfigError(f"{kind} {name!r}: metric {metric!r} is not in the registry")
        metrics.append(entry.name)
    pending = data.get("pending")
    return Bundle(
        name=name,
        metrics=tuple(dict.fromkeys(metrics)),
        description=str(data.get("description", "")),
        pending=None if pending is None else str(pending),
    )


def get_bundle(registry: MetricRegistry, name: str, *, doc: bool = False) -> Bundle:
    """A task bundle (or, with ``doc``, a document-type bundle), validated against the registry."""
    source = registry.doc_bundles if doc else registry.bundles
    kind = "doc bundle" if doc else "bundle"
    if name not in source:
        raise ConfigError(f"unknown {kind} {name!r}; known: {', '.join(sorted(source)) or 'none'}")
    return _bundle(registry, name, source[name], kind)


def bundles(registry: MetricRegistry) -> dict[str, Bundle]:
    return {name: get_bundle(registry, name) for name in sorted(registry.bundles)}


def get_profile(registry: MetricRegistry, name: str) -> AgentProfile:
    """The profile ``name``; its bundle and doc bundles must exist."""
    if name not in registry.profiles:
        known = ", ".join(sorted(registry.profiles)) or "none"
        raise ConfigError(f"unknown profile {name!r}; known: {known}")
    data = registry.profiles[name]
    bundle = data.get("bundle")
    if not isinstance(bundle, str):
        raise ConfigError(f"profile {name!r}: needs a bundle")
    get_bundle(registry, bundle)
    docs = data.get("doc_bundles") or {}
    if not isinstance(docs, Mapping):
        raise ConfigError(f"profile {name!r}: doc_bundles must be a mapping")
    for doc_type, doc_bundle in docs.items():
        if str(doc_bundle) not in registry.doc_bundles:
            raise ConfigError(
                f"profile {name!r}: doc_bundles.{doc_type}: unknown doc bundle {doc_bundle!r}"
            )
    ground_truth = data.get("ground_truth", True)
    if not isinstance(ground_truth, bool):
        raise ConfigError(f"profile {name!r}: ground_truth must be true or false")
    return AgentProfile(
        name=name,
        bundle=bundle,
        doc_bundles={str(k): str(v) for k, v in docs.items()},
        description=str(data.get("description", "")),
        ground_truth=ground_truth,
    )


def validate_registry(registry: MetricRegistry) -> None:
    """Every task bundle, document-type bundle and profile resolves against the registry
    (known metrics, existing bundles); the first problem is a ConfigError naming it."""
    for name in sorted(registry.bundles):
        get_bundle(registry, name)
    for name in sorted(registry.doc_bundles):
        get_bundle(registry, name, doc=True)
    for name in sorted(registry.profiles):
        get_profile(registry, name)


def dashboard_metrics(registry: MetricRegistry, agent: str) -> list[str]:
    """The dashboard view of an agent: its profile bundle ∩ T0 + T1."""
    bundle = get_bundle(registry, get_profile(registry, agent).bundle)
    return [m for m in bundle.metrics if tier_rank(registry.get(m).tier) <= 1]


def headline_metrics(registry: MetricRegistry, agent: str) -> list[str]:
    """Strictly the T0 (headline) metrics of an agent's bundle."""
    bundle = get_bundle(registry, get_profile(registry, agent).bundle)
    return [m for m in bundle.metrics if registry.get(m).tier == "T0"]


def prune_records(
    registry: MetricRegistry, agent: str, records: Iterable[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Keep the records (dicts with a ``name``) that belong on the agent's dashboard."""
    bundle = get_bundle(registry, get_profile(registry, agent).bundle)
    keep = []
    for record in records:
        name = str(record.get("name", ""))
        entry = registry.lookup(name)
        if entry is not None and bundle.covers(name, registry) and tier_rank(entry.tier) <= 1:
            keep.append(dict(record))
    return keep
