"""The metric registry: every metric name → tier, unit, aggregation and suites.

Built by ``assay.registry.build.build_registry`` from the suites' MetricSpecs (each registered
task's specs on its default settings, and the specs stored in runs), then the packaged
``defaults.yaml``, then ``ASSAY_REGISTRY``'s YAML.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from assay._engine.run import Run
from assay.errors import ConfigError
from assay.metrics.kinds import proportion_kinds
from assay.metrics.spec import MetricSpec
from assay.registry.model import (
    MetricEntry,
    RegistryTier,
    as_registry_tier,
    family_of,
    tier_rank,
)

_ENTRY_KEYS = {"tier", "unit", "aggregation", "suites", "higher_is_better", "description"}


@dataclass
class MetricRegistry:
    """Metric entries by name, with ``name[*]`` families for per-class metrics."""

    entries: dict[str, MetricEntry] = field(default_factory=dict)
    bundles: dict[str, dict[str, Any]] = field(default_factory=dict)
    profiles: dict[str, dict[str, Any]] = field(default_factory=dict)
    doc_bundles: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: suites whose default specs could not be read (name → reason)
    errors: dict[str, str] = field(default_factory=dict)

    def lookup(self, name: str) -> MetricEntry | None:
        """The entry for ``name``, or for its family (``accuracy[x]`` → ``accuracy[*]``)."""
        entry = self.entries.get(name)
        if entry is None:
            family = family_of(name)
            if family is not None:
                entry = self.entries.get(family)
        return entry

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.lookup(name) is not None

    def get(self, name: str) -> MetricEntry:
        entry = self.lookup(name)
        if entry is None:
            raise ConfigError(f"metric {name!r} is not in the registry")
        return entry

    def names(self, *, min_tier: str = "T3", suite: str | None = None) -> list[str]:
        """Registered names at tier ``min_tier`` or above (T0 is the top)."""
        limit = tier_rank(min_tier)
        return sorted(
            e.name
            for e in self.entries.values()
            if tier_rank(e.tier) <= limit and (suite is None or suite in e.suites)
        )

    def add(self, entry: MetricEntry) -> None:
        """Add or merge: a known name gains the suite, the first definition's tier stays."""
        old = self.entries.get(entry.name)
        if old is None:
            self.entries[entry.name] = entry
            return
        suites = tuple(sorted(set(old.suites) | set(entry.suites)))
        self.entries[entry.name] = replace(old, suites=suites)

    def add_specs(self, suite: str, specs: Iterable[MetricSpec]) -> None:
        """Register a suite's MetricSpecs (per-class names as one ``name[*]`` family)."""
        for spec in specs:
            self.add(entry_from_spec(suite, spec.to_json()))

    def learn_run(self, run: Run) -> None:
        """Register the specs a stored or loaded run carries."""
        for spec in run.specs:
            self.add(entry_from_spec(run.task, spec))

    def overlay(self, data: Mapping[str, Any], *, source: str) -> None:
        """Lay a YAML mapping (metrics / bundles / profiles / doc_bundles) over the registry."""
        unknown = set(data) - {"metrics", "bundles", "profiles", "doc_bundles"}
        if unknown:
            raise ConfigError(f"{source}: unknown section(s) {', '.join(sorted(unknown))}")
        for name, values in (data.get("metrics") or {}).items():
            self.entries[str(name)] = _entry_from_yaml(
                str(name), values, self.entries.get(str(name)), source
            )
        for section in ("bundles", "profiles", "doc_bundles"):
            target: dict[str, dict[str, Any]] = getattr(self, section)
            for name, values in (data.get(section) or {}).items():
                if not isinstance(values, Mapping):
                    raise ConfigError(f"{source}: {section}.{name}: expected a mapping")
                target[str(name)] = dict(values)


def entry_from_spec(suite: str, spec: Mapping[str, Any]) -> MetricEntry:
    """A registry entry from a MetricSpec's JSON form; tiers headline/core/diagnostic → T0–T2."""
    name = str(spec["name"])
    kind = str(spec.get("kind", "mean"))
    return MetricEntry(
        name=family_of(name) or name,
        tier=as_registry_tier(str(spec.get("tier", "core"))),
        unit="proportion" if kind in proportion_kinds() else "score",
        aggregation=kind,
        suites=(suite,),
        higher_is_better=bool(spec.get("higher_is_better", True)),
        description=str(spec.get("description", "")),
    )


def _entry_from_yaml(name: str, values: Any, old: MetricEntry | None, source: str) -> MetricEntry:
    if not isinstance(values, Mapping):
        raise ConfigError(f"{source}: metrics.{name}: expected a mapping")
    unknown = set(values) - _ENTRY_KEYS
    if unknown:
        raise ConfigError(f"{source}: metrics.{name}: unknown key(s) {', '.join(sorted(unknown))}")
    if old is None and "tier" not in values:
        raise ConfigError(f"{source}: metrics.{name}: a new metric needs a tier (T0–T3)")
    try:
        tier: RegistryTier = as_registry_tier(str(values.get("tier", old.tier if old else "")))
    except ConfigError as err:
        raise ConfigError(f"{source}: metrics.{name}.tier: {err}") from None
    base = old or MetricEntry(name=name, tier=tier)
    suites = values.get("suites", base.suites)
    if isinstance(suites, str) or not isinstance(suites, Sequence):
        raise ConfigError(f"{source}: metrics.{name}.suites: expected a list")
    return MetricEntry(
        name=name,
        tier=tier,
        unit=str(values.get("unit", base.unit)),
        aggregation=str(values.get("aggregation", base.aggregation)),
        suites=tuple(str(s) for s in suites),
        higher_is_better=bool(values.get("higher_is_better", base.higher_is_better)),
        description=str(values.get("description", base.description)),
    )
