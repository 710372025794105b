"""Orders and groupings of integer arrays by numpy's radix sort and one plain ``np.sort`` of
packed 64-bit integers: exactly what ``np.argsort(kind="stable")`` and ``np.unique(...,
return_inverse=True)`` return, and ``np.lexsort``'s grouping of equal keys (each function
names its twin and its test in tests/fields/test_fields_order.py).

numpy sorts 64-bit integers with a vectorized quicksort many times faster than its stable
argsort, its lexsort or ``np.unique`` (~0.5 ms against 5-12 ms for 10⁵ values, issue 21l): a
key in [0, bound) and its position packed as ``key · 2^b + position`` sort to exactly the
stable order of the keys, and hashed multi-word keys sort into equal-key runs
that are checked against the words themselves. Keys below 2^32 are faster still through
numpy's radix sort of 16-bit integers, one or two passes.

Why: the free-text and name kernels of extraction's ``score_batch`` group ~80,000 token
occurrences per batch of 64 documents; ordered this way, token ids of 1,000 benchmark
documents took 63 → 31 ms (commit 2307867) and the free-text matrices 0.29 → 0.19 s
(0a767e1, with ``BatchTokens``). Tried and left out: a one-pass radix grouping for small
vocabularies (it paid only on the benchmark's 49-word synthetic text).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

#: the largest packed value: keys and positions share the 63 bits of a non-negative int64
_PACKED_LIMIT = 1 << 63
#: the keys one pass of numpy's radix sort (``kind="stable"`` on uint16) orders
_RADIX = 1 << 16


def _position_bits(n: int) -> int:
    return max(1, (n - 1).bit_length())


def stable_argsort(keys: NDArray[np.int64], bound: int) -> NDArray[np.intp]:
    """``np.argsort(keys, kind="stable")`` for integer keys in [0, ``bound``), exactly (twin:
    that call; ``test_stable_argsort_is_numpys_stable_argsort``).

    numpy's stable sort of 16-bit integers is a radix sort (linear): keys below 2^16 are
    sorted as uint16, keys below 2^32 in two such passes (low half, then the high half
    stably: least significant digit first); larger keys by the packed quicksort. Measured at
    10⁵ keys: 5-9x the packed quicksort (commit 2307867); against the twin 0.5 vs 7.4 ms
    below 2^16 and 1.3 vs 7.5 ms below 2^30 (this machine, numpy 2.4).
    """
    if bound <= _RADIX:
        return np.argsort(keys.astype(np.uint16), kind="stable")
    if bound <= _RADIX * _RADIX:
        low = np.argsort((keys & (_RADIX - 1)).astype(np.uint16), kind="stable")
        high = np.argsort((keys[low] >> 16).astype(np.uint16), kind="stable")
        return low[high]
    n = int(keys.size)
    bits = _position_bits(n)
    if max(bound, 1) << bits > _PACKED_LIMIT:
        return np.argsort(keys, kind="stable")
    packed = keys.astype(np.int64) << bits
    packed |= np.arange(n, dtype=np.int64)
    packed.sort()
    packed &= (1 << bits) - 1
    return packed.astype(np.intp, copy=False)


def unique_inverse(
    keys: NDArray[np.int64], bound: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """``np.unique(keys, return_inverse=True)`` for integer keys in [0, ``bound``), exactly: the
    distinct keys ascending, and each key's index among them (twin: that call;
    ``test_unique_inverse_is_numpys_unique``).

    3.0 vs 3.7 ms at 10⁵ keys below 2^30 (numpy 2.4); it exists mostly because
    ``np.unique`` imports ``numpy.ma`` on its first call, 25-85 ms of a run's CPU (issues 21i,
    21j)."""
    order = stable_argsort(keys, bound)
    ordered = keys[order]
    new = np.empty(ordered.size, dtype=np.bool_)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    inverse = np.empty(ordered.size, dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new].astype(np.int64, copy=False), inverse


#: odd multipliers mixing up to three 64-bit key words into one sort key
MIX = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9], dtype=np.uint64)


def grouped_order(
    words: Sequence[NDArray[np.uint64]],
) -> tuple[NDArray[np.intp], NDArray[np.bool_]]:
    """An order of the positions in which equal keys (``words``: the key's 64-bit words, one
    array each, at most three) are adjacent and, within a key, positions ascend; and where the
    key changes along it (True at the first position).

    The words are mixed into one 64-bit hash. Its high 32 bits are ordered by two radix
    passes (``stable_argsort``); when two keys share them (the hash runs disagree with the
    words' runs), the whole hash by one ``np.sort`` of (hash, position) packed in 64 bits;
    when two keys hash alike even so, ``np.lexsort``. Every path groups as the plain
    ``np.lexsort((positions, *words[::-1]))`` does, run for run (the keys' order is the
    hash's; ``test_grouped_order_groups_equal_keys_in_position_order``, collisions forced).
    4.7 vs 7.6 ms for that lexsort at 10⁵ two-word keys; token ids of 1,000 benchmark
    documents 63 → 31 ms (commit 2307867).
    """
    n = int(words[0].size)
    if n == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.bool_)
    mix = MIX  # read at each call (a test makes keys hash alike)
    mixed = words[0] * mix[0]
    for column, m in zip(words[1:], mix[1:], strict=False):
        mixed += column * m
    high = (mixed >> np.uint64(32)).astype(np.int64)
    order = stable_argsort(high, 1 << 32)
    new = changes(words, order)
    if _runs_agree(new, high[order]):
        return order, new
    bits = _position_bits(n)
    packed = (mixed >> np.uint64(bits)) << np.uint64(bits)
    packed |= np.arange(n, dtype=np.uint64)
    packed.sort()
    order = (packed & np.uint64((1 << bits) - 1)).astype(np.intp)
    new = changes(words, order)
    if _runs_agree(new, packed >> np.uint64(bits)):
        return order, new
    # two different keys hashed alike: the exact (slower) sort
    order = np.lexsort((np.arange(n), *words[::-1]))
    return order, changes(words, order)


def _runs_agree(new: NDArray[np.bool_], hashed: NDArray[Any]) -> bool:
    """Whether the keys change (``new``) exactly where their hashes, in the same order, do."""
    return not (new[1:] != (hashed[1:] != hashed[:-1])).any()


def changes(words: Sequence[NDArray[np.uint64]], order: NDArray[np.intp]) -> NDArray[np.bool_]:
    """Where the key (``words``) changes along ``order`` (True at the first position)."""
    new = np.zeros(order.size, dtype=np.bool_)
    new[:1] = True
    for column in words:
        ordered = column[order]
        new[1:] |= ordered[1:] != ordered[:-1]
    return new
