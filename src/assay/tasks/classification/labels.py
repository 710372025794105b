"""Label normalization (seed 000 §1): coerce an LLM output into a canonical label key."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from functools import lru_cache
from typing import Any

#: prepended to failed-row outputs so a failure is never counted as a prediction
ERROR_PREFIX = "ERROR: "
_QUOTES = "\"'`“”‘’"


def is_error_output(value: Any) -> bool:
    """True for rows whose output starts with the ``ERROR: `` sentinel."""
    return isinstance(value, str) and value.startswith(ERROR_PREFIX)


def _scalar_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@lru_cache(maxsize=256)
def _label_pattern(label: str) -> re.Pattern[str]:
    parts = [re.escape(p) for p in re.split(r"[\s_\-]+", label) if p]
    return re.compile(r"(?<![a-z0-9])" + r"[\s_\-]+".join(parts) + r"(?![a-z0-9])")


def _from_json_object(value: Mapping[str, Any]) -> Any:
    for key in ("doc_type", "label", "answer", "class"):
        if key in value:
            return value[key]
    return json.dumps(value, sort_keys=True)


def normalize_label(value: Any, valid: Collection[str] | None = None) -> str:
    """Canonical label key: lowercase, quoting stripped, a JSON object's ``doc_type`` preferred.

    With a ``valid`` label set, an output that is not itself a label is searched for one at
    word boundaries, spaces, hyphens and underscores alike ("Corporate Record" →
    ``corporate_record``); the longest, then the earliest, match wins. No match → the cleaned
    text as a key (spaces as underscores), which then scores as a miss.
    """
    if isinstance(value, Mapping):
        value = _from_json_object(value)
    text = _scalar_text(value).strip()
    if text.startswith("{"):
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError:
            parsed = None
        if isinstance(parsed, Mapping):
            return normalize_label(parsed, valid)
    text = text.strip(_QUOTES + " \t\r\n").strip().lower()
    text = re.sub(r"\s+", " ", text)
    if not valid:
        return _key(text)
    keys = sorted({_key(v) for v in valid})
    if _key(text) in keys:
        return _key(text)
    best: tuple[int, int, str] | None = None
    for key in keys:
        m = _label_pattern(key).search(text)
        if m:
            cand = (-(m.end() - m.start()), m.start(), key)
            if best is None or cand < best:
                best = cand
    return best[2] if best else _key(text)


def _key(label: str) -> str:
    """Canonical form of a label in the valid set: lowercase, separators as underscores."""
    return re.sub(r"[\s\-]+", "_", label.strip().lower())
