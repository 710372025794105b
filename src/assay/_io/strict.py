"""Strict, bounded parsing of untrusted JSON: one hostile record costs only itself.

Python's ``json`` accepts ``NaN``, ``Infinity`` and ``-Infinity`` (not JSON, RFC 8259 §6) and
nests as deep as the interpreter's stack; PyYAML's safe loader expands aliases without bound
(a "billion laughs" front matter holds 10⁹ nodes in a few hundred bytes). Every reader of
predictions and gold parses through this module instead, so that

- a non-finite number (``NaN``, ``Infinity``, or ``1e999``, which Python reads as infinity)
  is an error naming the field that holds it (``$.parties[0]``);
- nesting deeper than ``MAX_DEPTH`` levels is an error (every scorer that walks a value
  recursively then stays far from the recursion limit);
- one string longer than ``MAX_VALUE_CHARS`` characters is an error naming its field;
- YAML (``assay._io.safe_yaml``, apart so that a JSON reader never imports PyYAML) may use at
  most ``MAX_YAML_ALIASES`` aliases, and its alias-expanded tree at most ``MAX_YAML_NODES`` nodes.

The caller turns the error into a listed failure of that one record (file, line, reason).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from typing import Any

__all__ = [
    "MAX_DEPTH",
    "MAX_VALUE_CHARS",
    "StrictJSONError",
    "check_value",
    "loads",
    "loads_lenient",
    "loads_marked",
    "strict_decode",
]

#: deepest nesting of arrays and objects accepted (the deepest real record seen is under 12)
MAX_DEPTH = 100
#: longest single string value accepted, in characters (a whole book is about 2 million)
MAX_VALUE_CHARS = 8_000_000


class StrictJSONError(ValueError):
    """A JSON text that parses with Python's lenient rules but is refused here; says why."""


class _NonFinite:
    """Stands for a NaN/Infinity token (or a float overflowing to infinity) while its field is
    located; ``token`` is the reason. Never escapes this module."""

    __slots__ = ("token",)

    def __init__(self, token: str) -> None:
        self.token = token


def _refuse_constant(token: str) -> Any:
    raise StrictJSONError(f"{token} is not valid JSON")


def _finite_float(token: str) -> float:
    """A JSON number as a float; one too large for a float (``1e999``) is refused, since
    Python would read it as infinity."""
    value = float(token)
    if math.isinf(value):
        raise StrictJSONError(f"{token[:40]} is beyond the range of a float")
    return value


def _marked_constant(token: str) -> Any:
    return _NonFinite(f"{token} is not valid JSON")


def _marked_float(token: str) -> Any:
    value = float(token)
    return (
        _NonFinite(f"{token[:40]} is beyond the range of a float") if math.isinf(value) else value
    )


#: the strict decoder, made once (``json.loads`` with hooks builds a decoder per call)
_STRICT = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)
#: its scanner: (value, end) of the JSON value at an index, the same tokens and hooks
_SCAN: Callable[[str, int], tuple[Any, int]] = _STRICT.scan_once  # type: ignore[attr-defined]
_JSON_SPACE = " \t\n\r"


def _path(parent: str, key: object) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    text = str(key)
    if text.isidentifier():
        return f"{parent}.{text}"
    return f"{parent}[{json.dumps(text, ensure_ascii=False)}]"


def _short(path: str) -> str:
    """A field path cut to its last 120 characters (a path 10,000 levels deep is not read)."""
    return path if len(path) <= 120 else "…" + path[-119:]


def _children(value: Any) -> Iterator[tuple[object, Any]]:
    if isinstance(value, dict):
        return iter(value.items())
    if isinstance(value, list):
        return enumerate(value)
    return iter(())


def check_value(
    value: Any,
    *,
    max_depth: int = MAX_DEPTH,
    max_chars: int = MAX_VALUE_CHARS,
    finite: bool = True,
) -> None:
    """Raise ``StrictJSONError`` naming the first field that is too deep, too long or not finite.

    Iterative (a value nested 100,000 levels is walked without recursion); floats must be
    finite (unless ``finite`` is False), strings (keys included) at most ``max_chars``
    characters, nesting ``max_depth``.
    """
    stack: list[tuple[str, Any, int]] = [("$", value, 0)]
    while stack:
        path, v, depth = stack.pop()
        if isinstance(v, _NonFinite):
            raise StrictJSONError(f"{v.token} (field {_short(path)})")
        if finite and isinstance(v, float) and not math.isfinite(v):
            raise StrictJSONError(f"non-finite number {v!r} (field {_short(path)})")
        if isinstance(v, str):
            if len(v) > max_chars:
                raise StrictJSONError(
                    f"value of {len(v):,} characters, beyond the limit of {max_chars:,} "
                    f"(field {_short(path)})"
                )
            continue
        if isinstance(v, dict | list):
            if depth >= max_depth:
                raise StrictJSONError(
                    f"nested deeper than {max_depth} levels (field {_short(path)})"
                )
            for key, child in _children(v):
                if isinstance(key, str) and len(key) > max_chars:
                    raise StrictJSONError(
                        f"a key of {len(key):,} characters (field {_short(path)})"
                    )
                stack.append((_path(path, key), child, depth + 1))


def loads(text: str) -> Any:
    """``json.loads`` with NaN/Infinity, deep nesting and huge strings refused (see module).

    The common case costs one ``json.loads``: the walk over the value runs only when the text
    could hold something to refuse (more brackets than ``MAX_DEPTH``, or longer than
    ``MAX_VALUE_CHARS``). Raises ``json.JSONDecodeError`` for invalid JSON and
    ``StrictJSONError`` for the rest.
    """
    try:
        if text.startswith("\ufeff"):  # json.loads' own check, which ``decode`` lacks
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        # the C scanner itself: ``decode``'s regex matches and calls cost more than the scan
        try:
            value, end = _SCAN(text, 0)
            whole = end == len(text) or not text[end:].strip(_JSON_SPACE)
        except (StopIteration, json.JSONDecodeError):
            whole = False
        if not whole:  # leading space, extra data, a syntax error: ``decode``'s own verdict
            value = _STRICT.decode(text)
    except StrictJSONError:
        # parse again keeping a marker for the token, to say which field holds it
        value = json.loads(text, parse_constant=_marked_constant, parse_float=_marked_float)
        check_value(value)
        raise  # pragma: no cover - the walk always finds the marker
    except RecursionError:
        raise StrictJSONError(f"nested deeper than {MAX_DEPTH} levels") from None
    if len(text) > MAX_VALUE_CHARS or text.count("[") + text.count("{") > MAX_DEPTH:
        check_value(value)
    return value


def loads_lenient(text: str | bytes) -> Any:
    """JSON as other tools write it (``NaN``, ``Infinity`` read as floats), with ``loads``'
    depth and size limits: for a log whose format allows them (lm-eval, Inspect). Raises
    ``json.JSONDecodeError`` (or ``UnicodeDecodeError`` for bytes) for invalid JSON and
    ``StrictJSONError`` for nesting or a string beyond the limits."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise StrictJSONError(f"nested deeper than {MAX_DEPTH} levels") from None
    if len(text) > MAX_VALUE_CHARS or _brackets(text) > MAX_DEPTH:
        check_value(value, finite=False)
    return value


def _brackets(text: str | bytes) -> int:
    if isinstance(text, bytes):
        return text.count(b"[") + text.count(b"{")
    return text.count("[") + text.count("{")


def strict_decode(text: str) -> Any:
    """One JSON document parsed with the strict tokens (NaN, Infinity and floats beyond range
    refused: ``StrictJSONError``; a syntax error: ``json.JSONDecodeError``), without ``loads``'
    depth and size walk or its locating of a refused token: for a caller that has ruled those
    out and reads a refusal as "take the slow path" (``io.readers``' blocks of lines)."""
    return _STRICT.decode(text)


def loads_marked(text: str) -> Any:
    """Parse a whole document leniently, NaN/Infinity kept as markers for ``check_value``.

    For a file holding many records (a JSON list), so that each element is checked on its own
    and one bad element is a failure of that element only. Raises ``json.JSONDecodeError``, or
    ``StrictJSONError`` when nested beyond the interpreter's stack.
    """
    try:
        return json.loads(text, parse_constant=_marked_constant, parse_float=_marked_float)
    except RecursionError:
        raise StrictJSONError(f"nested deeper than {MAX_DEPTH} levels") from None
