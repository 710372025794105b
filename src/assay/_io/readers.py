"""Record readers for predictions and gold: JSONL, a JSON directory, CSV/TSV, text lines, JSON.

Each reader yields `SourceRecord`s and `ParseFailure`s in a deterministic order. A bad record
costs only itself (never the run, never silently); a missing or unreadable input as a whole
raises `InputError` as soon as the reader is called.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import stat
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any, Literal, TypeAlias

from assay._io.decoding import LineStream, Oversized, open_lines, read_bytes
from assay._io.fieldpath import with_paths
from assay._io.limits import record_limit
from assay._io.records import ParseFailure, ReadResult, SourceRecord
from assay._io.strict import (
    MAX_VALUE_CHARS,
    StrictJSONError,
    check_value,
    loads_marked,
    strict_decode,
)
from assay._io.strict import loads as strict_loads
from assay.errors import InputError, UsageError

__all__ = [
    "RecordFormat",
    "json_type",
    "read_csv",
    "read_folder",
    "read_json_dir",
    "read_jsonl",
    "read_records",
    "read_text_lines",
]

StrPath: TypeAlias = str | os.PathLike[str]
RecordFormat: TypeAlias = Literal["auto", "jsonl", "json", "json_dir", "csv", "tsv", "text"]

_BOM = b"\xef\xbb\xbf"
_JSON_WHITESPACE = b" \t\r\n"
_LIST_KEYS = ("entries", "items", "records", "data")
_MAX_SHARED_NAMES = 10_000  # field names shared between JSONL records (a schema is far smaller)
_STRICT_DECODE = strict_decode


# --------------------------------------------------------------------------- helpers


def json_type(value: object) -> str:
    """Name a parsed JSON value's type the way a user reading the file would."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _extract_id(record: dict[str, Any], id_field: str | None) -> tuple[str | None, str | None]:
    """Return (id, error): id None when the field is absent, error set when its type is wrong."""
    if id_field is None or id_field not in record:
        return None, None
    value = record[id_field]
    if isinstance(value, str):
        return value, None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value), None
    return None, f"id field {id_field!r} must be a string or integer, found {json_type(value)}"


def _utf8_reason(exc: UnicodeDecodeError) -> str:
    return f"invalid UTF-8 at byte offset {exc.start} ({exc.reason})"


def _loads(text: str) -> tuple[Any, str | None]:
    """Parse JSON text strictly (``assay._io.strict``); return (value, None) or (None, reason).

    Never raises on bad input: NaN/Infinity, nesting past the depth limit and an oversized
    value are reasons naming the field, like a syntax error.
    """
    try:
        return strict_loads(text), None
    except StrictJSONError as exc:
        return None, f"invalid JSON: {exc}"
    except json.JSONDecodeError as exc:
        return None, f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
    except RecursionError:
        return None, "invalid JSON: nested too deeply"
    except ValueError as exc:  # e.g. an integer beyond the int-to-str digit limit
        return None, f"invalid JSON: {exc}"


def _id_of_refused(text: str, id_field: str | None) -> str | None:
    """The id of a record refused by the strict rules (NaN, depth, size) but valid to Python's
    lenient parser, so that its failure is attributed to its item; None for a syntax error."""
    if id_field is None:
        return None
    try:
        value = loads_marked(text)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    rid, error = _extract_id(value, id_field)
    return rid if error is None else None


def _unreadable(path: Path, exc: OSError) -> InputError:
    return InputError(f"cannot read {path}: {exc.strerror or exc}")


def _check_file(path: StrPath) -> Path:
    """Fail fast, with one line naming the path, unless `path` is a readable non-directory."""
    p = Path(path)
    try:
        mode = p.stat().st_mode
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except OSError as exc:
        raise _unreadable(p, exc) from exc
    if stat.S_ISDIR(mode):
        raise InputError(f"{p}: is a directory, expected a file")
    if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
        kind = "a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a device or socket"
        raise InputError(f"{p}: is {kind}, expected a regular file")
    if not os.access(p, os.R_OK):
        raise InputError(f"cannot read {p}: permission denied")
    return p


def _check_dir(path: StrPath) -> Path:
    p = Path(path)
    try:
        mode = p.stat().st_mode
    except FileNotFoundError:
        raise InputError(f"{p}: no such directory") from None
    except OSError as exc:
        raise _unreadable(p, exc) from exc
    if not stat.S_ISDIR(mode):
        raise InputError(f"{p}: is not a directory")
    return p


def _iter_lines(f: LineStream, path: Path) -> Iterator[tuple[int, bytes]]:
    """Yield (1-based line number, raw bytes) split on b"\\n" only, with a leading BOM removed:
    the lines of ``_line_blocks``' blocks (an oversized line is empty: ``f.oversized``).

    Decoding is left to the caller so that one bad byte sequence costs one line.
    """
    for start, data in _line_blocks(f, path):
        yield from enumerate(io.BytesIO(data), start)


def _from_object(
    value: Any, id_field: str | None, file: str, line: int | None, fallback_id: str | None
) -> ReadResult:
    """Turn one parsed JSON value into a record, or a failure if it is not a usable object."""
    if not isinstance(value, dict):
        return ParseFailure(
            file, line, f"expected a JSON object, found {json_type(value)}", fallback_id
        )
    rid, error = _extract_id(value, id_field)
    if error is not None:
        return ParseFailure(file, line, error, fallback_id)
    return SourceRecord(rid if rid is not None else fallback_id, value, file, line)


_NEW = object.__new__
#: the slots' own setters (``SourceRecord`` is a frozen dataclass with slots)
_SET_ID, _SET_RECORD, _SET_FILE, _SET_LINE = (
    vars(SourceRecord)[name].__set__ for name in ("id", "record", "file", "line")
)


def _new_record(rid: str, record: dict[str, Any], file: str, line: int) -> SourceRecord:
    """``SourceRecord(rid, record, file, line)`` with its slots set directly, as the frozen
    ``__init__`` sets them but without the class call and ``object.__setattr__`` per field
    (a third of the cost of a record of a large JSONL file)."""
    res: SourceRecord = _NEW(SourceRecord)
    _SET_ID(res, rid)
    _SET_RECORD(res, record)
    _SET_FILE(res, file)
    _SET_LINE(res, line)
    return res


# --------------------------------------------------------------------------- JSONL


def read_jsonl(path: StrPath, *, id_field: str | None = "id") -> Iterator[ReadResult]:
    """Read one JSON object per line; blank lines are skipped, every other bad line is a failure.

    The id is `str(record[id_field])` for a string or integer, None when the field is missing.
    """
    p = _check_file(path)
    return with_paths(_jsonl(p, str(p), id_field), id_field)


def _jsonl(p: Path, file: str, id_field: str | None) -> Iterator[ReadResult]:
    # every line is parsed on its own, so each record would get its own copy of the same field
    # names; sharing them saves about a fifth of the memory of a million small records
    names: dict[str, str] = {}
    with _open_lines(p) as f:
        for start, data in _line_blocks(f, p):
            values = _flat_objects(data)
            if values is not None:  # one parse for the block: the same values, line by line
                for lineno, value in enumerate(values, start):
                    # an object with a string id is ``_from_object``'s record, made without it
                    rid = value.get(id_field) if id_field is not None else None
                    if type(rid) is str:
                        yield _new_record(rid, value, file, lineno)
                    else:
                        yield _from_object(value, id_field, file, lineno, None)
                # freed before the next block is parsed, which then reuses this block's memory
                # (kept, the heap grows by a block's objects and what is kept from it is spread
                # over twice the memory: the pairing after it ran measurably slower)
                del values
                continue
            for lineno, raw in enumerate(io.BytesIO(data), start):  # lines with their b"\n"
                res = _jsonl_line(raw, lineno, file, id_field, names, f.oversized)
                if res is not None:
                    yield res


def _jsonl_line(
    raw: bytes,
    lineno: int,
    file: str,
    id_field: str | None,
    names: dict[str, str],
    oversized: dict[int, Oversized],
) -> ReadResult | None:
    """One JSONL line parsed on its own (None for a blank line; a failure for a line the
    record limit replaced by a blank one)."""
    if not raw.strip(_JSON_WHITESPACE):
        over = oversized.get(lineno)
        if over is None:
            return None
        return ParseFailure(file, lineno, over.reason, _id_in_head(over.head, id_field))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return ParseFailure(file, lineno, _utf8_reason(exc))
    value, error = _loads(text)
    if error is not None:
        if lineno == 1:
            error += _not_json_hint(text)
        return ParseFailure(file, lineno, error, _id_of_refused(text, id_field))
    if isinstance(value, dict) and len(names) < _MAX_SHARED_NAMES:
        value = {names.setdefault(k, k): v for k, v in value.items()}
    return _from_object(value, id_field, file, lineno, None)


def _not_json_hint(first_line: str) -> str:
    """What a first line that is not JSON looks like, when it looks like a CSV or TSV header
    (a JSONL name on a table is a common slip): a hint after the JSON error."""
    text = first_line.strip()
    if text[:1] in ("{", "[", '"') or not text:
        return ""
    for sep, kind, suffix in (("\t", "TSV", ".tsv"), (",", "CSV", ".csv")):
        if sep in text:
            header = text if len(text) <= 60 else text[:59] + "…"
            return (
                f" (the file looks like {kind} text, header {header!r}: name it {suffix}, or "
                "write one JSON object a line)"
            )
    return " (a JSONL file holds one JSON object a line)"


#: a JSON object's members before ``"<id field>":``, when all are scalars (no nested value
#: could hold the key)
_SCALAR = r'(?:"(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null)'
_MEMBER = r'\s*"(?:[^"\\]|\\.)*"\s*:\s*' + _SCALAR + r"\s*,"


def _id_in_head(head: bytes, id_field: str | None) -> str | None:
    """The id of an oversized JSONL line from its first bytes, when ``id_field`` is a member
    of its top-level object that only scalar members precede (else None: the failure is
    listed by its line, and its item counts as missing)."""
    if id_field is None:
        return None
    key = re.escape(json.dumps(id_field))
    m = re.match(
        r"\s*\{(?:" + _MEMBER + r")*?\s*" + key + r'\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*[,}]',
        head.decode("utf-8", errors="ignore"),
    )
    if m is None:
        return None
    value = json.loads(m[1])
    return value if isinstance(value, str) else str(value)


#: bytes of whole lines read and parsed at a time (``_line_blocks``): ~3,000 classification
#: records, whose parsed objects (~1 MiB) are alive at once; 1 MiB blocks held ~7 MiB and
#: grew the peak by ~10 MiB at 10⁵ items with no faster read
_BLOCK_BYTES = 1 << 17


def _open_lines(path: Path) -> LineStream:
    """``open_lines`` (gzip, UTF-16/32 by BOM: UTF-8 bytes out; lines bounded by the record
    limit, ``assay._io.decoding``), an unreadable file an InputError naming it."""
    try:
        return open_lines(path)
    except OSError as exc:
        raise _unreadable(path, exc) from exc


def _line_blocks(f: LineStream, path: Path) -> Iterator[tuple[int, bytes]]:
    """(number of its first line, bytes) of blocks of whole lines (split on b"\\n" only), about
    ``_BLOCK_BYTES`` each, a leading BOM removed; the one reader of a file's lines. A line
    beyond the record limit is an empty line here (``f.oversized`` says which)."""
    lineno = 1
    while True:
        try:
            data = f.read(_BLOCK_BYTES)
            if data and not data.endswith(b"\n"):
                data += f.readline()  # at most the record limit: ``open_lines``
        except OSError as exc:
            raise _unreadable(path, exc) from exc
        if lineno == 1 and data.startswith(_BOM):
            data = data[len(_BOM) :]
        if not data:
            return
        yield lineno, data
        lineno += data.count(b"\n")


def _flat_objects(data: bytes) -> list[dict[str, Any]] | None:
    """The objects of a block of JSONL lines parsed in one ``json`` call, when that provably
    gives, line by line, what ``_loads`` gives each line alone; else None (the block is then
    read line by line, with its failures).

    The block must decode as UTF-8, hold no bracket and exactly one ``{`` per line, each line
    starting with it (so no blank line, no leading space), and parse strictly as the array
    ``[line1\n,line2\n,…]`` into one object per line. Then each line is exactly one
    element: no string spans a line (a raw newline is not allowed in one), and a separator's
    comma inside an object would have to be followed by a key, not by the next line's ``{``;
    so every separator is at the top level, and as many elements as lines means no line holds
    two. The objects are flat (one ``{`` each), so no depth limit applies, and no string is
    longer than the block (at most ``MAX_VALUE_CHARS``). The keys come out shared (json's
    memo over one call).
    """
    if len(data) > MAX_VALUE_CHARS or b"[" in data or b"]" in data:
        return None  # (a bracket, by memchr: nested records are known not flat undecoded)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    body = text[:-1] if text.endswith("\n") else text
    n = body.count("\n") + 1
    if not body.startswith("{") or body.count("\n{") != n - 1 or body.count("{") != n:
        return None
    try:
        values = _STRICT_DECODE("[" + body.replace("\n", "\n,") + "\n]")
    except (ValueError, RecursionError):  # JSONDecodeError, StrictJSONError, int digits
        return None
    if type(values) is not list or len(values) != n:
        return None
    for value in values:
        if type(value) is not dict:
            return None
    return values


# --------------------------------------------------------------------------- JSON directory


def read_json_dir(
    path: StrPath,
    *,
    id_field: str | None = "id",
    pattern: str = "*.json",
    recursive: bool = False,
    exclude: Collection[str] = (),
) -> Iterator[ReadResult]:
    """Read one JSON object per file of a directory, in file-name order (`line` is None).

    The id comes from `id_field`, else the file stem; a failure carries the stem as its id.
    Files whose name is in `exclude` (e.g. "run_info.json") are skipped; nothing else is.
    With `recursive`, files are found at any depth and ordered by their relative path.
    """
    root = _check_dir(path)
    try:
        found = root.rglob(pattern) if recursive else root.glob(pattern)
        files = sorted(
            # a symlink that cannot be followed (a loop, a dangling target) is kept: reading it
            # fails, and that is a listed failure of its id, not a silent missing item
            (f for f in found if f.name not in exclude and (f.is_file() or f.is_symlink())),
            key=lambda f: f.relative_to(root).parts,
        )
    except OSError as exc:
        raise _unreadable(root, exc) from exc
    return with_paths(_json_dir(files, id_field), id_field)


def _json_dir(files: list[Path], id_field: str | None) -> Iterator[ReadResult]:
    for f in files:
        file, stem = str(f), f.stem
        try:
            data = read_bytes(f, limit=record_limit())  # one file, one record
        except OSError as exc:
            yield ParseFailure(file, None, f"cannot read: {exc.strerror or exc}", stem)
            continue
        except InputError as exc:
            yield ParseFailure(file, None, str(exc).removeprefix(f"{file}: "), stem)
            continue
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            yield ParseFailure(file, None, _utf8_reason(exc), stem)
            continue
        if not text.strip():
            yield ParseFailure(file, None, "empty file", stem)
            continue
        value, error = _loads(text)
        if error is not None:
            yield ParseFailure(file, None, error, stem)
            continue
        yield _from_object(value, id_field, file, None, stem)


#: file names a folder's JSONL shards have (gzip read transparently)
_SHARDS = (".jsonl", ".ndjson", ".jsonl.gz", ".ndjson.gz")


def read_folder(path: StrPath, *, id_field: str | None = "id") -> Iterator[ReadResult]:
    """Read a folder of records: each ``*.json`` file one record (`read_json_dir`), each
    ``*.jsonl``/``*.ndjson`` file (``.gz`` too) a shard of JSONL records (`read_jsonl`), in
    file-name order. A folder holding neither is an InputError that says what it holds."""
    root = _check_dir(path)
    try:
        names = sorted(f.name for f in root.iterdir())
    except OSError as exc:
        raise _unreadable(root, exc) from exc
    shards = [root / n for n in names if n.lower().endswith(_SHARDS)]
    if not shards:
        if not any(n.lower().endswith(".json") for n in names):
            raise InputError(_no_records_in(root, names))
        return read_json_dir(root, id_field=id_field)
    singles = (
        read_json_dir(root, id_field=id_field)
        if any(n.lower().endswith(".json") for n in names)
        else iter(())
    )
    return _chain(singles, *(read_jsonl(s, id_field=id_field) for s in shards))


def _chain(*parts: Iterator[ReadResult]) -> Iterator[ReadResult]:
    for part in parts:
        yield from part


def _no_records_in(root: Path, names: list[str]) -> str:
    """Why a folder gave no records: what it holds instead."""
    visible = [n for n in names if not n.startswith(".")]
    if not visible:
        return f"{root}: an empty folder (expected *.json files, one record each, or *.jsonl files)"
    shown = ", ".join(visible[:5]) + (f", … ({len(visible)} in all)" if len(visible) > 5 else "")
    return (
        f"{root}: a folder without *.json or *.jsonl files (it holds {shown}); expected *.json "
        "files, one record each, or *.jsonl files of records"
    )


# --------------------------------------------------------------------------- CSV / TSV


def read_csv(
    path: StrPath, *, id_field: str | None = "id", delimiter: str | None = None
) -> Iterator[ReadResult]:
    """Read a CSV (or, by a .tsv suffix or `delimiter`, TSV) file with a header row.

    Values stay strings; `line` is the row's first physical line (header = line 1); blank lines
    are skipped; a UTF-8 BOM is removed. A row with the wrong number of fields, malformed
    quoting, or invalid UTF-8 in it, is a failure of that row alone. Invalid UTF-8 in the
    header, or a duplicated column name, makes the whole file one failure at the header line,
    since no row can be keyed.
    """
    p = _check_file(path)
    if delimiter is None:
        name = p.name.lower().removesuffix(".gz")
        delimiter = "\t" if name.endswith(".tsv") else ","
    return with_paths(_csv(p, str(p), id_field, delimiter), id_field)


def _valid_utf8(value: str) -> bool:
    # Invalid bytes were decoded with surrogateescape, so they show up as lone surrogates.
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _csv(p: Path, file: str, id_field: str | None, delimiter: str) -> Iterator[ReadResult]:
    raw = _open_lines(p)
    oversized = raw.oversized
    with io.TextIOWrapper(raw, encoding="utf-8-sig", errors="surrogateescape", newline="") as f:
        reader = csv.reader(f, delimiter=delimiter, strict=True)
        header: list[str] | None = None
        end = 0  # last physical line consumed so far
        while True:
            start = end + 1
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                end = reader.line_num
                yield ParseFailure(file, start, f"malformed CSV: {exc}")
                if header is None:
                    return
                continue
            except OSError as exc:
                raise _unreadable(p, exc) from exc
            end = reader.line_num
            if oversized:  # a line beyond the record limit, read as an empty one
                over = next(
                    ((n, oversized[n]) for n in range(start, end + 1) if n in oversized), None
                )
                if over is not None:
                    yield ParseFailure(file, over[0], over[1].reason)
                    if header is None:
                        return
                    continue
            if not row:
                continue
            if header is None:
                problem = _header_problem(row)
                if problem is not None:
                    yield ParseFailure(file, start, problem)
                    return
                header = row
                continue
            if len(row) != len(header):
                yield ParseFailure(file, start, f"expected {len(header)} fields, found {len(row)}")
                continue
            bad = next(
                (name for name, v in zip(header, row, strict=True) if not _valid_utf8(v)), None
            )
            if bad is not None:
                yield ParseFailure(file, start, f"invalid UTF-8 in field {bad!r}")
                continue
            record = dict(zip(header, row, strict=True))
            rid = record.get(id_field) if id_field is not None else None
            yield SourceRecord(rid, record, file, start)


def _header_problem(header: list[str]) -> str | None:
    if not all(_valid_utf8(name) for name in header):
        return "invalid UTF-8 in the header row; no row can be read"
    seen: set[str] = set()
    for name in header:
        if name in seen:
            return f"duplicate column {name!r} in the header row; no row can be read"
        seen.add(name)
    return None


# --------------------------------------------------------------------------- text lines


def read_text_lines(path: StrPath) -> Iterator[ReadResult]:
    """Read one segment per line (sacrebleu style): id is the 1-based line number as a string.

    record = {"text": line} without its "\\n" or "\\r\\n"; empty lines are records (an empty
    segment is data). A line that is not valid UTF-8 is a failure carrying that id.
    """
    p = _check_file(path)
    return _text_lines(p, str(p))


def _text_lines(p: Path, file: str) -> Iterator[ReadResult]:
    with _open_lines(p) as f:
        yield from _text_records(f, p, file)


def _text_records(f: LineStream, p: Path, file: str) -> Iterator[ReadResult]:
    oversized = f.oversized
    for lineno, raw in _iter_lines(f, p):
        if oversized and lineno in oversized:
            yield ParseFailure(file, lineno, oversized[lineno].reason, str(lineno))
            continue
        if raw.endswith(b"\n"):
            raw = raw[:-1]
            if raw.endswith(b"\r"):
                raw = raw[:-1]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield ParseFailure(file, lineno, _utf8_reason(exc), str(lineno))
            continue
        if len(text) > MAX_VALUE_CHARS:
            reason = f"a line of {len(text):,} characters, beyond the limit of {MAX_VALUE_CHARS:,}"
            yield ParseFailure(file, lineno, reason, str(lineno))
            continue
        yield SourceRecord(str(lineno), {"text": text}, file, lineno)


# --------------------------------------------------------------------------- single JSON file


def _read_json_file(path: StrPath, id_field: str | None) -> Iterator[ReadResult]:
    """Read a JSON list of objects, or an object holding one under entries/items/records/data.

    The file is one document, so if it cannot be parsed as a whole that is an `InputError`;
    an element that is not an object is a failure. `line` is the 1-based element position.
    """
    p = _check_file(path)
    try:
        data = read_bytes(p)
    except OSError as exc:
        raise _unreadable(p, exc) from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{p}: {_utf8_reason(exc)}") from None
    if not text.strip():
        return iter(())
    try:
        value = loads_marked(text)  # each element is checked on its own, in _element
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{p}: invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except (StrictJSONError, ValueError) as exc:
        raise InputError(f"{p}: invalid JSON: {exc}") from None
    if isinstance(value, dict):
        items = next((value[k] for k in _LIST_KEYS if isinstance(value.get(k), list)), None)
    else:
        items = value
    if not isinstance(items, list):
        keys = ", ".join(repr(k) for k in _LIST_KEYS)
        raise InputError(
            f"{p}: expected a JSON list of objects or an object with a list under {keys}"
        )
    file = str(p)
    return with_paths(
        (_element(v, id_field, file, i) for i, v in enumerate(items, start=1)), id_field
    )


def _element(value: Any, id_field: str | None, file: str, position: int) -> ReadResult:
    """One element of a JSON list file, refused on its own when not strict JSON."""
    try:
        check_value(value)
    except StrictJSONError as exc:
        rid = value.get(id_field) if isinstance(value, dict) and id_field else None
        fallback = str(rid) if isinstance(rid, str | int) and not isinstance(rid, bool) else None
        return ParseFailure(file, position, f"invalid JSON: {exc}", fallback)
    return _from_object(value, id_field, file, position, None)


# --------------------------------------------------------------------------- dispatch


def read_records(
    path: StrPath, *, id_field: str | None = "id", format: RecordFormat = "auto"
) -> Iterator[ReadResult]:
    """Read records in the given format; "auto" picks by directory or suffix.

    auto: a directory -> json_dir (`read_folder`: *.json files and *.jsonl shards);
    .jsonl/.ndjson -> jsonl; .json -> one JSON document (see `_read_json_file`); .csv/.tsv ->
    csv; anything else -> text (which ignores `id_field`).
    """
    if format == "auto":
        p = Path(path)
        if p.is_dir():
            format = "json_dir"
        else:
            # x.jsonl.gz reads as x.jsonl: gzip is read transparently (assay._io.decoding)
            suffix = p.suffix.lower()
            if suffix == ".gz":
                suffix = Path(p.stem).suffix.lower()
            if suffix in (".jsonl", ".ndjson"):
                format = "jsonl"
            elif suffix == ".json":
                format = "json"
            elif suffix in (".csv", ".tsv"):
                return read_csv(path, id_field=id_field)
            else:
                format = "text"
    if format == "jsonl":
        return read_jsonl(path, id_field=id_field)
    if format == "json":
        return _read_json_file(path, id_field)
    if format == "json_dir":
        return read_folder(path, id_field=id_field)
    if format == "csv":
        return read_csv(path, id_field=id_field, delimiter=",")
    if format == "tsv":
        return read_csv(path, id_field=id_field, delimiter="\t")
    if format == "text":
        return read_text_lines(path)
    raise UsageError(f"unknown record format {format!r}")
