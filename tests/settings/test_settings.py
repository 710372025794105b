"""Settings: YAML loading, ASSAY_CONFIG, configure(), errors naming key and file."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay._settings import (
    clear_settings_cache,
    configure,
    get_settings,
    load_settings,
)
from assay.errors import ConfigError
from assay.suites.classification import ClassificationSettings


def test_defaults() -> None:
    s = get_settings()
    assert s.stats.n_bootstrap_ci == 1000
    assert s.stats.seed == 12345
    assert s.stats.alpha == 0.05
    assert s.stats.n_trials == 10_000
    section = s.section_as("classification", ClassificationSettings)
    assert section.expected_field == "expected"


def test_load_yaml(tmp_path: Path) -> None:
    f = tmp_path / "a.yaml"
    f.write_text("stats:\n  seed: 7\nclassification:\n  positive: yes_label\n  labels: [a, b]\n")
    s = load_settings(f)
    assert s.stats.seed == 7
    assert s.section_as("classification", ClassificationSettings).labels == ["a", "b"]


def test_unknown_key_names_key_and_file(tmp_path: Path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text("stats:\n  n_bootsrap: 5\n")
    with pytest.raises(ConfigError, match=r"bad\.yaml: stats\.n_bootsrap: unknown key"):
        load_settings(f)


def test_wrong_type_names_key(tmp_path: Path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text("classification:\n  labels: 3\n")
    with pytest.raises(ConfigError, match=r"classification\.labels"):
        load_settings(f)
    f.write_text("stats:\n  alpha: 2\n")
    with pytest.raises(ConfigError, match=r"stats\.alpha"):
        load_settings(f)


def test_unknown_section_and_bad_yaml(tmp_path: Path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text("translaton: {}\n")
    with pytest.raises(ConfigError, match="translaton: unknown section"):
        load_settings(f)
    f.write_text("stats: [1, 2\n")
    with pytest.raises(ConfigError, match="invalid YAML"):
        load_settings(f)
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "missing.yaml")


def test_env_var_wins_wholesale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    local = tmp_path / "assay.yaml"
    local.write_text("stats:\n  seed: 1\n  alpha: 0.1\n")
    other = tmp_path / "other.yaml"
    other.write_text("stats:\n  seed: 2\n")
    monkeypatch.chdir(tmp_path)
    assert get_settings().stats.seed == 1
    clear_settings_cache()
    monkeypatch.setenv("ASSAY_CONFIG", str(other))
    s = get_settings()
    assert s.stats.seed == 2
    assert s.stats.alpha == 0.05  # wholesale: nothing from assay.yaml


def test_configure_overrides_and_validates() -> None:
    s = configure(stats={"seed": 99}, classification={"positive": "x"})
    assert s.stats.seed == 99
    assert get_settings().section_as("classification", ClassificationSettings).positive == "x"
    with pytest.raises(ConfigError, match="nope"):
        configure(stats={"nope": 1})
    assert get_settings().stats.seed == 99  # a failed configure changes nothing
    clear_settings_cache()
    assert get_settings().stats.seed == 12345


def test_the_suites_sections_come_from_the_layer_above(monkeypatch: pytest.MonkeyPatch) -> None:
    """The settings import no suite and no registry: a suite's section model is found through
    the functions the engine's registry hands ``_settings.sections`` (``import assay`` wires
    it). Without them the settings know their own sections only, and say so."""
    from assay._settings import sections, settings_from_mapping

    monkeypatch.setattr(sections, "_model", None)
    monkeypatch.setattr(sections, "_names", None)
    with pytest.raises(
        ConfigError, match=r"classification: unknown section \(known: analytics, run, stats\)"
    ):
        settings_from_mapping({"classification": {}})
    seen: list[str] = []

    def model(name: str) -> type[ClassificationSettings] | None:
        seen.append(name)
        return ClassificationSettings if name == "labels" else None

    sections.use_suite_sections(model, lambda: ["labels"])
    s = settings_from_mapping({"labels": {"positive": "yes"}})
    assert s.section_as("labels", ClassificationSettings).positive == "yes"
    with pytest.raises(
        ConfigError, match=r"nope: unknown section \(known: analytics, labels, run, stats\)"
    ):
        settings_from_mapping({"nope": {}})
    assert seen == ["labels", "nope"]


def test_configure_tells_the_sources_when_overrides_are_in_effect() -> None:
    from assay._settings.sources import defaults_in_effect

    clear_settings_cache()
    assert defaults_in_effect()
    configure(stats={"seed": 7})
    assert not defaults_in_effect()
    clear_settings_cache()
    assert defaults_in_effect()
