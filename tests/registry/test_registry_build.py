"""The metric registry: built from the suites' MetricSpecs, tiers T0–T3, YAML overrides,
bundles, profiles with an explicit fallback marker, and the dashboard views."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay._engine.registry import available_tasks
from assay._engine.run import Run
from assay.errors import ConfigError
from assay.metrics.spec import mean_metric, ratio_metric
from assay.registry import (
    as_registry_tier,
    build_registry,
    dashboard_metrics,
    get_bundle,
    get_profile,
    headline_metrics,
    prune_records,
)


def test_spec_tiers_map_to_registry_tiers() -> None:
    assert [as_registry_tier(t) for t in ("headline", "core", "diagnostic", "T3")] == [
        "T0",
        "T1",
        "T2",
        "T3",
    ]
    with pytest.raises(ConfigError, match="tier must be one of"):
        as_registry_tier("T9")


def test_built_from_suite_specs_and_runs(labels_run: Run) -> None:
    reg = build_registry(suites=True)
    for name, task in available_tasks().items():
        if name in reg.errors:
            continue
        for spec in task.metric_specs([], task.settings_model()):
            assert name in reg.get(spec.name).suites
    assert "classification" in reg.get("exact_match").suites
    assert reg.get("cost_usd").tier == "T3"
    reg = build_registry(suites=False, runs=[labels_run])
    em = reg.get("exact_match")
    assert (em.tier, em.unit, em.aggregation) == ("T0", "proportion", "mean")
    assert reg.get("failure").tier == "T1" and not reg.get("failure").higher_is_better
    assert reg.get("accuracy[memo]").name == "accuracy[*]"
    assert reg.get("accuracy[anything]").tier == "T2"
    assert reg.get("macro_accuracy").tier == "T0"
    assert reg.names(min_tier="T0", suite="classification") == ["exact_match", "macro_accuracy"]


def test_yaml_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, labels_run: Run) -> None:
    override = tmp_path / "registry.yaml"
    override.write_text(
        "metrics:\n"
        "  failure: {tier: T2}\n"
        "  judge_agree_rate: {tier: T1, unit: proportion, suites: [extraction]}\n"
        "bundles:\n"
        "  review: {metrics: [exact_match, judge_agree_rate]}\n"
    )
    monkeypatch.setenv("ASSAY_REGISTRY", str(override))
    reg = build_registry(suites=False, runs=[labels_run])
    assert reg.get("failure").tier == "T2"
    assert reg.get("failure").suites == ("classification",)
    assert reg.get("judge_agree_rate").suites == ("extraction",)
    assert get_bundle(reg, "review").metrics == ("exact_match", "judge_agree_rate")

    override.write_text("metrics:\n  new_metric: {unit: ms}\n")
    with pytest.raises(ConfigError, match="new_metric: a new metric needs a tier"):
        build_registry()
    override.write_text("metrics:\n  failure: {tier: T1, colour: red}\n")
    with pytest.raises(
        ConfigError, match=r"registry.yaml: metrics.failure: unknown key\(s\) colour"
    ):
        build_registry()
    override.write_text("bundlez: {}\n")
    with pytest.raises(ConfigError, match="unknown section"):
        build_registry()
    override.write_text("bundles:\n  bad: {metrics: [no_such_metric]}\n")
    # validated at load once every suite's metrics are known
    with pytest.raises(ConfigError, match="bundle 'bad': metric 'no_such_metric' is not in"):
        build_registry()
    reg = build_registry(suites=False)
    with pytest.raises(ConfigError, match="bundle 'bad': metric 'no_such_metric' is not in"):
        get_bundle(reg, "bad")


def test_profiles_resolve_doc_bundles_with_explicit_fallback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, labels_run: Run
) -> None:
    override = tmp_path / "r.yaml"
    override.write_text(
        "doc_bundles:\n"
        "  contract: {metrics: [exact_match, macro_accuracy]}\n"
        "  court_opinion: {metrics: [], pending: no court-opinion scorer exists yet}\n"
        "metrics:\n  macro_accuracy: {tier: T0}\n"
        "profiles:\n"
        "  sorter:\n"
        "    bundle: classification\n"
        "    doc_bundles: {contract: contract, court_opinion: court_opinion}\n"
    )
    monkeypatch.setenv("ASSAY_REGISTRY", str(override))
    reg = build_registry(suites=False, runs=[labels_run])
    sorter = get_profile(reg, "sorter")
    hit = sorter.resolve_doc_bundle("contract", reg)
    assert (hit.bundle.name, hit.used_fallback) == ("contract", False)
    pending = sorter.resolve_doc_bundle("court_opinion", reg)
    assert pending.used_fallback and pending.bundle.name == "classification"
    assert "pending: no court-opinion scorer" in pending.reason
    missing = sorter.resolve_doc_bundle("invoice", reg)
    assert missing.used_fallback and "no bundle for 'invoice'" in missing.reason
    with pytest.raises(ConfigError, match="unknown profile 'nobody'"):
        get_profile(reg, "nobody")


def test_dashboard_and_headline_views() -> None:
    reg = build_registry(suites=False)
    reg.add_specs(
        "demo",
        [
            mean_metric("em", "em", tier="headline"),
            ratio_metric("rate", "a", "b"),
            ratio_metric("acc[x]", "c", "d", tier="diagnostic"),
        ],
    )
    reg.bundles["demo"] = {"suite": "demo"}
    reg.profiles["agent"] = {"bundle": "demo"}
    assert headline_metrics(reg, "agent") == ["em"]
    assert dashboard_metrics(reg, "agent") == ["em", "rate"]
    kept = prune_records(
        reg, "agent", [{"name": "em"}, {"name": "acc[y]"}, {"name": "unknown"}, {"name": "rate"}]
    )
    assert [r["name"] for r in kept] == ["em", "rate"]
