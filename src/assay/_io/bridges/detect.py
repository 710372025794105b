"""Which tool wrote a file, told by its content (never by its name alone).

=========================  =================================================================
Inspect ``.eval``          a ZIP archive with ``header.json`` or ``_journal/start.json`` whose
                           object has an integer ``version`` and ``eval.task``
Inspect ``.json``          one object with an integer ``version``, ``status`` and an ``eval``
                           holding ``task``, ``model`` and ``dataset``
lm-eval                    JSONL whose first record has ``doc_id``, ``doc``, ``resps`` and
                           ``filtered_resps``; or a folder holding ``samples_*.jsonl`` files
promptfoo                  one object whose ``results.results`` is a list of rows with
                           ``success``, ``score``, ``provider`` and ``prompt``; or JSONL of
                           such rows
=========================  =================================================================

Anything else is none of them (``None``): assay's own readers take it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from assay._io.bridges.model import Source
from assay._io.bridges.ziparchive import Archive
from assay._io.strict import loads_lenient
from assay.errors import InputError

__all__ = ["detect_source"]

_ZIP = b"PK\x03\x04"
#: a JSON file past this size is not parsed whole to find out what it is
MAX_SNIFF_BYTES = 512 * 1024**2
_ROW_KEYS = ("success", "score", "provider", "prompt")


def _is_inspect_header(value: Any, *, whole: bool) -> bool:
    if not isinstance(value, Mapping):
        return False
    version, ev = value.get("version"), value.get("eval")
    if isinstance(version, bool) or not isinstance(version, int) or not isinstance(ev, Mapping):
        return False
    if not whole:
        return "task" in ev
    return "status" in value and all(k in ev for k in ("task", "model", "dataset"))


def _is_lm_eval_line(value: Any) -> bool:
    return isinstance(value, Mapping) and all(
        k in value for k in ("doc_id", "doc", "resps", "filtered_resps")
    )


def _is_promptfoo_row(value: Any) -> bool:
    return isinstance(value, Mapping) and all(k in value for k in _ROW_KEYS)


def _is_promptfoo_output(value: Any) -> bool:
    if not isinstance(value, Mapping):
        return False
    results = value.get("results")
    if not isinstance(results, Mapping) or not isinstance(results.get("results"), list):
        return False
    rows = results["results"]
    return not rows or _is_promptfoo_row(rows[0])


def detect_source(path: Path) -> Source | None:
    """The tool that wrote ``path`` (see the module table), or None."""
    if path.is_dir():
        return "lm-eval" if any(path.glob("samples_*.jsonl")) else None
    try:
        with path.open("rb") as fh:
            head = fh.read(1 << 20)
    except OSError:
        return None
    if head.startswith(_ZIP):
        try:
            archive = Archive(path)
        except InputError:
            return None
        with archive:  # a header that cannot be read (a Zstandard one without zstandard) says so
            for member in ("header.json", "_journal/start.json"):
                if member in archive:
                    try:
                        header = loads_lenient(archive.read(member))
                    except ValueError:  # not JSON, not UTF-8, beyond the limits
                        return None
                    return "inspect" if _is_inspect_header(header, whole=False) else None
        return None
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not text.startswith(b"{"):
        return None
    first = text.split(b"\n", 1)[0]
    try:
        record = loads_lenient(first)
    except ValueError:  # not JSON, not UTF-8, beyond the limits
        record = None
    if record is not None:
        if _is_lm_eval_line(record):
            return "lm-eval"
        if _is_promptfoo_row(record):
            return "promptfoo"
    try:
        if path.stat().st_size > MAX_SNIFF_BYTES:
            return None
        whole = loads_lenient(path.read_bytes())  # at most MAX_SNIFF_BYTES (checked above)
    except (OSError, ValueError):  # unreadable, not JSON, beyond the limits
        return None
    if _is_inspect_header(whole, whole=True):
        return "inspect"
    if _is_promptfoo_output(whole):
        return "promptfoo"
    return None
