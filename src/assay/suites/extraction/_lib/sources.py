"""Reading what the extraction suite needs besides predictions and gold: source documents, the
JSON Schema and the master-labels CSV of normalized answers (seed 000 §4 "Parse sources")."""

from __future__ import annotations

import csv
import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from assay._engine.provenance import DeferredText
from assay._io.decoding import read_bytes
from assay._io.paths import confined, unsafe_name
from assay._io.strict import loads_lenient
from assay.errors import ConfigError, InputError, RunInputError

SOURCE_SUFFIXES = (".txt", ".md", ".text")


def document_key(name: str) -> str:
    """A file name or id reduced for joining: extension dropped, lowercase, alphanumerics only.

    "ACME_2020-EX-10.1.PDF" and "acme_2020-ex-10.1" both become "acme2020ex101".
    """
    stem = re.sub(r"\.(pdf|txt|json|md|htm|html)$", "", name.strip(), flags=re.IGNORECASE)
    return re.sub(r"[^0-9a-z]+", "", stem.lower())


def read_source(directory: Path, doc_id: str) -> str | None:
    """The text of ``<directory>/<doc_id>.txt`` (or .md, .text); None when there is none."""
    found = source_file(directory, doc_id)
    return None if found is None else found.text()


def source_file(directory: Path, doc_id: str) -> SourceText | None:
    """The document of ``doc_id`` in ``directory`` (``<doc_id>.txt``, or .md, .text), to be
    read when needed (``SourceText``); None when there is none.

    The id must stay inside the folder (``confined``): a plain file name that is not a
    symbolic link is inside it by construction, so one ``lstat`` per candidate decides, and
    only a link takes the full check (its target resolved). Paths are plain strings here (a
    ``Path`` per candidate cost more than reading the file).
    """
    folder = os.fspath(directory)
    for suffix in SOURCE_SUFFIXES:
        name = f"{doc_id}{suffix}"
        if unsafe_name(name) is not None:
            confined(directory, name, what="document id")  # refuses, naming why
        path = os.path.join(folder, name)
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            continue
        if stat.S_ISLNK(mode):
            path = os.fspath(confined(directory, name, what="document id"))
            if not os.path.isfile(path):
                continue
        elif not stat.S_ISREG(mode):
            continue
        return SourceText(path)
    return None


class SourceReadError(RunInputError):
    """A source document that cannot be read (not UTF-8, unreadable). It stops the run when a
    block meets it while being scored (a ``RunInputError``) rather than failing that item: the
    source folder is an input of the whole run, as when every document was read before
    scoring."""


class SourceText(DeferredText):
    """A source document read on first use and kept until its item goes (the in-memory
    engine releases each block once scored), so that the documents of a run are not all
    resident at once. Pickled (process pools, Dask, the out-of-core spill) as the plain
    string."""

    __slots__ = ("_ascii", "_text", "path")

    def __init__(self, path: str) -> None:
        self.path = path
        self._text: str | None = None
        self._ascii: bytes | None = None

    def text(self) -> str:
        if self._text is None:
            try:
                with open(self.path, "rb", buffering=0) as handle:
                    data = _universal_newlines(handle.readall())
                self._text = data.decode("utf-8")
                if self._text.isascii():  # a flag of the string: no scan
                    self._ascii = data
            except UnicodeDecodeError as err:
                raise SourceReadError(
                    f"{self.path}: source document is not UTF-8 ({err.reason})"
                ) from None
            except OSError as err:
                raise SourceReadError(f"{self.path}: cannot read source document: {err}") from None
        return self._text

    def ascii_bytes(self) -> bytes | None:
        """The bytes the document was read from, when they are ASCII (kept beside the text
        while the item lives: the gold digest and the audit's lowercased copy start from
        them instead of encoding the text again)."""
        self.text()
        return self._ascii

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        return str, (self.text(),)

    def __repr__(self) -> str:
        return f"SourceText({self.path!r})"


def _universal_newlines(data: bytes) -> bytes:
    """The bytes as ``Path.read_text`` reads them: "\r\n" and a lone "\r" read as "\n" (the
    bytes decoded at once are faster to read than through a text stream). On bytes: in UTF-8
    a byte 0x0D is always the character CR, and the search is a ``memchr``."""
    if b"\r" in data:
        return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return data


def check_source_dir(value: str) -> Path:
    path = Path(value)
    if not path.is_dir():
        raise InputError(f"extraction.source: {path} is not a directory")
    return path


def load_json_schema(value: str | Mapping[str, Any]) -> dict[str, Any]:
    """The schema mapping itself, or the file it names (an error names the key and file)."""
    if isinstance(value, Mapping):
        return dict(value)
    path = Path(value)
    try:
        data = loads_lenient(read_bytes(path))
    except FileNotFoundError:
        raise ConfigError(f"extraction.json_schema: {path}: file not found") from None
    except (OSError, ValueError) as err:  # unreadable, not UTF-8, not JSON, beyond the limits
        raise ConfigError(f"extraction.json_schema: {path}: {err}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"extraction.json_schema: {path}: a schema must be a JSON object")
    import jsonschema

    try:
        jsonschema.validators.validator_for(data).check_schema(data)
    except jsonschema.SchemaError as err:
        raise ConfigError(
            f"extraction.json_schema: {path}: invalid schema: {err.message}"
        ) from None
    return data


def load_master_labels(
    path: str, key_column: str, columns: Mapping[str, str]
) -> dict[str, dict[str, str]]:
    """document_key → {field: normalized answer} from a master-labels CSV (CUAD's layout)."""
    p = Path(path)
    try:
        handle = p.open(encoding="utf-8-sig", newline="")
    except OSError as err:
        raise ConfigError(f"extraction.master_labels: {p}: {err}") from None
    with handle:
        reader = csv.DictReader(handle)
        header = reader.fieldnames or []
        wanted = [key_column, *columns.values()]
        missing = [c for c in wanted if c not in header]
        if missing:
            raise ConfigError(
                f"extraction.master_labels: {p}: no column(s) {missing} "
                f"(the file has {len(header)} columns)"
            )
        out: dict[str, dict[str, str]] = {}
        for row in reader:
            values = {f: row[c] for f, c in columns.items() if row.get(c)}
            out[document_key(row[key_column] or "")] = values
    return out
