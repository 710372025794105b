"""hash_without_openssl: CPython's built-in SHA-2 for a small run, OpenSSL's for a large one,
and nothing changed once hashlib is loaded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from assay._cli import hashing

#: in a fresh interpreter: the call on the paths given, then what hashlib became
_PROBE = """
import json, sys
from pathlib import Path
from assay._cli.hashing import hash_without_openssl
took = hash_without_openssl([Path(p) for p in sys.argv[1:]])
import hashlib, hmac, secrets
print(json.dumps({
    "took": took,
    "openssl": sys.modules.get("_hashlib") is not None,
    "sha256": hashlib.sha256(b"abc").hexdigest(),
    "hmac": hmac.new(b"key", b"message", "sha256").hexdigest(),
    "token": len(secrets.token_hex(8)),
}))
"""

#: SHA-256("abc") (FIPS 180-2, appendix B.1) and HMAC-SHA256(b"key", b"message")
ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
HMAC = "6e9ef29b75fffc5b7abae527d58fdadb2fe42e7219011976917343065f58ed4a"


def _probe(*paths: Path) -> dict[str, object]:
    res = subprocess.run(
        [sys.executable, "-c", _PROBE, *map(str, paths)], capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(res.stdout)
    return result


def test_a_small_run_hashes_with_the_built_in_algorithms(tmp_path: Path) -> None:
    (tmp_path / "hyp.txt").write_bytes(b"x" * 1000)
    got = _probe(tmp_path / "hyp.txt", tmp_path / "missing.txt", tmp_path)
    assert got == {"took": True, "openssl": False, "sha256": ABC, "hmac": HMAC, "token": 16}


def test_a_large_run_keeps_openssl(tmp_path: Path) -> None:
    half = hashing.MAX_INPUT_BYTES // 2
    for name in ("hyp.txt", "ref.txt"):
        with (tmp_path / name).open("wb") as fh:
            fh.truncate(half)  # sparse: the size counts, no disk is used
    got = _probe(tmp_path / "hyp.txt", tmp_path / "ref.txt")
    assert got == {"took": False, "openssl": True, "sha256": ABC, "hmac": HMAC, "token": 16}


def test_once_hashlib_is_loaded_nothing_changes(tmp_path: Path) -> None:
    """This process imported hashlib long ago: the call is refused and hides nothing."""
    import hashlib

    (tmp_path / "hyp.txt").write_bytes(b"x")
    before = sys.modules.get("_hashlib")
    assert not hashing.hash_without_openssl([tmp_path / "hyp.txt"])
    assert sys.modules.get("_hashlib") is before
    assert hashlib.sha256(b"abc").hexdigest() == ABC
