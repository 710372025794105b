"""Nested field paths: ``scores.match.value``, ``filtered_resps[0]``, ``choices[0].message.text``.

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

Suites read a field as ``record.get(settings.x_field)``. While a run is read, the engine holds its
section's field options in :func:`record_paths`, and the readers (``assay._io.readers``) set each
nested path's value in every record under the path as a literal key (:func:`with_paths`), so
every suite's field options take paths without a change to the suite.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from assay._io.records import ReadResult, SourceRecord
from assay.errors import InputError, UsageError

__all__ = [
    "FieldPath",
    "FieldPathError",
    "field_paths",
    "get_field",
    "has_field",
    "lookup",
    "parse_path",
    "record_paths",
    "with_paths",
]

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
                path,
                _join(shown, seg),
                f"cannot index [{seg}]: {shown or 'the record'} is "
                f"{_type_name(value)}, not an array",
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


# --------------------------------------------------------------------------- records read


#: the nested paths of the run being read (``record_paths``): the readers give each record
#: their values under the path as a literal key, so a suite's ``record.get(field)`` finds them
_PATHS: ContextVar[tuple[str, ...]] = ContextVar("assay_record_paths", default=())


def field_paths(section: Any) -> list[str]:
    """The values of a settings section's field options (its ``*_field`` strings)."""
    values = section.model_dump() if hasattr(section, "model_dump") else dict(section)
    return [v for k, v in values.items() if k.endswith("_field") and isinstance(v, str) and v]


@contextmanager
def record_paths(paths: Iterable[str]) -> Iterator[None]:
    """While inside, the readers resolve these paths (the nested ones) in every record read
    (:func:`with_paths`); a malformed path is a ``UsageError`` at once."""
    nested = tuple(dict.fromkeys(p for p in paths if not _plain(p)))
    for p in nested:
        parse_path(p)
    token = _PATHS.set(nested)
    try:
        yield
    finally:
        _PATHS.reset(token)


def with_paths(results: Iterator[ReadResult], id_field: str | None) -> Iterator[ReadResult]:
    """``results`` as read, or, inside :func:`record_paths`, each record with the value of each
    nested path set under the path itself (a literal key: the rule every suite reads by) and
    its id taken from a nested ``id_field``.

    A path that resolves in no record of the file although its first segment is in some is
    an ``InputError`` naming the absent segment (a typo, not an optional field), raised once
    the file is read.
    """
    paths = _PATHS.get()
    if not paths:
        return results
    return _resolved(results, paths, id_field)


def _resolved(
    results: Iterator[ReadResult], paths: tuple[str, ...], id_field: str | None
) -> Iterator[ReadResult]:
    parsed = [parse_path(p) for p in paths]
    found = dict.fromkeys(paths, False)
    first_error: dict[str, str] = {}
    where: dict[str, str] = {}
    for res in results:
        if isinstance(res, SourceRecord):
            record = res.record
            for path in parsed:
                if path.text in record:
                    found[path.text] = True
                    continue
                try:
                    record[path.text] = path.get(record)
                    found[path.text] = True
                except FieldPathError as exc:
                    if path.text not in first_error and path.segments[0] in record:
                        first_error[path.text] = str(exc)
                        where[path.text] = res.where()
            if id_field is not None and res.id is None and id_field in record:
                value = record[id_field]
                if isinstance(value, str | int) and not isinstance(value, bool):
                    res = SourceRecord(str(value), record, res.file, res.line)
        yield res
    for text, ok in found.items():
        if not ok and text in first_error:
            raise InputError(f"{where[text]}: {first_error[text]} (in every record of the file)")
