"""Nested field paths: ``scores.match.value``, ``filtered_resps[0]``, ``choices[0].message.content``.

Every field option of every suite (``--predicted-field``, ``--id-field``, …) takes a path into the
record as well as a plain key, so that a record written by another tool (an Inspect sample, an
lm-evaluation-harness line, a promptfoo row, an OpenAI response) is read where its value lives.

Grammar::

    path    := name segment*
    segment := '.' name | '[' integer ']' | '["' text '"]'

A ``name`` is any run of characters other than ``.``, ``[`` and ``]``; an integer index may be
negative (``resps[-1]``); a quoted key (JSON string syntax) holds any text, dots included
(``vars["user.id"]``). **A literal top-level key wins**: a record with a key ``"a.b"`` is read at
that key, so the dotted field names suites accept today keep their meaning.

A path that does not resolve raises :class:`FieldPathError`, naming the segment that is absent
and what was there instead::

    field "scores.match.value": no key "match" under "scores" (has: "choice")
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from assay.errors import UsageError

__all__ = ["FieldPath", "FieldPathError", "get_field", "has_field", "lookup", "parse_path"]

#: a name segment, a bracketed integer, or a bracketed JSON string
_TOKEN = re.compile(r'\.([^.\[\]]+)|\[(-?\d+)\]|\[("(?:[^"\\]|\\.)*")\]')
_HEAD = re.compile(r"[^.\[\]]+")
#: keys listed in an error message
_SHOWN_KEYS = 8
_ABSENT = object()

Segment = str | int


class FieldPathError(LookupError):
    """A field path that does not resolve in one record: ``str()`` names the absent segment."""

    def __init__(self, path: str, at: str, reason: str) -> None:
        super().__init__(f"field {json.dumps(path, ensure_ascii=False)}: {reason}")
        self.path = path
        self.at = at
        self.reason = reason

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class FieldPath:
    """A parsed path: its text and its segments (keys and list indexes)."""

    text: str
    segments: tuple[Segment, ...]

    @property
    def nested(self) -> bool:
        return len(self.segments) > 1

    def get(self, record: Mapping[str, Any]) -> Any:
        """The value at this path; a literal top-level key equal to the whole text wins.
        Raises :class:`FieldPathError` naming the first absent segment."""
        if self.text in record:
            return record[self.text]
        value: Any = record
        shown = ""  # the part of the path resolved so far
        for seg in self.segments:
            value = _step(self.text, value, seg, shown)
            shown = _join(shown, seg)
        return value


def _join(shown: str, seg: Segment) -> str:
    if isinstance(seg, int):
        return f"{shown}[{seg}]"
    if _HEAD.fullmatch(seg):
        return f"{shown}.{seg}" if shown else seg
    return f"{shown}[{json.dumps(seg, ensure_ascii=False)}]"


def _keys(mapping: Mapping[Any, Any]) -> str:
    names = [json.dumps(str(k), ensure_ascii=False) for k in list(mapping)[:_SHOWN_KEYS]]
    more = ", …" if len(mapping) > _SHOWN_KEYS else ""
    return f"has: {', '.join(names)}{more}" if names else "it is an empty object"


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def _step(path: str, value: Any, seg: Segment, shown: str) -> Any:
    where = f' under "{shown}"' if shown else ""
    if isinstance(seg, int):
        if not isinstance(value, list | tuple):
            raise FieldPathError(
                path, _join(shown, seg), f"cannot index [{seg}]: {shown or 'the record'} is "
                f"{_type_name(value)}, not an array"
            )
        if not -len(value) <= seg < len(value):
            raise FieldPathError(
                path,
                _join(shown, seg),
                f"no index [{seg}]{where} (an array of {len(value)})",
            )
        return value[seg]
    if not isinstance(value, Mapping):
        raise FieldPathError(
            path,
            _join(shown, seg),
            f"no key {json.dumps(seg, ensure_ascii=False)}: {shown or 'the record'} is "
            f"{_type_name(value)}, not an object",
        )
    found = value.get(seg, _ABSENT)
    if found is _ABSENT:
        raise FieldPathError(
            path,
            _join(shown, seg),
            f"no key {json.dumps(seg, ensure_ascii=False)}{where} ({_keys(value)})",
        )
    return found


@lru_cache(maxsize=1024)
def parse_path(text: str) -> FieldPath:
    """``text`` parsed (cached); a path that is not well formed is a ``UsageError`` naming it."""
    if not isinstance(text, str) or not text:
        raise UsageError(f"field path must be a non-empty string, not {text!r}")
    head = _HEAD.match(text)
    if head is None:
        raise UsageError(f"field path {text!r} must start with a field name")
    segments: list[Segment] = [head.group(0)]
    pos = head.end()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise UsageError(
                f"field path {text!r}: cannot read {text[pos:]!r} (after a name: .name, [0] "
                'or ["key"])'
            )
        name, index, quoted = m.groups()
        if name is not None:
            segments.append(name)
        elif index is not None:
            segments.append(int(index))
        else:
            segments.append(str(json.loads(quoted)))
        pos = m.end()
    return FieldPath(text, tuple(segments))


def _plain(field: str) -> bool:
    return "." not in field and "[" not in field


def lookup(record: Mapping[str, Any], field: str) -> Any:
    """The value at ``field`` (a key or a path); :class:`FieldPathError` when absent."""
    if field in record:
        return record[field]
    if _plain(field):
        raise FieldPathError(
            field, field, f"no key {json.dumps(field, ensure_ascii=False)} ({_keys(record)})"
        )
    return parse_path(field).get(record)


def get_field(record: Mapping[str, Any], field: str, default: Any = None) -> Any:
    """The value at ``field`` (a key or a path), or ``default`` when it does not resolve."""
    value = record.get(field, _ABSENT)
    if value is not _ABSENT:
        return value
    if _plain(field):
        return default
    try:
        return parse_path(field).get(record)
    except FieldPathError:
        return default


def has_field(record: Mapping[str, Any], field: str) -> bool:
    """True when ``field`` (a key or a path) resolves in ``record``."""
    return get_field(record, field, _ABSENT) is not _ABSENT
