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
