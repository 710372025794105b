"""The seed's verified model prices are the default price table (seed 000 §13)."""

from __future__ import annotations

import pytest

from assay._analytics.cost import (
    DEFAULT_COST_MODELS,
    UsageRecord,
    cost_report,
    with_default_prices,
)
from assay._settings.model import ModelPrice


@pytest.mark.parametrize(
    ("model", "usd"),
    [
        ("qwen/qwen3.7-flash", 0.03 + 0.13),
        ("deepseek/deepseek-v4-flash", 0.05 + 0.25),
        ("deepseek/deepseek-v4-pro", 0.435 + 0.87),
        ("deepseek-v4-pro", 0.435 + 0.87),
        ("deepseek/deepseek-v4-flash-20260401", 0.05 + 0.25),  # resolved by prefix
    ],
)
def test_default_prices_per_million_in_and_out(model: str, usd: float) -> None:
    rec = UsageRecord("r1", model, None, 1_000_000, 1_000_000)
    report = cost_report([rec], {})
    assert report.records[0].cost_estimated_usd == pytest.approx(usd)


def test_unknown_model_costs_none_and_configured_prices_win() -> None:
    rec = UsageRecord("r1", "some/other-model", None, 1000, 1000)
    report = cost_report([rec], {})
    assert report.records[0].cost_estimated_usd is None
    assert report.total.cost_total_usd is None
    mine = {"DeepSeek/DeepSeek-V4-Pro": ModelPrice(input=1.0, output=2.0)}
    merged = with_default_prices(mine)
    assert merged["DeepSeek/DeepSeek-V4-Pro"].input == 1.0
    assert "deepseek/deepseek-v4-pro" not in merged
    assert set(DEFAULT_COST_MODELS) - set(merged) == {"deepseek/deepseek-v4-pro"}
