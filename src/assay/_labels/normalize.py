"""Label normalization shared by the label-classification suites (seed 000 §1).

The same rules as the classification suite's ``normalize_label``; it lives here, below the
task layer, so every suite can use it without importing another suite.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Collection, Mapping
from functools import lru_cache
from typing import Any

from assay._io.strict import loads as strict_loads

#: prepended to failed-row outputs so a failure is never counted as a prediction
ERROR_PREFIX = "ERROR: "
_QUOTES = "\"'`“”‘’"


def is_error_output(value: Any) -> bool:
    """True for rows whose output starts with the ``ERROR: `` sentinel."""
    return isinstance(value, str) and value.startswith(ERROR_PREFIX)


def is_blank(value: Any) -> bool:
    """True for a missing answer: None, NaN, or a string that is empty after stripping."""
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return isinstance(value, str) and not value.strip()


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


def _from_json_object(value: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        if key in value:
            return value[key]
    return json.dumps(value, sort_keys=True)


def label_key(label: str) -> str:
    """Canonical form of a label: lowercase, spaces and hyphens as underscores."""
    return _SEPARATORS.sub("_", label.strip().lower())


def normalize_label(
    value: Any,
    valid: Collection[str] | None = None,
    *,
    json_keys: tuple[str, ...] = ("doc_type", "label", "answer", "class"),
) -> str:
    """Canonical label key: lowercase, quoting stripped, a JSON object's ``doc_type`` preferred.

    With a ``valid`` label set, an output that is not itself a label is searched for one at
    word boundaries (longest, then earliest match wins); no match → the cleaned text as a key.
    """
    if type(value) is str and json_keys == _JSON_KEYS:
        # outputs repeat (a few labels, many items): each distinct text is normalized once
        memo: dict[str, str] = _derived("memo", valid, dict) if valid else _PLAIN_MEMO
        hit = memo.get(value)
        if hit is None:
            hit = _normalize(value, valid, json_keys)
            if len(memo) < _MEMO_MAX:
                memo[value] = hit
        return hit
    return _normalize(value, valid, json_keys)


#: the default JSON keys (memoised calls use them)
_JSON_KEYS = ("doc_type", "label", "answer", "class")
#: texts remembered per label set (and without one)
_MEMO_MAX = 1 << 16
_PLAIN_MEMO: dict[str, str] = {}
_SPACES = re.compile(r"\s+")
_SEPARATORS = re.compile(r"[\s\-]+")


def _normalize(value: Any, valid: Collection[str] | None, json_keys: tuple[str, ...]) -> str:
    """`normalize_label` without the memo."""
    if isinstance(value, Mapping):
        value = _from_json_object(value, json_keys)
    text = _scalar_text(value).strip()
    if text.startswith("{"):
        try:
            parsed = strict_loads(text)  # as strictly as a record: depth and size bounded
        except ValueError:  # not JSON, or refused (StrictJSONError)
            parsed = None
        if isinstance(parsed, Mapping):
            return normalize_label(parsed, valid, json_keys=json_keys)
    text = text.strip(_QUOTES + " \t\r\n").strip().lower()
    text = _SPACES.sub(" ", text)
    if not valid:
        return label_key(text)
    keys, members = _valid_keys(valid)
    key_text = label_key(text)
    if key_text in members:
        return key_text
    best: tuple[int, int, str] | None = None
    for key in keys:
        m = _label_pattern(key).search(text)
        if m:
            cand = (-(m.end() - m.start()), m.start(), key)
            if best is None or cand < best:
                best = cand
    return best[2] if best else key_text


#: label sets seen lately, by object identity: (the set itself, its size then, the derived value)
_DERIVED: dict[tuple[str, int], tuple[Collection[str], int, Any]] = {}
_DERIVED_MAX = 16


def _derived(kind: str, valid: Collection[str], build: Callable[[], Any]) -> Any:
    """``build()`` for this label-set object, computed once while it is in use.

    A run passes the same label-set object (its settings') for every item, so what is derived
    from it (sorted keys, normalized members) is computed once per run, not once per item. The
    entry holds the object, so its identity cannot be reused; a label set is not changed while
    it is in use (settings are fixed for a run), and one whose size changed is derived anew.
    """
    slot = (kind, id(valid))
    hit = _DERIVED.get(slot)
    if hit is not None and hit[0] is valid and hit[1] == len(valid):
        return hit[2]
    value = build()
    if len(_DERIVED) >= _DERIVED_MAX:
        _DERIVED.pop(next(iter(_DERIVED)), None)
    _DERIVED[slot] = (valid, len(valid), value)
    return value


def _valid_keys(valid: Collection[str]) -> tuple[tuple[str, ...], frozenset[str]]:
    """The sorted label keys of ``valid`` and the same as a set (derived once per set)."""

    def build() -> tuple[tuple[str, ...], frozenset[str]]:
        keys = tuple(sorted({label_key(v) for v in valid}))
        return keys, frozenset(keys)

    result: tuple[tuple[str, ...], frozenset[str]] = _derived("keys", valid, build)
    return result


def normalized_labels(valid: Collection[str]) -> frozenset[str]:
    """``{normalize_label(v) for v in valid}``, derived once per label-set object."""
    result: frozenset[str] = _derived(
        "normalized", valid, lambda: frozenset(normalize_label(v) for v in valid)
    )
    return result
