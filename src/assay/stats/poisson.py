"""Partition-independent Poisson bootstrap: weights from (seed, item id, replicate).

Replicate b gives item i the weight w[b, i] ~ Poisson(1), computed by a counter-based generator
from (seed, a 64-bit hash of the item id, b) alone: x = mix64(mix64(key_i ^ mix64(seed)) +
(b + 1)·γ) with splitmix64's finalizer ``mix64`` and γ its golden-ratio increment, then
w = #{k : x ≥ T_k} with T_k = ⌊2^64 · P(Poisson(1) ≤ k)⌋ (inverse CDF on the uint64 scale).
No weight depends on which other items exist, on their order or on how they are partitioned,
so the replicate sums ``Σ_i w[b, i] S[i]`` of a partition can be added to those of any other
partition. Unlike the multinomial bootstrap, a replicate's total weight is random (mean N,
variance N) instead of exactly N.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from decimal import Decimal, localcontext
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from assay.errors import UsageError

FloatArray = NDArray[np.float64]
U64Array = NDArray[np.uint64]

_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
#: items per block of the weight computation: blocks of a few 10^5 cells stay in cache
_ITEM_BLOCK = 4096
_BLOCK_CELLS = 1 << 18
#: top bits of x used for the table lookup; buckets holding a threshold are resolved exactly
_LUT_BITS = 16
_HASH_PERSON = b"assay-poisson"


def mix64_int(value: int) -> int:
    """splitmix64's finalizer on one Python int (mod 2^64)."""
    z = value & _MASK64
    z = ((z ^ (z >> 30)) * _M1) & _MASK64
    z = ((z ^ (z >> 27)) * _M2) & _MASK64
    return z ^ (z >> 31)


def mix64(z: U64Array) -> U64Array:
    """splitmix64's finalizer on a uint64 array, in place (wrap-around arithmetic)."""
    z ^= z >> np.uint64(30)
    z *= np.uint64(_M1)
    z ^= z >> np.uint64(27)
    z *= np.uint64(_M2)
    z ^= z >> np.uint64(31)
    return z


def item_key(item_id: str) -> int:
    """The 64-bit key of an item id: BLAKE2b-64 of its UTF-8 bytes."""
    digest = hashlib.blake2b(item_id.encode("utf-8"), digest_size=8, person=_HASH_PERSON)
    return int.from_bytes(digest.digest(), "little")


def item_keys(ids: Sequence[str]) -> U64Array:
    """Keys of ``ids`` (one hash per item), as a uint64 array."""
    return np.fromiter((item_key(i) for i in ids), dtype=np.uint64, count=len(ids))


def item_streams(keys: U64Array, seed: int) -> U64Array:
    """Per-item stream origins ``mix64(key ^ mix64(seed))``; replicate b adds (b + 1)·γ."""
    out = np.bitwise_xor(np.asarray(keys, dtype=np.uint64), np.uint64(mix64_int(seed)))
    return mix64(out)


@lru_cache(maxsize=1)
def poisson_thresholds() -> U64Array:
    """T_k = ⌊2^64 · P(Poisson(1) ≤ k)⌋ while T_k < 2^64 − 1 (about 20 values).

    Computed in 50-digit decimal arithmetic so the table is the same on every machine.
    """
    with localcontext() as ctx:
        ctx.prec = 50
        pmf = Decimal(-1).exp()
        cdf = Decimal(0)
        out: list[int] = []
        k = 0
        while True:
            cdf += pmf
            t = int(cdf * (1 << 64))
            if t >= (1 << 64) - 1:  # the tail beyond k is below 2^-64: x never reaches it
                break
            out.append(t)
            k += 1
            pmf /= k
    return np.asarray(out, dtype=np.uint64)


@lru_cache(maxsize=1)
def _lookup() -> tuple[NDArray[np.uint8], NDArray[np.bool_]]:
    """Per bucket of the top bits: the weight at its start and whether a threshold lies inside."""
    thresholds = poisson_thresholds()
    shift = 64 - _LUT_BITS
    starts = np.arange(1 << _LUT_BITS, dtype=np.uint64) << np.uint64(shift)
    base = np.searchsorted(thresholds, starts, side="right").astype(np.uint8)
    ends = starts + np.uint64((1 << shift) - 1)
    ambiguous = np.searchsorted(thresholds, ends, side="right").astype(np.uint8) != base
    return base, ambiguous


def poisson_counts(x: U64Array) -> NDArray[np.uint8]:
    """Poisson(1) variates from uniform uint64 ``x``: #{k : x ≥ T_k}, by a table lookup on the
    top bits, resolved exactly (binary search) in the few buckets that hold a threshold."""
    base, ambiguous = _lookup()
    top = (x >> np.uint64(64 - _LUT_BITS)).astype(np.intp)
    counts = base[top]
    hard = np.flatnonzero(ambiguous[top])
    if hard.size:
        flat = counts.reshape(-1)
        flat[hard] = np.searchsorted(poisson_thresholds(), x.reshape(-1)[hard], side="right")
    return counts


def poisson_weights(keys: U64Array, seed: int, start: int, stop: int) -> NDArray[np.uint8]:
    """The (stop − start, N) weights of replicates start..stop−1 for the items of ``keys``."""
    streams = item_streams(keys, seed)
    counters = np.arange(start + 1, stop + 1, dtype=np.uint64) * np.uint64(_GAMMA)
    return poisson_counts(mix64(counters[:, None] + streams[None, :]))


def poisson_replicate_sums(
    keys: U64Array, matrix: FloatArray, n_resamples: int, seed: int
) -> FloatArray:
    """(B, K) replicate sums ``Σ_i w[b, i] · matrix[i]`` over the items of ``keys``.

    Memory is O(B·K) plus one block of a few 10^5 weights, whatever N. Sums over partitions
    add up to the sums over the whole; exactly so when the statistics are integers (every
    partial sum is an integer below 2^53), else up to float rounding.
    """
    matrix = np.asarray(matrix, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != len(keys):
        raise UsageError(f"matrix shape {matrix.shape} does not match {len(keys)} item keys")
    if n_resamples < 0:
        raise UsageError(f"number of resamples must be >= 0, got {n_resamples}")
    out = np.zeros((n_resamples, matrix.shape[1]), dtype=np.float64)
    n = len(keys)
    if n == 0 or n_resamples == 0:
        return out
    streams = item_streams(keys, seed)
    counters = np.arange(1, n_resamples + 1, dtype=np.uint64) * np.uint64(_GAMMA)
    width = min(n, _ITEM_BLOCK)
    rows = max(1, _BLOCK_CELLS // width)
    for lo in range(0, n, width):
        block_streams = streams[lo : lo + width]
        block = matrix[lo : lo + width]
        for r in range(0, n_resamples, rows):
            x = mix64(counters[r : r + rows, None] + block_streams[None, :])
            out[r : r + rows] += poisson_counts(x).astype(np.float64) @ block
    return out
