"""Provenance: content digests of inputs, the config digest, the scoring checkout's commit,
and the dataset fingerprint that defines a run's surface."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from assay.errors import InputError


def tree_sha256(paths: Iterable[Path]) -> str:
    """sha256 over the sorted tree: for each file (relative name, bytes), for each path given.

    A single file digests as its name and bytes; a directory as all files below it, sorted.
    """
    h = hashlib.sha256()
    for root in paths:
        if not root.exists():
            raise InputError(f"{root}: no such file or directory")
        files = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else [root]
        base = root if root.is_dir() else root.parent
        for f in files:
            rel = f.relative_to(base).as_posix()
            h.update(rel.encode("utf-8") + b"\0")
            with f.open("rb") as fh:  # in blocks: an input may be larger than memory
                h.update(hashlib.file_digest(fh, "sha256").digest())
    return h.hexdigest()


def canonical_json(value: Any) -> str:
    """Sorted-key, compact JSON: the form every digest is taken over.

    ``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
    default=str)``, character for character; long ASCII strings (a source document travelling
    with its gold record) are escaped by a few C-level replacements instead of json's
    character-by-character loop, about 3× faster.
    """
    if _ENCODE is None:
        return _CANONICAL.encode(value)
    if _FAST is not None and (_short_flat(value) or _short_pairs(value)):
        return "".join(_FAST(value, 0))
    try:
        return "".join(_ENCODE(value, 0))
    except RecursionError:
        return _CANONICAL.encode(value)  # a cycle: the checking encoder says so (ValueError)


#: every character json escapes in a string (with ensure_ascii=False), as bytes, and its escape
_SPECIAL = bytes([*range(0x20), ord('"'), ord("\\")])
_KEEP_SPECIAL = bytes(b for b in range(256) if b not in _SPECIAL)
_ESCAPE = {c: str(json.encoder.py_encode_basestring(chr(c)))[1:-1] for c in _SPECIAL}
#: strings shorter than this take json's own escaping (the replacements cost more there)
_LONG = 256


def _encode_string(text: str) -> str:
    """``json.encoder.encode_basestring(text)``: the quoted JSON string, non-ASCII unescaped."""
    if len(text) < _LONG or not text.isascii():
        return str(json.encoder.encode_basestring(text))
    present = _specials(text.encode("ascii"))
    # the backslash first: the other escapes add backslashes of their own
    for code in sorted(present, key=lambda c: c != ord("\\")):
        text = text.replace(chr(code), _ESCAPE[code])
    return '"' + text + '"'


class _CanonicalEncoder(json.JSONEncoder):
    """json's C encoder with ``_encode_string`` for strings (keys and values)."""

    def iterencode(self, o: Any, _one_shot: bool = False) -> Iterator[str]:
        encode = self.c_encoder() if _one_shot else None
        if encode is None:
            return super().iterencode(o, _one_shot)
        chunks: Iterator[str] = encode(o, 0)
        return chunks

    def c_encoder(self, markers: dict[int, Any] | None = None, circular: bool = True) -> Any:
        """json's C encoder with these settings (None where the C accelerator is absent)."""
        make = getattr(json.encoder, "c_make_encoder", None)
        if make is None:
            return None
        if markers is None and circular and self.check_circular:
            markers = {}
        return make(
            markers,
            self.default,
            _encode_string,
            None,
            self.key_separator,
            self.item_separator,
            self.sort_keys,
            self.skipkeys,
            self.allow_nan,
        )


_CANONICAL = _CanonicalEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
)
#: the C encoder made once (``canonical_json`` runs once per item), without the circular check's
#: shared markers, so threads may use it at once; a cycle ends in RecursionError, and the
#: checking encoder then names it
_ENCODE: Any = _CANONICAL.c_encoder(markers=None, circular=False)


#: the same C encoder with json's own C string escaping (what ``json.dumps`` runs with the
#: canonical options): the same characters for every value (``_encode_string`` is
#: ``encode_basestring``, only faster on long ASCII strings), without a Python call per string;
#: used for a small record of scalars and short strings (a gold label record, a fingerprint's
#: [id, digest] pair: two to four strings per item of a large run) and by ``canonical_parts``
#: for a record's keys and nested values; None where the C accelerator is absent
_C_STRING: Any = getattr(json.encoder, "c_encode_basestring", None)


def _canonical_c_encoder(escape: Any) -> Any:
    """json's C encoder with the canonical options and the string escaper ``escape``; None
    where the C accelerator (or that escaper) is absent."""
    if _ENCODE is None or escape is None:
        return None
    return json.encoder.c_make_encoder(  # type: ignore[attr-defined]
        None, str, escape, None, ":", ",", True, False, True
    )


_FAST: Any = _canonical_c_encoder(_C_STRING)
#: ``_FAST`` with json's ASCII-only C string escaping, tried first on a record's nested values:
#: it writes the same characters as ``_FAST`` unless a string holds a non-ASCII character, which
#: it writes as a ``\u`` escape (so a text without ``\u`` is ``_FAST``'s), and it is a quarter
#: faster on ASCII text (a gold record's expected values)
_FAST_ASCII: Any = _canonical_c_encoder(getattr(json.encoder, "c_encode_basestring_ascii", None))
_FLAT_MAX = 32
_SCALAR_TYPES = frozenset({int, float, bool, type(None)})


def _short_flat(value: Any) -> bool:
    """True for a dict (string keys) or list of at most ``_FLAT_MAX`` scalars and strings
    shorter than ``_LONG``: nothing the replacement escaping would speed up. (Plain loops: it
    runs for every small record, where a generator per call costs a third of the encoding.)"""
    kind = type(value)
    if kind is dict:
        if len(value) > _FLAT_MAX:
            return False
        for key in value:
            if type(key) is not str or len(key) >= _LONG:
                return False
        values = value.values()
    elif kind is list:
        if len(value) > _FLAT_MAX:
            return False
        values = value
    else:
        return False
    for v in values:
        if type(v) is str:
            if len(v) >= _LONG:
                return False
        elif type(v) not in _SCALAR_TYPES:
            return False
    return True


def _short_pairs(value: Any) -> bool:
    """True for a list of small flat lists (``_short_flat``): a fingerprint's pairs."""
    return type(value) is list and all(type(v) is list and _short_flat(v) for v in value)


class DeferredText(ABC):
    """A string value read only when needed (a source document travelling with its gold
    record, read when its block is scored): digested, and encoded by ``canonical_json``
    (``default=str``), exactly as the string ``text()`` returns."""

    @abstractmethod
    def text(self) -> str:
        """The string itself."""

    def ascii_bytes(self) -> bytes | None:
        """The string's bytes when it was read as ASCII bytes (they are then its UTF-8 form
        too), else None: a digest takes them as they are instead of encoding it again."""
        return None

    def __str__(self) -> str:
        return self.text()


def json_sha256(value: Any) -> str:
    return json_sha256_bytes(value).hex()


def json_sha256_bytes(value: Any) -> bytes:
    """``json_sha256`` as the 32 bytes of the digest (hashed part by part: ``canonical_parts``)."""
    h = hashlib.sha256()
    for part in canonical_parts(value):
        h.update(part)
    return h.digest()


def canonical_parts(value: Any) -> list[bytes]:
    """``canonical_json(value).encode("utf-8")`` in pieces whose concatenation is those bytes.

    A dict with string keys (a gold record) is written key by key in sorted order, as the
    encoder writes it (sorting its items sorts by key: keys are distinct): each key and nested
    value by json's C encoder with its C string escaping, a long ASCII string value (a source
    document) as escaped bytes (``_escaped``, of a ``DeferredText``'s own bytes when it has
    them), so no Python call per short string and no copy of the document as text. Anything
    else, and a small flat record (``_short_flat``: one C call encodes it whole), is
    ``canonical_json``'s bytes in one piece.
    """
    if (
        _FAST is None
        or type(value) is not dict
        or _short_flat(value)
        or not all(type(k) is str for k in value)
    ):
        return [canonical_json(value).encode("utf-8")]
    parts = [b"{"]
    for n, (key, item) in enumerate(sorted(value.items())):
        head = _C_STRING(key) + ":"
        raw: bytes | None = None
        if isinstance(item, DeferredText):
            raw, item = item.ascii_bytes(), item.text()
        if type(item) is str and len(item) >= _LONG and item.isascii():
            raw = item.encode("ascii") if raw is None else raw
            parts += [(("," if n else "") + head + '"').encode("utf-8"), _escaped(raw), b'"']
            continue
        try:
            body = _nested(item)
        except RecursionError:
            return [canonical_json(value).encode("utf-8")]  # a cycle: the checking encoder
        parts.append((("," if n else "") + head + body).encode("utf-8"))
    parts.append(b"}")
    return parts


def _nested(value: Any) -> str:
    """``"".join(_FAST(value, 0))``: by the ASCII-escaping encoder when its text holds no
    ``\\u`` escape (then no string held a non-ASCII character: the same characters), else by
    ``_FAST``."""
    if _FAST_ASCII is not None:
        body = "".join(_FAST_ASCII(value, 0))
        if "\\u" not in body:
            return body
    return "".join(_FAST(value, 0))


#: ``_SPECIAL``'s escapes as bytes, backslash first (the other escapes add backslashes)
_BYTE_ESCAPES = sorted(
    ((bytes([c]), e.encode("ascii")) for c, e in _ESCAPE.items()), key=lambda p: p[0] != b"\\"
)


def _escaped(raw: bytes) -> bytes:
    """``_encode_string(text).encode()`` of an ASCII string's bytes, without its quotes: bytes
    replacements (memchr speed) of the escaped characters it holds (``_specials``).

    A text with no quote or backslash (memchr) whose only control character is the newline (a
    source document) has its newlines escaped, and numpy's minimum of the result then checks
    that nothing else needs escaping: a third of the time of finding the set first."""
    np = sys.modules.get("numpy")
    if np is not None and b'"' not in raw and b"\\" not in raw:
        out = raw.replace(b"\n", b"\\n")
        if not out or np.frombuffer(out, np.uint8).min() >= 0x20:
            return out
    present = _specials(raw)
    if present:
        for char, escape in _BYTE_ESCAPES:
            if char[0] in present:
                raw = raw.replace(char, escape)
    return raw


def _specials(raw: bytes) -> set[int]:
    """The bytes of ``_SPECIAL`` that ``raw`` holds: its control bytes found by one vectorized
    comparison (numpy; a source document holds a few newlines among 10⁵ bytes), the quote and
    the backslash by memchr: twice as fast as deleting every other byte (``bytes.translate``,
    what a command that has not loaded numpy does).
    """
    np = sys.modules.get("numpy")
    if np is None:  # a command that has not loaded numpy: not worth loading it for this
        return set(raw.translate(None, _KEEP_SPECIAL))
    codes = np.frombuffer(raw, np.uint8)
    found = set(codes[codes < 0x20].tobytes())
    for char in b'"\\':
        if bytes((char,)) in raw:
            found.add(char)
    return found


def surface_fingerprint(ids: Sequence[str], gold_digests: Mapping[str, str]) -> str:
    """sha256 of the sorted item ids with each item's gold digest: equal surfaces, equal prints."""
    return json_sha256([[i, gold_digests.get(i, "")] for i in sorted(ids)])


def surface_fingerprint_streamed(ids: Sequence[str], gold_digest: Callable[[int], str]) -> str:
    """``surface_fingerprint`` hashed piece by piece, ``gold_digest(i)`` being the digest of
    ``ids[i]``: the same value without building the whole canonical JSON text."""
    h = hashlib.sha256(b"[")
    order = sorted(range(len(ids)), key=ids.__getitem__)
    for lo in range(0, len(order), _PAIRS_AT_ONCE):
        # canonical_json of a list is "[" + its elements' texts joined by "," + "]"
        pairs = canonical_json([[ids[i], gold_digest(i)] for i in order[lo : lo + _PAIRS_AT_ONCE]])
        h.update((pairs[1:-1] if lo == 0 else "," + pairs[1:-1]).encode("utf-8"))
    h.update(b"]")
    return h.hexdigest()


#: (id, digest) pairs encoded by one ``canonical_json`` call in ``surface_fingerprint_streamed``
_PAIRS_AT_ONCE = 4096


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args],
        capture_output=True,
        text=True,
        timeout=5,
        check=True,
    ).stdout.strip()


def assay_checkout() -> Path | None:
    """A directory of the git checkout assay itself runs from (the package's own, found from
    its location, never the working directory); None for an installed package, or when the
    package directory is not tracked by the repository around it (a virtualenv inside another
    project). One ``git`` call: ``ls-files --error-unmatch`` fails outside a repository too."""
    package = Path(__file__).resolve().parents[1]
    try:
        _git(package, "ls-files", "--error-unmatch", "__init__.py")
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return package


def git_commit(cwd: Path | None = None) -> str | None:
    """HEAD of the evaluator's checkout, '+dirty' appended when it has changes to tracked files
    (staged or not; untracked files do not count).

    Without ``cwd`` the checkout is assay's own (``assay_checkout``): the commit names the code
    that scored, whatever directory the command runs in; None when assay is not run from a git
    checkout of itself, or before its first commit. One ``git status`` gives both: its
    ``# branch.oid`` header is HEAD, and any entry line is a change (run from any directory of
    the checkout, it reports the whole work tree).
    """
    root = cwd if cwd is not None else assay_checkout()
    if root is None:
        return None
    try:
        lines = _git(
            root, "status", "--porcelain=v2", "--branch", "--untracked-files=no"
        ).splitlines()
    except (OSError, subprocess.SubprocessError):
        return None
    head = next((ln[len(_OID) :] for ln in lines if ln.startswith(_OID)), "")
    if not head or head == "(initial)":  # no commit yet: there is no HEAD to name
        return None
    dirty = any(not ln.startswith("#") for ln in lines if ln)
    return f"{head}+dirty" if dirty else head


#: the header line of ``git status --porcelain=v2 --branch`` that names HEAD's commit
_OID = "# branch.oid "


def evaluator(version: str, commit: str | None) -> str:
    """The evaluator as one string: ``assay 0.1.0`` or ``assay 0.1.0 (git 1a2b3c…)``."""
    return f"assay {version}" + (f" (git {commit})" if commit else "")
