"""McNemar's exact test against scipy's exact binomial test, and its edge cases."""

from __future__ import annotations

import pytest
from scipy.stats import binomtest

from assay.errors import UsageError
from assay.stats import mcnemar_exact


@pytest.mark.parametrize(
    ("b", "c"),
    [(0, 0), (1, 0), (0, 1), (3, 3), (71, 46), (46, 71), (5, 0), (10, 2), (0, 25), (1000, 1100),
     (40_000, 40_700), (2, 9), (7, 8)],
)  # fmt: skip
def test_matches_scipy_binomtest(b: int, c: int) -> None:
    expected = 1.0 if b + c == 0 else binomtest(min(b, c), b + c, 0.5).pvalue
    assert mcnemar_exact(b, c) == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_symmetric_and_bounded() -> None:
    for b in range(0, 30, 3):
        for c in range(0, 30, 4):
            p = mcnemar_exact(b, c)
            assert p == mcnemar_exact(c, b)
            assert 0.0 < p <= 1.0


def test_the_classification_demo() -> None:
    """The issue's figures: one system better on 71 items, the other on 46."""
    assert mcnemar_exact(71, 46) == pytest.approx(0.0263, abs=5e-4)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_refuses_what_is_not_a_count(bad: object) -> None:
    with pytest.raises(UsageError, match="must be a count"):
        mcnemar_exact(bad, 3)  # type: ignore[arg-type]
