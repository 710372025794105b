"""Clipped n-gram counts of many segments at once, exactly as sacrebleu counts them.

sacrebleu builds a ``Counter`` per segment and order in Python; here every sequence of every
stream (each reference set and each system) is laid end to end in one integer array and each
n-gram order is counted with one sort:

    key_n(p)   = key_{n-1}(p) · A + symbol(p + n - 1)      (an n-gram as a base-A number)
    code(p)    = (segment(p) · A^n + key_n(p)) · 2^⌈log2 T⌉ + stream(p)
    count[g,t] = #{p : code(p) = (g, t)}                    (g = one n-gram of one segment)

A = alphabet size, S = segments, T = streams. Sorting the codes puts the counts of one n-gram of
one segment in every stream side by side (and the segments in order), so clipped matches are
``min(count[g, hyp], count[g, ref])`` summed over each segment's block. When A^n · S · T would
leave int64, the keys are first renumbered densely, so the codes stay exact for any alphabet.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, count

import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.int64]

_LIMIT = 1 << 62


@dataclass(frozen=True)
class Sequences:
    """Symbol sequences of T streams × S segments, concatenated (stream-major)."""

    symbols: IntArray  # dense symbol id per position, in [0, alphabet)
    lengths: IntArray  # (T, S) sequence lengths
    alphabet: int

    @property
    def n_streams(self) -> int:
        return int(self.lengths.shape[0])

    @property
    def n_segments(self) -> int:
        return int(self.lengths.shape[1])


@dataclass(frozen=True)
class OrderCounts:
    """The counts of one n-gram order: ``counts[g, t]`` of distinct n-gram g of ``segment[g]``.

    Rows are sorted by segment, so a segment's n-grams are one contiguous block.
    """

    segment: IntArray  # (G,), nondecreasing
    counts: IntArray  # (G, T)
    n_segments: int

    def per_segment(self, values: IntArray) -> IntArray:
        """Σ over the n-grams of each segment of ``values`` ((G,) or (G, H)): (S,) or (S, H)."""
        starts = np.searchsorted(self.segment, np.arange(self.n_segments + 1))
        result: IntArray = np.zeros((self.n_segments, *values.shape[1:]), dtype=np.int64)
        filled = starts[1:] > starts[:-1]  # reduceat would copy a row for an empty segment
        if filled.any():
            result[filled] = np.add.reduceat(values, starts[:-1][filled], axis=0)
        return result


def char_sequences(streams: Sequence[Sequence[str]]) -> Sequences:
    """Code points of each string (T streams of S strings) as dense symbol ids."""
    n_streams, n_segments = len(streams), len(streams[0]) if streams else 0
    flat = list(chain.from_iterable(streams))
    lengths = np.fromiter(map(len, flat), dtype=np.int64, count=len(flat))
    points = np.frombuffer("".join(flat).encode("utf-32-le"), dtype=np.uint32)
    symbols, alphabet = _dense(points.astype(np.int64))
    return Sequences(symbols, lengths.reshape(n_streams, n_segments), alphabet)


def token_sequences(streams: Sequence[Sequence[Sequence[str]]]) -> Sequences:
    """Tokens of each segment (T streams of S token lists) as dense symbol ids."""
    n_streams, n_segments = len(streams), len(streams[0]) if streams else 0
    segments = list(chain.from_iterable(streams))
    lengths = np.fromiter(map(len, segments), dtype=np.int64, count=len(segments))
    # a token's id is the position of its first occurrence (setdefault keeps the first)
    first: dict[str, int] = {}
    ids = np.fromiter(
        map(first.setdefault, chain.from_iterable(segments), count()),
        dtype=np.int64,
        count=int(lengths.sum()),
    )
    symbols, alphabet = _dense(ids)
    return Sequences(symbols, lengths.reshape(n_streams, n_segments), alphabet)


def _dense(values: IntArray) -> tuple[IntArray, int]:
    """Renumber non-negative values 0..k-1 in sorted order (k distinct values)."""
    if values.size == 0:
        return values, 0
    top = int(values.max()) + 1
    if top <= 4 * values.size + (1 << 21):  # a lookup table is cheaper than a sort
        seen = np.zeros(top, dtype=bool)
        seen[values] = True
        rank = np.cumsum(seen, dtype=np.int64) - 1
        return rank[values], int(rank[-1]) + 1
    uniq, inverse = np.unique(values, return_inverse=True)
    return inverse.astype(np.int64).reshape(-1), int(uniq.size)


def order_counts(seqs: Sequences, max_order: int) -> Iterator[OrderCounts]:
    """Per order n = 1..max_order, the counts of every n-gram in every (segment, stream)."""
    t_count, s_count = seqs.n_streams, seqs.n_segments
    t_bits = max(t_count - 1, 0).bit_length()  # streams in the low bits: shifts, not division
    flat_lengths = seqs.lengths.reshape(-1)
    total = int(flat_lengths.sum())
    # the sequence (stream t, segment s) of each position, its segment and the room left in it
    sequence = np.repeat(np.arange(flat_lengths.size, dtype=np.int64), flat_lengths)
    stream, segment = np.divmod(sequence, max(s_count, 1))
    room = np.repeat(np.cumsum(flat_lengths), flat_lengths) - np.arange(total, dtype=np.int64)
    a = max(seqs.alphabet, 1)
    key = seqs.symbols.copy()
    bound = a  # every key is below this
    for n in range(1, max_order + 1):
        if n > 1:
            width = max(total - n + 1, 0)
            if bound * a * s_count << t_bits >= _LIMIT:
                valid_prev = room[: key.size] >= n - 1
                dense, bound = _dense(key[valid_prev])
                key = np.zeros_like(key)
                key[valid_prev] = dense
            key = key[:width] * a + seqs.symbols[n - 1 :]
            bound *= a
        if bound * s_count << t_bits >= 1 << 63:
            raise OverflowError(
                f"{s_count} segments x {t_count} streams are too many to count {n}-grams "
                "exactly at once: count them in smaller chunks"
            )
        size = key.size
        code = ((segment[:size] * bound + key) << t_bits) | stream[:size]
        yield _count_codes(code[room[:size] >= n], bound, t_bits, s_count, t_count)


def _count_codes(
    code: IntArray, bound: int, t_bits: int, s_count: int, t_count: int
) -> OrderCounts:
    """Group the codes into (segment, n-gram) × stream counts, rows sorted by segment."""
    if code.size == 0:
        return OrderCounts(np.zeros(0, np.int64), np.zeros((0, t_count), np.int64), s_count)
    code = np.sort(code)
    first = np.empty(code.size, dtype=bool)
    first[0] = True
    np.not_equal(code[1:], code[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    uniq = code[starts]
    counts = np.diff(starts, append=code.size)
    group_key = uniq >> t_bits  # segment · bound + n-gram
    new_group = np.empty(uniq.size, dtype=bool)
    new_group[0] = True
    np.not_equal(group_key[1:], group_key[:-1], out=new_group[1:])
    group = np.cumsum(new_group, dtype=np.int64) - 1
    table = np.zeros((int(group[-1]) + 1, t_count), dtype=np.int64)
    table.reshape(-1)[group * t_count + (uniq & ((1 << t_bits) - 1))] = counts
    return OrderCounts(group_key[new_group] // bound, table, s_count)
