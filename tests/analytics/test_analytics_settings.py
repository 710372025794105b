"""The analytics settings section: defaults from the seed, YAML and configure() overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay._settings import configure, get_settings, load_settings
from assay.errors import ConfigError


def test_defaults_are_the_seeds() -> None:
    s = get_settings().analytics
    assert s.tie_band == 0.001
    assert (s.judge_strong, s.judge_weak) == (0.85, 0.5)
    assert s.noise_dir == ".assay/noise" and s.noise_level == 0.95
    assert 25 in s.committee_sizes and 0.15 in s.escalation_thresholds
    assert get_settings().to_dict()["analytics"]["tie_band"] == 0.001


def test_configure_and_yaml(tmp_path: Path) -> None:
    assert configure(analytics={"tie_band": 0.01}).analytics.tie_band == 0.01
    assert get_settings().stats.seed == 12345  # other sections untouched
    f = tmp_path / "a.yaml"
    f.write_text("analytics:\n  judge_strong: 0.4\n")
    with pytest.raises(ConfigError, match="judge_weak must be below judge_strong"):
        load_settings(f)
    f.write_text("analytics:\n  tie_bnd: 0.4\n")
    with pytest.raises(ConfigError, match=r"analytics\.tie_bnd: unknown key"):
        load_settings(f)
