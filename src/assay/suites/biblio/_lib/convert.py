"""Convert a directory of XML files to one export JSON a paper, recording every failure.

A file that cannot be read or converted becomes a failure record and the run goes on. The
output directory holds ``<paper id>.json`` for each converted paper, ``failures.jsonl`` (one
line a failure, never a ``*.json`` the evaluator would read) and ``run_info.json`` (what was
converted, by which converter; the evaluator never scores it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from assay._io.xml import XmlError
from assay.suites.biblio._lib.export import paper_id

__all__ = ["ConversionFailure", "ConversionReport", "convert_dir", "find_files"]

Converter = Callable[[bytes], dict[str, Any]]
#: rewrites a converted export before it is written: (export, paper id, source file, bytes)
Finisher = Callable[[dict[str, Any], str, Path, bytes], dict[str, Any]]


@dataclass(frozen=True)
class ConversionFailure:
    """A file that did not convert: its paper id, path and the reason."""

    id: str
    file: str
    reason: str


@dataclass(frozen=True)
class ConversionReport:
    """What a conversion run wrote."""

    converted: tuple[str, ...]
    failures: tuple[ConversionFailure, ...]
    out_dir: Path
    info: dict[str, Any] = field(default_factory=dict)


def find_files(root: Path, patterns: Sequence[str]) -> list[Path]:
    """Files under ``root`` (any depth) matching any of ``patterns``, sorted by relative path."""
    if not root.is_dir():
        from assay.errors import InputError

        raise InputError(f"{root}: no such directory")
    found = {p for pattern in patterns for p in root.rglob(pattern) if p.is_file()}
    return sorted(found, key=lambda p: p.relative_to(root).parts)


def convert_dir(
    in_dir: Path,
    out_dir: Path,
    convert: Converter,
    *,
    patterns: Sequence[str],
    converter: str,
    producer: str | None,
    progress: Callable[[int, int], None] | None = None,
    finish: Finisher | None = None,
    output_format: str = "assay-11",
) -> ConversionReport:
    """Convert every matching file of ``in_dir`` into ``out_dir`` (see the module docstring).

    ``finish`` rewrites each export before it is written (``bibr_writer.to_bibr12`` for
    ``--format bibr-12``); ``output_format`` names the shape in ``run_info.json``."""
    files = find_files(in_dir, patterns)
    out_dir.mkdir(parents=True, exist_ok=True)
    converted: list[str] = []
    failures: list[ConversionFailure] = []
    seen: dict[str, str] = {}
    for n, path in enumerate(files, start=1):
        pid = paper_id(path.name)
        try:
            if pid in seen:
                raise XmlError(f"duplicate paper id {pid!r} (first from {seen[pid]})")
            data = path.read_bytes()
            export = convert(data)
            if finish is not None:
                export = finish(export, pid, path, data)
        except (XmlError, OSError) as err:
            failures.append(ConversionFailure(pid, str(path), str(err)))
        except Exception as err:  # a converter bug on one odd file must not stop the run
            failures.append(ConversionFailure(pid, str(path), f"{type(err).__name__}: {err}"))
        else:
            seen[pid] = str(path)
            text = json.dumps(export, indent=2, ensure_ascii=False) + "\n"
            (out_dir / f"{pid}.json").write_text(text, encoding="utf-8")
            converted.append(pid)
        if progress:
            progress(n, len(files))
    lines = [json.dumps(f.__dict__, ensure_ascii=False) for f in failures]
    (out_dir / "failures.jsonl").write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    info = {
        "converter": converter,
        "producer": producer,
        "format": output_format,
        "source_dir": str(in_dir),
        "patterns": list(patterns),
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "n_files": len(files),
        "converted": len(converted),
        "failed": len(failures),
        "failures": [f.__dict__ for f in failures],
    }
    (out_dir / "run_info.json").write_text(
        json.dumps(info, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return ConversionReport(tuple(converted), tuple(failures), out_dir, info)
