"""Writing analytics results: deterministic JSON (NaN and ±inf as null) and text, atomically."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from assay._io.atomic import write_atomic


def clean(value: Any) -> Any:
    """JSON-safe copy: non-finite floats → None, tuples → lists."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean(v) for v in value]
    return value


def json_text(data: Any) -> str:
    return json.dumps(clean(data), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """``text`` written to ``path`` whole or not at all (``assay._io.atomic``)."""
    return write_atomic(path, [text.encode("utf-8")]).path


def write_json(path: str | os.PathLike[str], data: Any) -> Path:
    return write_text(path, json_text(data))
