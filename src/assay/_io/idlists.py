"""Id lists: the ids a run is expected to cover, from a JSON file or a plain one-id-a-line file.

Unlike records, an id list is used as a whole, so any problem in it is an `InputError`.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from assay._io.decoding import read_bytes
from assay._io.readers import json_type
from assay._io.strict import StrictJSONError
from assay._io.strict import loads as strict_loads
from assay.errors import InputError

__all__ = ["read_expected_ids", "read_ids_file", "read_whole_text"]

_COMMENT = re.compile(r"\s#")


def read_whole_text(path: str | os.PathLike[str]) -> tuple[Path, str]:
    """``path`` read whole (bounded by the document limit) and decoded as UTF-8: (path, text)."""
    p = Path(path)
    if p.is_dir():
        raise InputError(f"{p}: is a directory, expected a file")
    try:
        data = read_bytes(p)
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except OSError as exc:
        raise InputError(f"cannot read {p}: {exc.strerror or exc}") from exc
    try:
        return p, data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"{p}: invalid UTF-8 at line {line}") from None


def _unique(ids: list[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def read_expected_ids(path: str | os.PathLike[str]) -> list[str]:
    """Read a JSON list of ids, or an object with a "members" or "ids" list.

    Integer ids become strings; duplicates are dropped keeping first-occurrence order.
    """
    p, text = read_whole_text(path)
    if not text.strip():
        raise InputError(f"{p}: empty file, expected a JSON list of ids")
    try:
        value: Any = strict_loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{p}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except StrictJSONError as exc:
        raise InputError(f"{p}: invalid JSON: {exc}") from None
    except ValueError as exc:  # e.g. an integer beyond the int-to-str digit limit
        raise InputError(f"{p}: invalid JSON: {exc}") from None
    if isinstance(value, dict):
        key = next((k for k in ("members", "ids") if k in value), None)
        if key is None:
            raise InputError(
                f"{p}: expected a JSON list of ids or an object with 'members' or 'ids'"
            )
        value = value[key]
        where = f"{key!r} "
    else:
        where = ""
    if not isinstance(value, list):
        raise InputError(f"{p}: expected {where}to be a JSON list of ids")
    ids: list[str] = []
    for i, item in enumerate(value):
        if isinstance(item, str):
            ids.append(item)
        elif isinstance(item, int) and not isinstance(item, bool):
            ids.append(str(item))
        else:
            raise InputError(
                f"{p}: id at index {i} must be a string or integer, found {json_type(item)}"
            )
    return _unique(ids)


def read_ids_file(path: str | os.PathLike[str]) -> list[str]:
    """Read one id a line; "#" starts a comment at line start or after whitespace.

    Blank lines are skipped, surrounding whitespace stripped, duplicates dropped keeping order.
    A "#" inside an id (no whitespace before it) is part of the id.
    """
    _, text = read_whole_text(path)
    ids: list[str] = []
    for line in text.split("\n"):
        match = _COMMENT.search(line)
        if match is not None:
            line = line[: match.start()]
        line = line.strip()
        if line and not line.startswith("#"):
            ids.append(line)
    return _unique(ids)
