"""Resampling plans as matrices: bootstrap count matrices and randomization masks, in chunks.

A bootstrap resample is a row of counts w (how often each item was drawn); its column sums are
``w @ S``. Chunks bound memory; the random stream does not depend on the chunking, so results
are identical whatever the memory budget.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay.errors import UsageError

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

#: bytes one chunk's largest array may take; the peak is a small multiple of it. Kept under
#: glibc's 32 MiB mmap threshold so chunk buffers are reused instead of mapped and zeroed anew
#: (measured: at N = 10⁶ a 48 MiB budget spent a third of its CPU time in the kernel).
DEFAULT_CHUNK_BYTES = 16 * 2**20
#: numpy's bounded bool draws consume 32-bit words; chunks of 32 rows keep the stream intact.
_MASK_ROW_MULTIPLE = 32
#: rows (resamples) per chunk at most: what the byte budget holds at N ≈ 32,000. Larger N keeps
#: the budget's rows (its speed unchanged); a smaller N gets this many rows, so its chunk shrinks
#: with N (at N = 2,000: 0.5 MiB of draws and 0.5-1 MiB of counts instead of the whole 16 + 8
#: MiB budget, 1,000 resamples in 16 chunks) while the per-chunk work stays large enough for
#: numpy (a chunk's fixed cost is a few calls; its product still has 64·N·K terms)
MAX_CHUNK_ROWS = 64


def chunk_rows(n_items: int, *, chunk_bytes: int, multiple: int = 1) -> int:
    """Rows per chunk for ``n_items`` cells a row (8 bytes each): as many as ``chunk_bytes``
    holds, at most MAX_CHUNK_ROWS, at least one; a multiple of ``multiple`` (at least it)."""
    rows = min(MAX_CHUNK_ROWS, max(1, chunk_bytes // max(1, 8 * n_items)))
    return max(multiple, rows - rows % multiple)


def chunk_sizes(total: int, n_items: int, *, chunk_bytes: int, multiple: int = 1) -> list[int]:
    """Split ``total`` rows of ``n_items`` cells (8 bytes each) into chunks of `chunk_rows`."""
    if total < 0:
        raise UsageError(f"number of resamples must be >= 0, got {total}")
    rows = chunk_rows(n_items, chunk_bytes=chunk_bytes, multiple=multiple)
    sizes = []
    left = total
    while left > 0:
        take = min(rows, left)
        sizes.append(take)
        left -= take
    return sizes


def counts_from_indices(indices: NDArray[np.integer], n_items: int) -> FloatArray:
    """(b, N) draw counts from (b, N) drawn indices, one ``bincount`` per row into one float
    buffer (no offset or flat int64 copies of the chunk)."""
    out = np.empty((indices.shape[0], n_items), dtype=np.float64)
    _count_into(indices, out)
    return out


def _count_into(indices: NDArray[np.integer], out: NDArray[np.floating[Any]]) -> None:
    """Row i of ``out`` := how often each item was drawn in row i of ``indices``."""
    n_items = out.shape[1]
    for i in range(indices.shape[0]):
        out[i] = np.bincount(indices[i], minlength=n_items)


#: a matrix of at most this many columns is resampled by gathering the drawn rows (scipy's way:
#: b·N·K reads) instead of counting draws and multiplying (b·N scatter, conversion, product)
GATHER_MAX_COLUMNS = 4


#: bytes of gathered values summed at a time (stays in a core's cache)
GATHER_BLOCK_BYTES = 1 << 20
#: draw-chunk budget when sums are gathered: a few MiB of indices, reused by malloc (1 MiB
#: chunks were trimmed and refaulted by glibc every chunk: 2x the CPU time, most of it system)
GATHER_CHUNK_BYTES = 4 << 20


#: whole-number sums whose every partial sum stays below these are exact in float32 / float64
#: (each partial sum is an integer the type represents, whatever the order of the additions)
_EXACT_F32 = 2**24
_EXACT_F64 = 2**53


@dataclass(frozen=True)
class SumsMatrix:
    """A statistics matrix S (N × K) prepared once for the ``W @ S`` of every chunk.

    When every cell is a whole number, the sums of any W (counts, each row summing to N) are
    whole numbers bounded by N·max|S| per column: computed in any order they are exact, so
    the columns holding one value c are c·N without drawing, and the others go through BLAS in
    its fastest layout (Fortran order: about half the time of C order for this skinny product)
    and, when N·max|S| < 2²⁴, in float32 (half the bytes again: counts, matrix and product) —
    the very numbers the float64 product gives. Any other matrix is multiplied as given, in
    float64 (its last bits then depend on the order of the additions: kept as they are).
    """

    matrix: FloatArray | NDArray[np.float32]  # the product's columns (all of S if not whole)
    product_columns: list[int]
    constant: list[tuple[int, float]]  # (column, c): sums c·N
    n_items: int
    n_columns: int
    dtype: type[np.floating[Any]]
    #: with few distinct rows: row i of S is ``matrix[codes[i]]`` (``matrix`` holds the
    #: distinct rows), so a resample's sums are (its draws counted per distinct row) @ matrix
    codes: NDArray[np.integer[Any]] | None = None

    @classmethod
    def of(cls, matrix: FloatArray) -> SumsMatrix:
        """S prepared: in float32 or float64 Fortran order when whole (its constant columns
        apart), else S itself; checked a block of rows at a time (no N × K temporary)."""
        n, k = matrix.shape
        peaks = _whole_column_peaks(matrix)
        if peaks is None or n * float(peaks.max(initial=0.0)) >= _EXACT_F64:
            return cls(matrix, list(range(k)), [], n, k, np.float64)
        same = np.ones(k, dtype=bool)
        step = _check_rows(k)
        for lo in range(0, n, step):
            same &= (matrix[lo : lo + step] == matrix[0]).all(axis=0)
        constant = [(j, float(matrix[0, j])) for j in np.flatnonzero(same).tolist()]
        varying = np.flatnonzero(~same).tolist()
        dtype: type[np.floating[Any]] = (
            np.float32 if n * float(peaks.max(initial=0.0)) < _EXACT_F32 else np.float64
        )
        found = _distinct_rows(matrix, varying)
        if found is not None:
            codes, distinct = found
            return cls(distinct.astype(dtype), varying, constant, n, k, dtype, codes)
        kept = np.empty((n, len(varying)), dtype=dtype, order="F")
        for i, j in enumerate(varying):
            kept[:, i] = matrix[:, j]
        return cls(kept, varying, constant, n, k, dtype)

    def sums(self, indices: NDArray[np.integer]) -> FloatArray:
        """(b, K) column sums of S over each row of drawn ``indices``: ``W @ S``."""
        b = indices.shape[0]
        if not self.constant and self.dtype is np.float64:
            product: FloatArray = counts_from_indices(indices, self.n_items) @ self.matrix
            return product
        out = np.empty((b, self.n_columns), dtype=np.float64)
        for j, c in self.constant:
            out[:, j] = c * self.n_items + 0.0  # a -0.0 column sums to 0.0, as a product does
        if self.product_columns and self.codes is not None:
            counts = np.empty((b, len(self.matrix)), dtype=self.dtype)  # exact: counts <= N
            for i in range(b):
                counts[i] = np.bincount(self.codes[indices[i]], minlength=len(self.matrix))
            out[:, self.product_columns] = counts @ self.matrix
        elif self.product_columns:
            counts = np.empty((b, self.n_items), dtype=self.dtype)  # exact: counts <= N
            _count_into(indices, counts)
            out[:, self.product_columns] = counts @ self.matrix
        return out


#: distinct-row compression pays when a matrix of at least this many rows has at most
#: ``DISTINCT_MAX_ROWS`` distinct rows (and at most 1/8 of its rows): a classification or a
#: clause table (0/1 flags and counts) has a few hundred whatever N
DISTINCT_MIN_ITEMS = 1 << 14
DISTINCT_MAX_ROWS = 1 << 16


def _distinct_rows(
    matrix: FloatArray, columns: list[int]
) -> tuple[NDArray[np.integer[Any]], FloatArray] | None:
    """(code of each row, the distinct rows over ``columns``) of a whole-number matrix with few
    distinct rows, else None. Rows are keyed by their cells as digits of a mixed radix (one
    int64 a row, exact while the product of the columns' ranges stays below 2⁶²).

    Why: a resample's sums W S = Σ_r (draws of rows equal to r) · r. Counting draws per
    distinct row gathers from an N-long array of one- or two-byte codes, which stays in cache,
    where counting per item scatters into an N-wide row of 8-byte counts (at N = 10⁶, 8 MB
    a resample: the super-linear part of the classification bootstrap). The sums are whole
    numbers either way, so they are the same numbers."""
    n = matrix.shape[0]
    if n < DISTINCT_MIN_ITEMS or not columns:
        return None
    sub = matrix[:, columns]
    low = sub.min(axis=0)
    spans = sub.max(axis=0) - low + 1
    if float(np.prod(spans, dtype=np.float64)) >= 2.0**62:
        return None
    radix = np.cumprod(np.r_[1.0, spans[:-1]]).astype(np.int64)
    keys = (sub - low).astype(np.int64) @ radix
    distinct_keys, first, codes = np.unique(keys, return_index=True, return_inverse=True)
    if distinct_keys.size > min(DISTINCT_MAX_ROWS, n // 8):
        return None
    small: type[np.integer[Any]] = np.uint8 if distinct_keys.size <= 1 << 8 else np.uint16
    compact: NDArray[np.integer[Any]] = codes.astype(small).reshape(-1)
    return compact, np.ascontiguousarray(sub[first])


#: cells checked at a time when a matrix is prepared (``SumsMatrix.of``): its temporaries
#: (a truncated and an absolute copy of the block) stay at 256 KiB each whatever N and K
_CHECK_CELLS = 1 << 15


def _check_rows(k: int) -> int:
    """Rows of a K-column matrix checked at a time (``_CHECK_CELLS`` cells, at least a row)."""
    return max(1, _CHECK_CELLS // max(k, 1))


def _whole_column_peaks(matrix: FloatArray) -> FloatArray | None:
    """Per column, max |S| when every cell is a whole number; None otherwise (or when empty)."""
    n, k = matrix.shape
    if not n or not k:
        return None
    peaks = np.zeros(k, dtype=np.float64)
    step = _check_rows(k)
    for lo in range(0, n, step):
        block = matrix[lo : lo + step]
        if not np.array_equal(block, np.trunc(block)):
            return None
        np.maximum(peaks, np.abs(block).max(axis=0), out=peaks)
    return peaks


def resampled_sums(indices: NDArray[np.integer], matrix: FloatArray | SumsMatrix) -> FloatArray:
    """(b, K) column sums of ``matrix`` over each row of drawn ``indices``: ``W @ S`` where
    W[i, j] counts how often row i drew item j.

    Few columns are gathered and summed (pairwise summation over the drawn values, a cache-sized
    block of rows at a time); more share one count matrix and one product (``SumsMatrix``:
    a caller resampling one matrix chunk after chunk prepares it once and passes it). A column
    holding one whole number c (a count column with no undefined item) sums to c·N without
    drawing.
    Sums of whole numbers (counts, 0/1 flags) are exact either way; other sums may differ
    between the two ways in the last bits, never between runs.
    """
    if isinstance(matrix, SumsMatrix):  # prepared by the caller: multiplied
        return matrix.sums(indices)
    b, n = indices.shape
    k = matrix.shape[1]
    if k > GATHER_MAX_COLUMNS:
        return SumsMatrix.of(matrix).sums(indices)
    out = np.empty((k, b), dtype=np.float64)
    rows = max(1, GATHER_BLOCK_BYTES // (8 * max(n, 1)))
    drawn = np.empty((min(rows, b), n), dtype=np.float64)
    for j in range(k):
        column = np.ascontiguousarray(matrix[:, j])
        first = column[0] if n else 0.0
        if n and float(first).is_integer() and abs(first) * n < 2**53 and (column == first).all():
            out[j] = first * n
            continue
        for lo in range(0, b, rows):
            block = indices[lo : lo + rows]
            part = drawn[: block.shape[0]]
            np.take(column, block, out=part, mode="wrap")  # indices are < N: wrap is a no-op
            np.sum(part, axis=1, out=out[j, lo : lo + block.shape[0]])
    return out.T


def bootstrap_index_chunks(
    n_items: int, n_resamples: int, seed: int, *, chunk_bytes: int = DEFAULT_CHUNK_BYTES
) -> Iterator[NDArray[np.integer]]:
    """Drawn item indices, ``rng.choice(N, size=(B, N))`` split in row chunks.

    This is exactly sacrebleu's draw (numpy ``default_rng(seed)``), so its p-values reproduce.
    The draws are ``rng.integers(0, N, dtype=int32)`` below 2³¹ items: the same numbers and the
    same generator state as ``choice`` (tests/stats check it), in half the bytes.
    """
    if n_items <= 0:
        raise UsageError("cannot resample an empty set of items")
    rng = np.random.default_rng(seed)
    dtype = np.int32 if n_items < 2**31 else np.int64
    for size in chunk_sizes(n_resamples, n_items, chunk_bytes=chunk_bytes):
        yield rng.integers(0, n_items, size=(size, n_items), dtype=dtype)


def bootstrap_weight_chunks(
    n_items: int, n_resamples: int, seed: int, *, chunk_bytes: int = DEFAULT_CHUNK_BYTES
) -> Iterator[FloatArray]:
    """(b, N) multinomial count matrices W, so that resampled sums are ``W @ S``."""
    for indices in bootstrap_index_chunks(n_items, n_resamples, seed, chunk_bytes=chunk_bytes):
        yield counts_from_indices(indices, n_items)


def randomization_mask_chunks(
    n_items: int, n_trials: int, seed: int, *, chunk_bytes: int = DEFAULT_CHUNK_BYTES
) -> Iterator[BoolArray]:
    """(r, N) masks, ``rng.integers(2, size=(R, N), dtype=bool)`` in chunks of 32·k rows.

    True keeps an item's statistics where they are; False swaps them between the two systems
    (sacrebleu's ``pos_sel``).
    """
    if n_items <= 0:
        raise UsageError("cannot randomize an empty set of items")
    rng = np.random.default_rng(seed)
    for size in chunk_sizes(
        n_trials, n_items, chunk_bytes=chunk_bytes, multiple=_MASK_ROW_MULTIPLE
    ):
        yield rng.integers(2, size=(size, n_items), dtype=bool)
