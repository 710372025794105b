"""Reading claims: claim-tree directories (markdown with YAML front matter), JSON and JSONL.

Accepted layouts, for reference and extracted claims alike:

- a claim tree: a directory of paper directories, each holding ``index.md`` (paper metadata:
  ``doi``, ``title``) and one ``<slug>.md`` a claim;
- one paper directory (it holds ``.md`` files itself);
- a JSON file (a paper object ``{"paper", "doi", "claims": [...]}``, a list of them, or
  ``{"papers": [...]}``), a JSONL file (one paper object or one claim with a ``paper`` field a
  line) or a directory of such files.

Each paper becomes one record. In a paper directory, a claim file that cannot be read (bad
YAML, no claim sentence, any error of the YAML loader) is a listed failure of that file
(``file_failures`` of the record: file and reason) and the paper is read from the rest, as the
seed's harness does; a paper with no readable claim file, a duplicate slug, or a JSON paper
object with a bad claim becomes a ParseFailure naming the file and the field — a counted failure
of that paper, never a silent skip.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import yaml

from assay._io.decoding import read_bytes
from assay._io.limits import record_limit
from assay._io.records import ParseFailure, ReadResult, SourceRecord
from assay._io.safe_yaml import safe_yaml_load
from assay._io.strict import StrictJSONError
from assay._io.strict import loads as strict_loads
from assay.errors import InputError
from assay.suites.claims._lib.model import Claim, Paper

#: markdown files in a paper directory that are not claims
NON_CLAIM_FILES = frozenset({"index.md", "readme.md"})
PAPER_FIELDS = ("paper", "paper-slug", "paper_slug", "id")
TEXT_FIELDS = ("claim", "text")


def _safe_load(text: str) -> Any:
    return safe_yaml_load(text)  # alias, node and depth budgets (assay._io.safe_yaml)


class ClaimFormatError(ValueError):
    """One claim or paper that cannot be read; the message names the field."""


_EMPTY_FLOW = re.compile(r"^(\[\]|\{\})\s*$")
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+:\s*$")


def _repair_empty_flow(lines: list[str]) -> list[str]:
    """Join ``key:`` + a line holding only ``[]`` or ``{}`` into ``key: []``.

    The public claim trees hold front matter like ``belongings:\\n[]``, which YAML rejects; this
    one repair is applied only when the strict parse fails, and is reported.
    """
    out: list[str] = []
    for line in lines:
        if out and _EMPTY_FLOW.match(line) and _BARE_KEY.match(out[-1]):
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    return out


def _universal(text: str) -> str:
    """Newlines as ``Path.read_text`` reads them ("\\r\\n" and a lone "\\r" as "\\n")."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def read_front_matter(path: Path, repairs: list[str] | None = None) -> dict[str, Any]:
    """The YAML mapping between the leading ``---`` lines of a markdown file.

    A repair made to parse it (see :func:`_repair_empty_flow`) is appended to ``repairs``.
    """
    try:  # one file, one record: at most the record limit (assay._io.limits)
        text = _universal(read_bytes(path, limit=record_limit()).decode("utf-8"))
    except UnicodeDecodeError as err:
        raise ClaimFormatError(f"not UTF-8 ({err.reason} at byte {err.start})") from None
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise ClaimFormatError("no YAML front matter (the file must start with '---')")
    try:
        end = next(i for i, line in enumerate(lines[1:], 1) if line.strip() in ("---", "..."))
    except StopIteration:
        raise ClaimFormatError("YAML front matter is not closed by '---'") from None
    body = lines[1:end]
    try:
        data = _safe_load("\n".join(body))
    except yaml.YAMLError as err:
        repaired = _repair_empty_flow(body)
        try:
            data = _safe_load("\n".join(repaired)) if repaired != body else None
        except yaml.YAMLError:
            data = None
        if data is None:
            mark = getattr(err, "problem_mark", None)
            where = f" at line {mark.line + 2}" if mark is not None else ""
            problem = getattr(err, "problem", None) or str(err).splitlines()[0]
            raise ClaimFormatError(f"invalid YAML front matter{where}: {problem}") from None
        if repairs is not None:
            repairs.append(f"{path.name}: an empty list or mapping on the line after its key")
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ClaimFormatError("YAML front matter must be a mapping")
    return data


def _text(value: Any, name: str) -> str | None:
    """A scalar field as clean text (folded YAML keeps a trailing newline), None when empty."""
    if value is None:
        return None
    if isinstance(value, list | dict):
        raise ClaimFormatError(f"field {name!r} must be text, found a {type(value).__name__}")
    text = " ".join(str(value).split())
    return text or None


def _panel(data: Mapping[str, Any], paper: str | None) -> str | None:
    """The claim's panel: top-level ``panel``, else its assertion for this paper, else the first."""
    if data.get("panel") is not None:
        value = data["panel"]
        return (
            ", ".join(str(v) for v in value) if isinstance(value, list) else _text(value, "panel")
        )
    assertions = data.get("assertions")
    if not isinstance(assertions, list):
        return None
    blocks = [a for a in assertions if isinstance(a, Mapping)]
    mine = [a for a in blocks if paper is not None and a.get("paper-slug") == paper]
    for block in mine or blocks:
        if block.get("panel") is not None:
            value = block["panel"]
            if isinstance(value, list):
                return ", ".join(str(v) for v in value)
            return _text(value, "assertions[].panel")
    return None


def claim_from_mapping(data: Mapping[str, Any], *, paper: str | None, default_slug: str) -> Claim:
    """A Claim from front matter or a JSON object: ``slug``, ``claim`` (or ``text``), ``role``,
    ``panel`` (or the assertion's), ``concepts``."""
    slug = _text(data.get("slug"), "slug") or default_slug
    if not slug:
        raise ClaimFormatError("field 'slug' is missing")
    text = next((_text(data.get(k), k) for k in TEXT_FIELDS if data.get(k) is not None), None)
    if text is None:
        raise ClaimFormatError(f"claim {slug!r}: field 'claim' is missing or empty")
    concepts = data.get("concepts") or []
    if not isinstance(concepts, list):
        raise ClaimFormatError(f"claim {slug!r}: field 'concepts' must be a list")
    return Claim(
        slug=slug,
        text=text,
        role=_text(data.get("role"), "role"),
        panel=_panel(data, paper),
        concepts=tuple(str(c) for c in concepts),
    )


def _check_unique(claims: Iterable[tuple[Claim, str]]) -> tuple[Claim, ...]:
    seen: dict[str, str] = {}
    out: list[Claim] = []
    for claim, where in claims:
        if claim.slug in seen:
            raise ClaimFormatError(
                f"duplicate claim slug {claim.slug!r} (in {seen[claim.slug]} and {where})"
            )
        seen[claim.slug] = where
        out.append(claim)
    return tuple(out)


def _reason(err: Exception) -> str:
    """A failure's reason: our own messages as they are, anything else with its type."""
    return str(err) if isinstance(err, ClaimFormatError) else f"{type(err).__name__}: {err}"


def read_paper_dir(directory: Path) -> ReadResult:
    """One paper directory of a claim tree: index.md metadata plus one claim a markdown file;
    unreadable files are listed in ``file_failures`` and the rest is read (module docstring)."""
    paper = directory.name
    index = directory / "index.md"
    meta: dict[str, Any] = {}
    repairs: list[str] = []
    failures: list[dict[str, str]] = []
    try:
        if index.is_file():
            meta = read_front_matter(index, repairs)
    except Exception as err:  # any loader's error: the metadata is lost, the claims are not
        failures.append({"file": str(index), "reason": _reason(err)})
    claims: list[tuple[Claim, str]] = []
    for path in sorted(directory.glob("*.md")):
        if path.name.lower() in NON_CLAIM_FILES:
            continue
        try:
            data = read_front_matter(path, repairs)
            claim = claim_from_mapping(data, paper=paper, default_slug=path.stem)
            claims.append((claim, path.name))
        except Exception as err:  # any loader's error is this file's failure, not the paper's
            failures.append({"file": str(path), "reason": _reason(err)})
    if not claims and failures:
        listed = "; ".join(f"{Path(f['file']).name}: {f['reason']}" for f in failures[:3])
        return ParseFailure(
            str(directory),
            None,
            f"no readable claim file ({len(failures)} failed: {listed})",
            paper,
        )
    try:
        unique = _check_unique(claims)
        record = Paper(
            paper=paper,
            claims=unique,
            doi=_text(meta.get("doi"), "doi"),
            title=_text(meta.get("title"), "title"),
        ).to_record()
    except ClaimFormatError as err:
        return ParseFailure(str(directory), None, str(err), paper)
    if repairs:
        record["repairs"] = repairs
    if failures:
        record["file_failures"] = failures
    return SourceRecord(paper, record, str(directory), None)


def _paper_id(data: Mapping[str, Any]) -> str | None:
    for key in PAPER_FIELDS:
        value = data.get(key)
        if isinstance(value, str | int) and str(value).strip():
            return str(value).strip()
    return None


def _paper_from_object(
    data: Mapping[str, Any], file: str, line: int | None, default_id: str | None
) -> ReadResult:
    paper = _paper_id(data) or default_id
    if paper is None:
        return ParseFailure(file, line, f"paper object has none of the fields {PAPER_FIELDS}")
    raw = data.get("claims")
    if not isinstance(raw, list):
        return ParseFailure(file, line, f"paper {paper!r}: field 'claims' must be a list", paper)
    try:
        items: list[tuple[Claim, str]] = []
        for i, c in enumerate(raw):
            if not isinstance(c, Mapping):
                raise ClaimFormatError(f"claims[{i}] must be an object")
            items.append((claim_from_mapping(c, paper=paper, default_slug=""), f"claims[{i}]"))
        record = Paper(
            paper=paper,
            claims=_check_unique(items),
            doi=_text(data.get("doi"), "doi"),
            title=_text(data.get("title"), "title"),
        ).to_record()
    except ClaimFormatError as err:
        return ParseFailure(file, line, f"paper {paper!r}: {err}", paper)
    return SourceRecord(paper, record, file, line)


def _loads(text: str, file: str, line: int | None) -> Any:
    where = f"{file}:{line}" if line is not None else file
    try:
        return strict_loads(text)
    except json.JSONDecodeError as err:
        raise ClaimFormatError(f"{where}: invalid JSON: {err.msg} at column {err.colno}") from None
    except StrictJSONError as err:
        raise ClaimFormatError(f"{where}: invalid JSON: {err}") from None


def _group_claim_rows(rows: list[tuple[Mapping[str, Any], int]], file: str) -> list[ReadResult]:
    """Flat claim rows (each with a ``paper`` field) grouped into one record a paper."""
    groups: dict[str, list[tuple[Mapping[str, Any], int]]] = defaultdict(list)
    out: list[ReadResult] = []
    for row, line in rows:
        paper = _paper_id(row)
        if paper is None:
            out.append(ParseFailure(file, line, f"claim row has none of the fields {PAPER_FIELDS}"))
            continue
        groups[paper].append((row, line))
    for paper, members in groups.items():
        try:
            claims = _check_unique(
                (claim_from_mapping(r, paper=paper, default_slug=""), f"line {ln}")
                for r, ln in members
            )
        except ClaimFormatError as err:
            out.append(ParseFailure(file, members[0][1], f"paper {paper!r}: {err}", paper))
            continue
        first = members[0][0]
        record = Paper(
            paper=paper,
            claims=claims,
            doi=_text(first.get("doi"), "doi"),
            title=_text(first.get("title"), "title"),
        ).to_record()
        out.append(SourceRecord(paper, record, file, members[0][1]))
    return out


def _is_paper_object(value: Any) -> bool:
    return isinstance(value, Mapping) and "claims" in value


def read_json_papers(path: Path) -> list[ReadResult]:
    """Papers from a .json or .jsonl file (paper objects, or claim rows with a paper field)."""
    file = str(path)
    try:  # at most the document limit (assay._io.limits)
        text = _universal(read_bytes(path).decode("utf-8"))
    except UnicodeDecodeError as err:
        return [ParseFailure(file, None, f"not UTF-8 ({err.reason} at byte {err.start})")]
    except InputError as err:
        return [ParseFailure(file, None, str(err).removeprefix(f"{file}: "))]
    out: list[ReadResult] = []
    claim_rows: list[tuple[Mapping[str, Any], int]] = []
    if path.suffix.lower() == ".jsonl":
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                value = _loads(line, file, n)
            except ClaimFormatError as err:
                out.append(ParseFailure(file, n, str(err).split(": ", 1)[1]))
                continue
            if _is_paper_object(value):
                out.append(_paper_from_object(value, file, n, None))
            elif isinstance(value, Mapping):
                claim_rows.append((value, n))
            else:
                out.append(ParseFailure(file, n, "a line must be a JSON object"))
        return out + _group_claim_rows(claim_rows, file)
    try:
        value = _loads(text, file, None)
    except ClaimFormatError as err:
        return [ParseFailure(file, None, str(err).split(": ", 1)[1])]
    if isinstance(value, Mapping) and isinstance(value.get("papers"), list):
        value = value["papers"]
    if _is_paper_object(value):
        return [_paper_from_object(value, file, None, path.stem)]
    if not isinstance(value, list):
        return [ParseFailure(file, None, "expected a paper object, a list or {'papers': [...]}")]
    for n, entry in enumerate(value, 1):
        if _is_paper_object(entry):
            out.append(_paper_from_object(entry, file, n, None))
        elif isinstance(entry, Mapping):
            claim_rows.append((entry, n))
        else:
            out.append(ParseFailure(file, n, "a list entry must be a JSON object"))
    if claim_rows and not out and all(_paper_id(r) is None for r, _ in claim_rows):
        # a bare list of claims: one paper named by the file
        return [_paper_from_object({"paper": path.stem, "claims": value}, file, None, None)]
    return out + _group_claim_rows(claim_rows, file)


def _visible(path: Path) -> bool:
    return not path.name.startswith(".")


def iter_papers(path: Path) -> Iterator[ReadResult]:
    """Every paper under ``path`` (see the module docstring for the layouts)."""
    if not path.exists():
        raise InputError(f"{path}: no such file or directory")
    if path.is_file():
        if path.suffix.lower() not in (".json", ".jsonl"):
            raise InputError(f"{path}: expected a claim-tree directory, a .json or a .jsonl file")
        yield from read_json_papers(path)
        return
    if any(p.is_file() for p in path.glob("*.md")):
        yield read_paper_dir(path)
        return
    data_files = sorted(
        p for p in path.iterdir() if p.is_file() and p.suffix.lower() in (".json", ".jsonl")
    )
    paper_dirs = sorted(
        p for p in path.iterdir() if p.is_dir() and _visible(p) and any(p.glob("*.md"))
    )
    if not data_files and not paper_dirs:
        raise InputError(
            f"{path}: no claims found (no paper directories with .md files, no .json/.jsonl)"
        )
    for d in paper_dirs:
        yield read_paper_dir(d)
    for f in data_files:
        yield from read_json_papers(f)


def read_papers(path: Path) -> list[ReadResult]:
    """All papers under ``path`` as records (``{"paper", "doi", "title", "claims"}``)."""
    return list(iter_papers(path))
