"""Token and cost accounting (seed 000 §13): prices by prefix, None for unknown, summaries."""

from __future__ import annotations

import contextlib
import io
import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assay._analytics import cost_report, read_usage, resolve_price, stamp_costs, tokens_summary
from assay._analytics.cost import UsageRecord, usage_from_record
from assay._cli import main
from assay._settings import load_settings
from assay._settings.model import AnalyticsSettings, ModelPrice
from assay.errors import ConfigError, InputError
from tests.conftest import write_jsonl

PRICES = {
    "qwen/qwen3": ModelPrice(input=0.03, output=0.13),
    "deepseek-v4-flash": ModelPrice(input=0.05, output=0.25),
    "deepseek-v4": ModelPrice(input=0.435, output=0.87),
}


def test_prefix_resolution_longest_wins_and_unknown_is_none() -> None:
    assert resolve_price("deepseek-v4-flash", PRICES) == (
        "deepseek-v4-flash",
        PRICES["deepseek-v4-flash"],
    )
    assert resolve_price("deepseek-v4-flash-0601", PRICES)[0] == "deepseek-v4-flash"  # type: ignore[index]
    assert resolve_price("DeepSeek-V4-Pro", PRICES)[0] == "deepseek-v4"  # type: ignore[index]
    assert resolve_price("qwen/qwen3-235b", PRICES)[0] == "qwen/qwen3"  # type: ignore[index]
    assert resolve_price("gpt-5", PRICES) is None
    assert resolve_price(None, PRICES) is None


def test_estimate_and_summary() -> None:
    recs = [
        UsageRecord("r1", "qwen/qwen3-8b", None, 1_000_000, 1_000_000),
        UsageRecord("r2", "qwen/qwen3-8b", None, 500_000, 0),
        UsageRecord("r3", "qwen/qwen3-8b", None, 10, 10, replayed=True),
        UsageRecord("r4", "qwen/qwen3-8b", None, None, None),
    ]
    stamped = stamp_costs(recs, PRICES)
    assert stamped[0].cost_estimated_usd == pytest.approx(0.16)
    assert stamped[1].cost_estimated_usd == pytest.approx(0.015)
    assert stamped[2].cost_estimated_usd is None and stamped[3].cost_estimated_usd is None
    s = tokens_summary(stamped)
    assert (s.rows, s.rows_with_usage, s.rows_replayed, s.rows_without_usage) == (4, 2, 1, 1)
    assert (s.prompt_tokens, s.completion_tokens, s.total_tokens) == (
        1_500_000,
        1_000_000,
        2_500_000,
    )
    assert s.cost_total_usd == pytest.approx(0.175) and s.cost_usd == pytest.approx(0.0875)
    assert s.cost_source == "estimated" and s.billed_total_usd is None


def test_unknown_price_gives_none_total_and_a_hint() -> None:
    recs = [
        UsageRecord("r1", "qwen/qwen3", None, 100, 100),
        UsageRecord("r2", "deepseek-v4-flsh", None, 100, 100),
    ]
    rep = cost_report(recs, {"deepseek-v4-flash": PRICES["deepseek-v4-flash"], **PRICES})
    assert rep.records[1].cost_estimated_usd is not None  # prefix "deepseek-v4" resolves it
    rep = cost_report(
        recs, {"qwen/qwen3": PRICES["qwen/qwen3"], "deepseek-v4-flash": PRICES["deepseek-v4-flash"]}
    )
    assert rep.records[1].cost_estimated_usd is None
    assert rep.total.cost_total_usd is None and rep.total.cost_usd is None
    assert rep.total.rows_unpriced == 1 and rep.total.unpriced_models == ["deepseek-v4-flsh"]
    assert "did you mean 'deepseek-v4-flash'" in rep.warnings[0]


def test_billed_cost_wins_and_mixed_source() -> None:
    recs = [
        UsageRecord("r1", "gpt-x", None, 100, 100, billed_usd=0.5),
        UsageRecord("r2", "qwen/qwen3", None, 1_000_000, 0),
    ]
    s = cost_report(recs, PRICES).total
    assert s.cost_total_usd == pytest.approx(0.53) and s.cost_source == "mixed"
    assert s.rows_billed == 1 and s.estimated_total_usd is None


def test_stage_rows_for_chained_runs() -> None:
    recs = [
        UsageRecord("d1", "qwen/qwen3", "sorter", 1000, 10),
        UsageRecord("d1", "deepseek-v4-flash", "extractor", 5000, 500),
        UsageRecord("d2", "qwen/qwen3", "sorter", 1000, 10),
        UsageRecord("d2", "deepseek-v4-flash", "extractor", 3000, 300),
    ]
    rep = cost_report(recs, PRICES)
    assert [s.stage for s in rep.stages] == ["extractor", "sorter"]
    ext, sort = rep.stages
    assert rep.total.rows_with_usage == 2
    assert rep.total.cost_total_usd == pytest.approx(
        (ext.cost_total_usd or 0) + (sort.cost_total_usd or 0)
    )
    assert rep.total.cost_usd == pytest.approx((rep.total.cost_total_usd or 0) / 2)
    assert all("cost_estimated_usd" in r for r in rep.to_json()["records"])


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"row": "a", "prompt_tokens": -1, "completion_tokens": 3}, "prompt_tokens: negative"),
        ({"row": "a", "prompt_tokens": 1.5, "completion_tokens": 3}, "whole number"),
        ({"row": "a", "prompt_tokens": "9", "completion_tokens": 3}, "expected a token count"),
        ({"row": "a", "prompt_tokens": 9}, "must be given together"),
        ({"row": "a", "cost": -0.1}, "cost: must be a non-negative"),
        ({"prompt_tokens": 1, "completion_tokens": 1}, "row: expected the row id"),
        ({"row": "a", "replayed": "yes"}, "replayed: expected true or false"),
    ],
)
def test_bad_usage_records(tmp_path: Path, record: dict, message: str) -> None:
    f = write_jsonl(
        tmp_path / "u.jsonl", [{"row": "ok", "prompt_tokens": 1, "completion_tokens": 1}, record]
    )
    with pytest.raises(InputError, match=rf"u\.jsonl:2: .*{message}"):
        read_usage(f)


def test_nested_usage_payload() -> None:
    r = usage_from_record({"id": 7, "usage": {"prompt_tokens": 3, "completion_tokens": 4}})
    assert (r.row, r.prompt_tokens, r.completion_tokens) == ("7", 3, 4)


def test_price_table_typos_fail_fast(tmp_path: Path) -> None:
    f = tmp_path / "a.yaml"
    f.write_text("analytics:\n  prices:\n    qwen: {input: 0.03, ouput: 0.13}\n")
    with pytest.raises(ConfigError, match=r"analytics\.prices\.qwen: .*unknown key 'ouput'"):
        load_settings(f)
    f.write_text("analytics:\n  prices:\n    qwen: {input: -1, output: 0.13}\n")
    with pytest.raises(ConfigError, match=r"analytics\.prices\.qwen\.input"):
        load_settings(f)
    f.write_text("analytics:\n  prices:\n    qwen: [0.03]\n")
    with pytest.raises(ConfigError, match=r"analytics\.prices\.qwen"):
        load_settings(f)
    f.write_text("analytics:\n  prices:\n    Qwen: [1, 2]\n    qwen: [1, 2]\n")
    with pytest.raises(ConfigError, match="differ only in case"):
        load_settings(f)
    f.write_text("analytics:\n  prices:\n    qwen: [0.03, 0.13]\n  tie_band: 0.002\n")
    s = load_settings(f).analytics
    assert s.prices["qwen"] == ModelPrice(input=0.03, output=0.13) and s.tie_band == 0.002
    assert AnalyticsSettings().tie_band == 0.001 and AnalyticsSettings().prices == {}


@given(
    st.lists(
        st.tuples(st.integers(0, 10**7), st.integers(0, 10**7), st.sampled_from(list(PRICES))),
        min_size=1,
        max_size=20,
    )
)
def test_total_is_the_sum_of_record_costs(rows: list[tuple[int, int, str]]) -> None:
    recs = [UsageRecord(f"r{i}", m, None, p, c) for i, (p, c, m) in enumerate(rows)]
    rep = cost_report(recs, PRICES)
    expected = math.fsum(r.cost_estimated_usd or 0.0 for r in rep.records)
    assert rep.total.cost_total_usd == pytest.approx(expected)
    assert all(r.cost_estimated_usd is not None and r.cost_estimated_usd >= 0 for r in rep.records)


def test_cli_cost(tmp_path: Path) -> None:
    usage = write_jsonl(
        tmp_path / "u.jsonl",
        [
            {
                "row": "d1",
                "model": "qwen/qwen3-8b",
                "prompt_tokens": 1000,
                "completion_tokens": 100,
            },
            {"row": "d2", "prompt_tokens": 2000, "completion_tokens": 100},
            {"row": "d3", "replayed": True},
        ],
    )
    cfg = tmp_path / "c.yaml"
    cfg.write_text("analytics:\n  prices:\n    qwen/qwen3: [0.03, 0.13]\n")
    out = tmp_path / "cost.json"
    with contextlib.redirect_stdout(io.StringIO()):
        code = main(
            ["cost", str(usage), "--model", "qwen/qwen3", "--config", str(cfg), "-o", str(out)]
        )
    assert code == 0
    data = json.loads(out.read_text())
    assert data["tokens_summary"]["rows_with_usage"] == 2
    assert data["tokens_summary"]["rows_replayed"] == 1
    assert data["records"][1]["model"] == "qwen/qwen3"
    assert data["tokens_summary"]["cost_total_usd"] == pytest.approx(
        (3000 * 0.03 + 200 * 0.13) / 1e6
    )
