"""Holm and Benjamini–Hochberg adjusted p-values, and a family's verdicts."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.errors import UsageError
from assay.metrics.spec import mean_columns, mean_metric
from assay.metrics.table import StatsTable
from assay.stats import adjust_family, adjust_p_values, paired_test


def _holm_by_definition(p: list[float]) -> list[float]:
    """p̃_i = max over j with p_j ≤ p_i of min(1, (m − rank_j + 1) p_j), written out plainly."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=30))
def test_adjusted_p_values_match_their_definitions(p: list[float]) -> None:
    assert adjust_p_values(p, "holm") == pytest.approx(_holm_by_definition(p))
    bh = scipy.stats.false_discovery_control(np.asarray(p), method="bh")
    assert adjust_p_values(p, "bh") == pytest.approx(bh.tolist())
    assert adjust_p_values(p, "none") == p
    holm = adjust_p_values(p, "holm")
    assert all(a >= b - 1e-15 for a, b in zip(holm, p, strict=True))  # never below raw


def test_adjust_p_values_refuses_bad_input() -> None:
    with pytest.raises(UsageError, match="holm, bh, none"):
        adjust_p_values([0.1], "bonferroni")
    with pytest.raises(UsageError, match="lie in"):
        adjust_p_values([1.2])
    assert adjust_p_values([]) == []


def test_family_verdicts_follow_adjusted_p() -> None:
    rng = np.random.default_rng(4)
    ids = [f"i{k}" for k in range(200)]
    specs = [mean_metric(f"m{k}", f"c{k}") for k in range(5)]
    rows_a, rows_b = [], []
    for _ in ids:
        ra, rb = {}, {}
        for k in range(5):
            shift = 0.15 if k == 0 else 0.0
            ra.update(mean_columns(f"c{k}", float(rng.random() < 0.5 + shift)))
            rb.update(mean_columns(f"c{k}", float(rng.random() < 0.5)))
        rows_a.append(ra)
        rows_b.append(rb)
    ta, tb = StatsTable.from_rows(ids, rows_a), StatsTable.from_rows(ids, rows_b)
    raw = paired_test(ta, tb, specs)
    fam = adjust_family(raw, correction="holm")
    assert [r.p_adjusted for r in fam] == pytest.approx(
        adjust_p_values([r.p_value for r in raw], "holm")
    )
    assert all(r.family == "headline" and r.correction == "holm" for r in fam)
    for r in fam:
        assert r.significant == (r.decisive_p < 0.05)
        assert r.stars == ("**" if r.decisive_p < 0.01 else "*" if r.decisive_p < 0.05 else "")
        assert (r.winner is not None) == r.significant
    assert fam[0].winner == "A"


def _flags_table(ids: list[str], flags: np.ndarray) -> StatsTable:
    rows = []
    for i in range(len(ids)):
        row: dict[str, float] = {}
        for j in range(flags.shape[1]):
            row.update(mean_columns(f"c{j}", float(flags[i, j])))
        rows.append(row)
    return StatsTable.from_rows(ids, rows)


@pytest.mark.slow
def test_holm_controls_the_family_wise_rate_under_a_null() -> None:
    """Twelve correlated metrics, no true difference, 400 datasets: at least one raw star far
    more often than 5%; at least one Holm star at most about 5%."""
    rng = np.random.default_rng(11)
    n, k, sets = 60, 12, 400
    ids = [f"i{j}" for j in range(n)]
    specs = [mean_metric(f"m{j}", f"c{j}") for j in range(k)]
    any_raw = any_holm = 0
    for d in range(sets):
        base = rng.random((n, 1))
        a = (rng.random((n, k)) * 0.6 + base * 0.4 > 0.5).astype(float)
        b = (rng.random((n, k)) * 0.6 + base * 0.4 > 0.5).astype(float)
        ta, tb = _flags_table(ids, a), _flags_table(ids, b)
        raw = paired_test(ta, tb, specs, n_resamples=400, seed=d)
        any_raw += any(r.significant for r in raw)
        any_holm += any(r.significant for r in adjust_family(raw))
    assert any_raw / sets > 0.2
    assert any_holm / sets <= 0.07
