"""Resampling plans as matrices: bootstrap count matrices and randomization masks, in chunks.

A bootstrap resample is a row of counts w (how often each item was drawn); its column sums are
``w @ S``. Chunks bound memory; the random stream does not depend on the chunking, so results
are identical whatever the memory budget.
"""

from __future__ import annotations

from collections.abc import Iterator

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


def chunk_sizes(total: int, n_items: int, *, chunk_bytes: int, multiple: int = 1) -> list[int]:
    """Split ``total`` rows of ``n_items`` cells (8 bytes each) into chunks under the budget."""
    if total < 0:
        raise UsageError(f"number of resamples must be >= 0, got {total}")
    rows = max(1, chunk_bytes // max(1, 8 * n_items))
    rows = max(multiple, rows - rows % multiple)
    sizes = []
    left = total
    while left > 0:
        take = min(rows, left)
        sizes.append(take)
        left -= take
    return sizes


def counts_from_indices(indices: NDArray[np.int64], n_items: int) -> FloatArray:
    """(b, N) draw counts from (b, N) drawn indices, by one bincount over offset rows."""
    b = indices.shape[0]
    offsets = (np.arange(b, dtype=np.int64) * n_items)[:, None]
    shifted = np.add(indices, offsets, dtype=np.int64)
    flat = np.bincount(shifted.ravel(), minlength=b * n_items)
    del shifted
    return flat.reshape(b, n_items).astype(np.float64, copy=False)


def bootstrap_index_chunks(
    n_items: int, n_resamples: int, seed: int, *, chunk_bytes: int = DEFAULT_CHUNK_BYTES
) -> Iterator[NDArray[np.int64]]:
    """Drawn item indices, ``rng.choice(N, size=(B, N))`` split in row chunks.

    This is exactly sacrebleu's draw (numpy ``default_rng(seed)``), so its p-values reproduce.
    """
    if n_items <= 0:
        raise UsageError("cannot resample an empty set of items")
    rng = np.random.default_rng(seed)
    for size in chunk_sizes(n_resamples, n_items, chunk_bytes=chunk_bytes):
        yield rng.choice(n_items, size=(size, n_items), replace=True)


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
