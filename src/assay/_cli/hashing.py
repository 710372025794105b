"""SHA-256 without OpenSSL for a command whose inputs are small (CPython's built-in SHA-2).

hashlib loads OpenSSL's libcrypto when it is first imported (pydantic imports it through
``secrets`` and ``hmac``, numpy.random too): 3.4 MiB of mapped and relocated pages, more than
the scores of a 2,000-segment ``mt test`` run hold. A run that digests a few MiB needs none of
OpenSSL's speed: the built-in SHA-256 gives the same digests at ~250 MB/s against ~1.5 GB/s
(~3 ms more per MiB digested). So such a command hides OpenSSL's module (``_hashlib``) before
anything imports hashlib, which then serves every algorithm it names from its built-in modules
(``hmac`` and ``secrets`` work as before). What OpenSSL alone offers (``hashlib.scrypt``; on
Python 3.12 and later ``pbkdf2_hmac``) is then absent from the process: no assay command uses it.

It works only before hashlib is first imported: from a command's callback that runs before the
suite it scores is loaded (``assay mt test``). A command built from a suite's settings model
(``assay score SUITE``) has loaded pydantic, and hashlib with it, before its callback runs, and
the call then changes nothing. The Python API never calls it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from assay._cli.allocator import input_bytes

#: inputs from this size up keep OpenSSL's hashing (the built-in one would cost ~0.1 s more)
MAX_INPUT_BYTES = 8 << 20


def hash_without_openssl(inputs: Iterable[Path]) -> bool:
    """Have hashlib use CPython's built-in algorithms for a run whose input files fill less
    than ``MAX_INPUT_BYTES``; True when it will (hashlib not imported yet, OpenSSL not loaded)."""
    if "hashlib" in sys.modules or "_hashlib" in sys.modules:
        return False  # too late: hashlib has bound its constructors
    if input_bytes(inputs) >= MAX_INPUT_BYTES:
        return False
    sys.modules["_hashlib"] = None  # type: ignore[assignment]  # `import _hashlib` now fails
    return True
