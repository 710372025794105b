"""Strict JSONL input for the analytics commands: every line an object, or an error naming it.

Unlike the scoring readers (which turn a bad prediction into a counted failure), analytics inputs
are small hand-made files where a bad line means a wrong number, so it stops the command.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from assay._io.strict import loads_lenient
from assay.errors import InputError


def read_objects(path: str | os.PathLike[str], what: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """("file:line", object) for each non-blank line; ``what`` names the record in errors."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InputError(f"{p}: {what} file not found") from None
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"{p}: cannot read the {what} file: {err}") from None
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{p}:{no}"
        try:
            rec = loads_lenient(line)
        except json.JSONDecodeError as err:
            raise InputError(f"{where}: invalid JSON: {err.msg}") from None
        except ValueError as err:  # StrictJSONError: nested or sized beyond the limits
            raise InputError(f"{where}: invalid JSON: {err}") from None
        if not isinstance(rec, dict):
            raise InputError(f"{where}: a {what} record must be a JSON object")
        yield where, rec
