"""The chunked-extraction merge (seed 000 §4): one output per document window, merged.

List fields are unioned with normalized dedupe (a clause crossing the cut is quoted on both
sides and kept once), scalars keep the first non-null value, confidence takes the max. A chunk
that fails to parse is skipped, not fatal, and counted.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from assay._fields.text import as_text, is_blank, tokens
from assay._io.readers import json_type
from assay._io.strict import StrictJSONError
from assay._io.strict import loads as strict_loads


@dataclass(frozen=True)
class MergedExtraction:
    """The merged object, how many chunks were merged and how many were skipped (and why)."""

    value: dict[str, Any]
    n_chunks: int
    chunked: bool
    skipped: tuple[str, ...] = ()


def parse_json_object(value: Any) -> tuple[dict[str, Any] | None, str | None]:
    """A JSON object from a mapping or its JSON text (```json fences allowed); else a reason.

    The text is parsed as strictly as a record (``assay._io.strict``): NaN, nesting past the
    depth limit or an oversized string is a reason naming the field, as it is in a file."""
    if isinstance(value, dict):
        return value, None
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("```"):
            text = text.strip("`")
            text = text[4:] if text.lower().startswith("json") else text
        try:
            parsed = strict_loads(text)
        except json.JSONDecodeError as err:
            return None, f"not JSON ({err.msg} at line {err.lineno} column {err.colno})"
        except StrictJSONError as err:
            return None, f"not strict JSON ({err})"
        except ValueError as err:  # an integer beyond the int-to-str digit limit
            return None, f"not JSON ({err})"
        if isinstance(parsed, dict):
            return parsed, None
        return None, f"JSON {json_type(parsed)} where an object was expected"
    return None, f"{json_type(value)} where an object was expected"


def _dedupe_key(item: Any) -> str:
    return " ".join(tokens(as_text(item)))


def merge_chunks(
    chunks: Sequence[Any], *, confidence_field: str = "confidence"
) -> MergedExtraction:
    """Merge per-chunk outputs into one extraction (see the module docstring)."""
    merged: dict[str, Any] = {}
    seen: dict[str, set[str]] = {}
    skipped: list[str] = []
    used = 0
    for index, chunk in enumerate(chunks):
        obj, reason = parse_json_object(chunk)
        if obj is None:
            skipped.append(f"chunk {index}: {reason}")
            continue
        used += 1
        for key, value in obj.items():
            if key == confidence_field:
                if isinstance(value, int | float) and not isinstance(value, bool):
                    current = merged.get(key)
                    merged[key] = value if current is None else max(current, value)
                continue
            if isinstance(value, list):
                items = merged.setdefault(key, [])
                if not isinstance(items, list):
                    continue
                keys = seen.setdefault(key, {_dedupe_key(v) for v in items})
                for v in value:
                    k = _dedupe_key(v)
                    if k not in keys:
                        keys.add(k)
                        items.append(v)
            elif key not in merged or is_blank(merged[key]):
                merged[key] = value
    return MergedExtraction(merged, used, True, tuple(skipped))
