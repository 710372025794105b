"""The packed-sort orderings (``assay._fields._order``) against numpy's own stable argsort,
unique and lexsort, the plain forms they replace."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay._fields import _order
from assay._fields._order import changes, grouped_order, stable_argsort, unique_inverse

KEYS = st.lists(st.integers(0, 40), max_size=60)


#: bounds at the edges of each way of sorting: one radix pass (≤ 2^16), two (≤ 2^32), the
#: packed quicksort, and numpy's own sort for keys too large to pack beside the positions
BOUNDS = [41, 1 << 16, (1 << 16) + 1, 1 << 32, (1 << 32) + 1, 1 << 40, 1 << 62]


@st.composite
def bounded_keys(draw: st.DrawFn) -> tuple[list[int], int]:
    bound = draw(st.sampled_from(BOUNDS))
    # keys crowd both ends of the range, where a radix digit or the packing could overflow
    edge = st.integers(0, min(40, bound - 1)).map(lambda k: bound - 1 - k)
    keys = draw(st.lists(st.one_of(st.integers(0, 40), edge, st.integers(0, bound - 1))))
    return keys, bound


@given(bounded_keys())
@settings(max_examples=400, deadline=None)
def test_stable_argsort_is_numpys_stable_argsort(case: tuple[list[int], int]) -> None:
    keys, bound = case
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


#: hash multipliers that make keys collide: in the hash's high 32 bits (WORDS' 0, 1 and 7 mix
#: to 0, 2^12 and 7·2^12: the packed 64-bit sort tells them apart), or in all of it
COLLIDING = {
    "high bits": np.array([1 << 12, 0, 0], dtype=np.uint64),
    "every bit": np.zeros(3, dtype=np.uint64),
}


@given(WORDS, st.integers(1, 3), st.sampled_from([None, *COLLIDING]))
@settings(max_examples=300, deadline=None)
def test_grouped_order_groups_equal_keys_in_position_order(
    rows: list[tuple[int, int, int]], width: int, collide: str | None
) -> None:
    words = [np.array([r[k] for r in rows], dtype=np.uint64) for k in range(width)]
    with pytest.MonkeyPatch.context() as mp:
        if collide is not None:  # the 64-bit packed sort, or the exact lexsort
            mp.setattr(_order, "MIX", COLLIDING[collide])
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


def test_grouped_order_resolves_a_high_bits_collision_without_the_lexsort() -> None:
    words = [np.array([7, 0, 1, 7, 0], dtype=np.uint64)]

    def refuse(*args: object) -> None:
        raise AssertionError("the packed 64-bit sort tells these keys apart")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_order, "MIX", COLLIDING["high bits"])
        mp.setattr(_order.np, "lexsort", refuse)
        order, new = grouped_order(words)
    assert order.tolist() == [1, 4, 2, 0, 3]
    assert new.tolist() == [True, False, True, True, False]
