"""Optimal assignment on a similarity matrix (assay._matching.optimal)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from assay._matching import optimal_assignment


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
        "from assay._matching.optimal import _solver\n"
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


def _plain_assignment_pairs(
    sim: np.ndarray, threshold: float
) -> tuple[tuple[int, int, float], ...]:
    """The definition: scipy on K + nan_to_num(similarity) where eligible, 0 elsewhere, K =
    min(n, m) + 1; its eligible pairs, in its order."""
    from scipy.optimize import linear_sum_assignment

    ok = sim >= threshold
    if sim.size == 0 or not ok.any():
        return ()
    bonus = float(min(sim.shape) + 1)
    weights = np.where(ok, bonus + np.nan_to_num(sim), 0.0)
    rows, cols = linear_sum_assignment(weights, maximize=True)
    return tuple(
        (int(r), int(c), float(sim[r, c])) for r, c in zip(rows, cols, strict=True) if ok[r, c]
    )


ADVERSARIAL_MATRIX = st.one_of(
    # ties, non-finite and huge entries
    arrays(
        np.float64,
        st.tuples(st.integers(0, 6), st.integers(0, 6)),
        elements=st.one_of(
            st.floats(0, 1),
            st.sampled_from([0.0, 0.6, 1.0, np.nan, np.inf, -np.inf, 1e308, -1e308]),
        ),
    ),
    # sparse: at most one eligible pair in most rows and columns (the isolated-pairs path)
    st.tuples(
        arrays(np.bool_, st.tuples(st.integers(1, 7), st.integers(1, 7))), st.floats(0.6, 1.0)
    ).map(lambda sv: np.where(sv[0], sv[1], 0.1)),
)


@given(
    sims=st.lists(ADVERSARIAL_MATRIX, max_size=6),
    threshold=st.sampled_from([0.6, 0.0, 1.0, -np.inf, np.inf, np.nan]),
    transpose=st.booleans(),
)
@settings(max_examples=400, deadline=None)
def test_batched_assignments_equal_the_definition(
    sims: list[np.ndarray], threshold: float, transpose: bool
) -> None:
    from assay._matching import optimal_assignments

    if transpose:  # non-contiguous views
        sims = [s.T for s in sims]
    # the solver reading of the definition holds while every eligible pair weighs more than an
    # ineligible one (K + similarity > 0); a similarity of -K or less, eligible only at a
    # threshold that low, is outside it (there the larger matching keeps such a pair)
    assume(all(not (s[s >= threshold] <= -(min(s.shape) + 1)).any() for s in sims if s.size))
    got = optimal_assignments(sims, threshold)
    assert [(a.n_rows, a.n_cols) for a in got] == [s.shape for s in sims]
    for sim, assignment in zip(sims, got, strict=True):
        plain = _plain_assignment_pairs(sim, threshold)
        assert [(r, c) for r, c, _ in assignment.pairs] == [(r, c) for r, c, _ in plain]
        # the same floats, bit for bit (NaN is never eligible)
        assert [np.float64(v).tobytes() for *_, v in assignment.pairs] == [
            np.float64(v).tobytes() for *_, v in plain
        ]
        assert all(type(r) is int and type(c) is int for r, c, _ in assignment.pairs)


def test_an_eligible_pair_below_minus_k_is_still_matched() -> None:
    """Maximum cardinality first: at a threshold of -inf the -inf pair is eligible and the only
    one, so it is the matching (the solver's weights K + similarity would be negative there)."""
    from assay._matching import optimal_assignments

    (got,) = optimal_assignments([np.array([[-np.inf, np.nan]])], -np.inf)
    assert got.pairs == ((0, 0, -np.inf),)
