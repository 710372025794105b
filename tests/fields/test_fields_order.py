"""The packed-sort orderings (``assay.fields._order``) against numpy's own stable argsort,
unique and lexsort, the plain forms they replace."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.fields import _order
from assay.fields._order import changes, grouped_order, stable_argsort, unique_inverse

KEYS = st.lists(st.integers(0, 40), max_size=60)


@given(KEYS, st.sampled_from([41, 1000, 1 << 40, 1 << 62]))
@settings(max_examples=300, deadline=None)
def test_stable_argsort_is_numpys_stable_argsort(keys: list[int], bound: int) -> None:
    # a bound too large to pack beside the positions falls back to numpy's sort
    array = np.array(keys, dtype=np.int64)
    got = stable_argsort(array, bound)
    assert got.tolist() == np.argsort(array, kind="stable").tolist()


@given(KEYS)
@settings(max_examples=300, deadline=None)
def test_unique_inverse_is_numpys_unique(keys: list[int]) -> None:
    array = np.array(keys, dtype=np.int64)
    distinct, inverse = unique_inverse(array, 41)
    want, want_inverse = np.unique(array, return_inverse=True)
    assert distinct.tolist() == want.tolist()
    assert inverse.tolist() == want_inverse.reshape(-1).tolist()
    assert distinct.dtype == inverse.dtype == np.int64


WORDS = st.lists(
    st.tuples(*(st.sampled_from([0, 1, 7, 2**63, 2**64 - 1]) for _ in range(3))), max_size=40
)


@given(WORDS, st.integers(1, 3), st.booleans())
@settings(max_examples=300, deadline=None)
def test_grouped_order_groups_equal_keys_in_position_order(
    rows: list[tuple[int, int, int]], width: int, collide: bool
) -> None:
    words = [np.array([r[k] for r in rows], dtype=np.uint64) for k in range(width)]
    with pytest.MonkeyPatch.context() as mp:
        if collide:  # every key hashed alike: the exact lexsort
            mp.setattr(_order, "MIX", np.zeros(3, dtype=np.uint64))
        order, new = grouped_order(words)
    keys = [tuple(r[:width]) for r in rows]
    assert sorted(order.tolist()) == list(range(len(rows)))
    runs: list[list[int]] = []
    for position, first in zip(order.tolist(), new.tolist(), strict=True):
        if first:
            runs.append([])
        runs[-1].append(position)
    # each run is one key's positions, ascending, and each key has one run
    assert [run == sorted(run) for run in runs] == [True] * len(runs)
    assert all(len({keys[p] for p in run}) == 1 for run in runs)
    assert len(runs) == len(set(keys))
    assert new.tolist() == changes(words, order).tolist()
