"""pass@k: the product form against the closed form 1 − C(n−c, k)/C(n, k) and against brute
force over every k-subset of the n samples."""

from __future__ import annotations

import math
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assay.errors import UsageError
from assay.metrics.passk import pass_at_k


@st.composite
def nck(draw: st.DrawFn, max_n: int = 400) -> tuple[int, int, int]:
    n = draw(st.integers(1, max_n))
    return n, draw(st.integers(0, n)), draw(st.integers(1, n))


@given(nck())
def test_equals_the_closed_form(args: tuple[int, int, int]) -> None:
    n, c, k = args
    exact = 1 - math.comb(n - c, k) / math.comb(n, k)
    assert pass_at_k(n, c, k) == pytest.approx(exact, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("n", range(1, 9))
def test_equals_brute_force_over_subsets(n: int) -> None:
    """The share of k-subsets holding at least one correct sample, every (c, k) for n ≤ 8."""
    for c in range(n + 1):
        correct = [True] * c + [False] * (n - c)
        for k in range(1, n + 1):
            subsets = list(combinations(correct, k))
            brute = sum(any(s) for s in subsets) / len(subsets)
            assert pass_at_k(n, c, k) == pytest.approx(brute, abs=1e-12)


@given(nck(max_n=60))
def test_bounds_and_monotone(args: tuple[int, int, int]) -> None:
    n, c, k = args
    value = pass_at_k(n, c, k)
    assert 0.0 <= value <= 1.0
    if k < n:
        assert pass_at_k(n, c, k + 1) >= value - 1e-12
    if c < n:
        assert pass_at_k(n, c + 1, k) >= value - 1e-12


def test_pass_at_1_is_the_share_correct_and_extremes() -> None:
    assert pass_at_k(5, 2, 1) == pytest.approx(0.4)
    assert pass_at_k(5, 0, 3) == 0.0
    assert pass_at_k(5, 5, 3) == 1.0
    assert pass_at_k(5, 3, 3) == 1.0  # n − c < k: every 3 of 5 holds a correct one


def test_stable_for_large_n() -> None:
    """No factorials: n = 10,000 stays finite and matches the integer closed form."""
    exact = 1 - math.comb(10_000 - 37, 100) / math.comb(10_000, 100)
    assert pass_at_k(10_000, 37, 100) == pytest.approx(exact, rel=1e-9)


@pytest.mark.parametrize(("n", "c", "k"), [(3, 1, 0), (3, 4, 1), (3, -1, 1), (2, 1, 3)])
def test_bad_arguments_are_named(n: int, c: int, k: int) -> None:
    with pytest.raises(UsageError, match="pass@"):
        pass_at_k(n, c, k)
