"""Optimal assignment on a similarity matrix (assay.matching.optimal)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from assay.matching import optimal_assignment


def test_threshold_and_one_to_one() -> None:
    sim = np.array([[0.9, 0.7], [0.8, 0.1], [0.2, 0.3]])
    result = optimal_assignment(sim, 0.6)
    # greedy would take (0,0) 0.9 and leave row 1 unmatched; optimal pairs both
    assert result.pairs == ((0, 1, 0.7), (1, 0, 0.8))
    assert result.unmatched_rows == (2,)
    assert result.unmatched_cols == ()


def test_empty_and_below_threshold() -> None:
    assert optimal_assignment(np.zeros((0, 3)), 0.6).matched == 0
    assert optimal_assignment(np.full((2, 2), 0.59), 0.6).matched == 0
    assert optimal_assignment(np.array([[np.nan, 0.7]]), 0.6).pairs == ((0, 1, 0.7),)
    with pytest.raises(ValueError, match="2-D"):
        optimal_assignment(np.zeros(3), 0.5)


@given(
    arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 5)), elements=st.floats(0, 1))
)
@settings(max_examples=100, deadline=None)
def test_matches_the_brute_force_maximum_count(sim: np.ndarray) -> None:
    threshold = 0.6
    result = optimal_assignment(sim, threshold)
    n, m = sim.shape
    best = 0
    for perm in itertools.permutations(range(m), min(n, m)):
        rows = range(min(n, m)) if n <= m else None
        if rows is None:
            continue
        best = max(best, sum(sim[r, c] >= threshold for r, c in zip(rows, perm, strict=False)))
    if n <= m:
        assert result.matched == best
    assert all(s >= threshold for _, _, s in result.pairs)
    assert len({r for r, _, _ in result.pairs}) == result.matched
    assert len({c for _, c, _ in result.pairs}) == result.matched


def test_the_solver_is_scipys_loaded_without_scipy_optimize() -> None:
    """The compiled solver is loaded from its file, so scipy.optimize's package init (every
    optimizer, 0.6 s) is not run; it is the very function scipy.optimize exports."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from assay.matching.optimal import _solver\n"
        "solver = _solver()\n"
        "assert 'scipy.optimize' not in sys.modules, 'scipy.optimize imported'\n"
        "from scipy.optimize import linear_sum_assignment\n"
        "assert solver is linear_sum_assignment, (solver, linear_sum_assignment)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 6), st.integers(1, 6)),
        elements=st.one_of(
            st.floats(0, 1),
            st.sampled_from([np.nan, np.inf, -np.inf, 1e308, -1e308, 0.6]),
        ),
    )
)
@settings(max_examples=200, deadline=None)
def test_non_finite_entries_weigh_as_their_nan_to_num(sim: np.ndarray) -> None:
    # the plain definition: non-finite similarities enter the weights as np.nan_to_num gives
    # them (the finiteness test is a sum, so 1e308 + 1e308 overflowing must change nothing)
    result = optimal_assignment(sim, 0.6)
    ok = sim >= 0.6
    plain = optimal_assignment(np.where(ok, np.nan_to_num(sim), -1.0), 0.6)
    assert [(r, c) for r, c, _ in result.pairs] == [(r, c) for r, c, _ in plain.pairs]
    assert [v for *_, v in result.pairs] == [float(sim[r, c]) for r, c, _ in result.pairs]
