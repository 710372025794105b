"""The hybrid matcher's second pass: mutual best among the claims left over."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from assay.suites.claims._lib.matcher import second_pass


def _leftover(scores: np.ndarray, floor: float) -> np.ndarray:
    best_ref = scores.argmax(axis=0)
    return (np.arange(scores.shape[0])[:, None] == best_ref[None, :]) & (scores >= floor)


def test_a_reference_whose_best_went_elsewhere_takes_its_mutual_leftover() -> None:
    # A took column 0; B's best (column 0) is taken, its best free one (1) has B as its best
    # reference: B takes it. D's best free one (2) belongs to B by column: D stays unmatched.
    scores = np.array([[0.9, 0.1, 0.0], [0.5, 0.3, 0.05], [0.2, 0.0, 0.02]])
    out = second_pass({0: 0}, scores, _leftover(scores, 0.0))
    assert out == {0: 0, 1: 1}
    assert second_pass({0: 0}, scores, _leftover(scores, 0.35)) == {0: 0}  # below the floor


def test_the_pass_repeats_until_nothing_changes() -> None:
    # r0's best (column 0) belongs to r1; once r1 has it, r0's best free column is column 1.
    scores = np.array([[0.4, 0.3], [0.6, 0.1]])
    assert second_pass({}, scores, _leftover(scores, 0.0)) == {0: 1, 1: 0}


@settings(max_examples=80, deadline=None)
@given(
    arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 6)), elements=st.floats(-1, 1)),
    st.floats(-0.5, 0.5),
    st.data(),
)
def test_second_pass_only_adds_mutual_pairs_to_free_claims(
    scores: np.ndarray, floor: float, data: st.DataObject
) -> None:
    n_ref, n_cand = scores.shape
    first = data.draw(
        st.dictionaries(st.integers(0, n_ref - 1), st.integers(0, n_cand - 1), max_size=n_ref)
    )
    leftover = _leftover(scores, floor)
    out = second_pass(first, scores, leftover)
    assert all(out[i] == j for i, j in first.items())  # nothing taken back
    added = {i: j for i, j in out.items() if i not in first}
    assert len(set(added.values())) == len(added)  # each leftover claim serves one reference
    assert not set(added.values()) & set(first.values())
    assert all(leftover[i, j] for i, j in added.items())
