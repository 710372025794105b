"""How many bytes one input may cost, enforced before the bytes are held (issue 36).

Two limits, each read when a file is opened, so that a setting takes effect at once:

- **a record**: one line of a JSONL, CSV or text file, or one file of a JSON folder, at most
  ``record_limit()`` bytes (64 MiB; ``ASSAY_MAX_RECORD_BYTES``). A longer line is that line's
  listed failure; the reader skips it in bounded pieces, never holding more than the limit of
  it, so a 2 GiB line costs about the limit, not 2 GiB and its decoded copies.
- **a document read whole**: a ``.json`` file of records, an id list, another tool's log, at
  most ``document_limit()`` bytes (1 GiB; ``ASSAY_MAX_DOCUMENT_BYTES``). A larger one is an
  input error naming the file (JSONL reads any size, a line at a time).

Either variable takes a number of bytes, optionally with a binary suffix: ``8388608``, ``8M``,
``64MiB``, ``1G``. A string value is further bounded by ``assay._io.strict.MAX_VALUE_CHARS``.
"""

from __future__ import annotations

import os
import re

from assay.errors import ConfigError

__all__ = [
    "DOCUMENT_LIMIT_VARIABLE",
    "MAX_DOCUMENT_BYTES",
    "MAX_RECORD_BYTES",
    "RECORD_LIMIT_VARIABLE",
    "document_limit",
    "record_limit",
]

#: the default longest record (a line, a file of a JSON folder), in bytes
MAX_RECORD_BYTES = 64 * 1024**2
#: the default largest document read whole, in bytes
MAX_DOCUMENT_BYTES = 1024**3
RECORD_LIMIT_VARIABLE = "ASSAY_MAX_RECORD_BYTES"
DOCUMENT_LIMIT_VARIABLE = "ASSAY_MAX_DOCUMENT_BYTES"

_SIZE = re.compile(r"\s*(\d+)\s*(?:([kmgt])(?:i?b)?|b)?\s*", re.IGNORECASE)
_UNITS = {None: 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}


def _from_environment(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    m = _SIZE.fullmatch(raw)
    value = int(m[1]) * _UNITS[m[2].lower() if m[2] else None] if m else 0
    if value < 1:
        raise ConfigError(
            f"{name}={raw!r}: expected a positive number of bytes (e.g. 8388608, 8M, 64MiB)"
        )
    return value


def record_limit() -> int:
    """The longest record accepted, in bytes (``ASSAY_MAX_RECORD_BYTES``, else 64 MiB)."""
    return _from_environment(RECORD_LIMIT_VARIABLE, MAX_RECORD_BYTES)


def document_limit() -> int:
    """The largest document read whole, in bytes (``ASSAY_MAX_DOCUMENT_BYTES``, else 1 GiB)."""
    return _from_environment(DOCUMENT_LIMIT_VARIABLE, MAX_DOCUMENT_BYTES)
