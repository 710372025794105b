"""Bridges: the per-item scores that Inspect, lm-evaluation-harness and promptfoo already
computed, read from their own result files.

:func:`read_bridge` reads a file (or an lm-eval model folder) into :class:`BridgeRun` s, one per
system; :func:`detect_source` tells which tool wrote a file by its content. The ``scores`` suite
(``assay.suites.scores``) turns a run into assay's statistics; each tool's module documents its
layout and where each field comes from.
"""

from __future__ import annotations

from pathlib import Path

from assay._io.bridges.detect import detect_source
from assay._io.bridges.model import (
    SOURCES,
    BridgeItem,
    BridgeOptions,
    BridgeRun,
    BridgeSample,
    OwnMetric,
    Source,
    source_label,
)
from assay.errors import InputError, UsageError

__all__ = [
    "SOURCES",
    "BridgeItem",
    "BridgeOptions",
    "BridgeRun",
    "BridgeSample",
    "OwnMetric",
    "Source",
    "detect_source",
    "read_bridge",
    "source_label",
]


def read_bridge(path: Path, source: str | None, opts: BridgeOptions) -> list[BridgeRun]:
    """The runs in ``path``, written by ``source`` (or the tool its content shows).

    Refused by name: a path of no known tool when ``source`` is None, a ``source`` the content
    contradicts, an unknown ``source``, and a run whose file carries no score at all.
    """
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file or directory")
    if source is not None and source not in SOURCES:
        raise UsageError(f"--from {source!r}: not one of {', '.join(SOURCES)}")
    found = detect_source(path)
    if source is None:
        if found is None:
            raise InputError(
                f"{path}: not a result file of Inspect, lm-evaluation-harness or promptfoo that "
                "assay recognizes; name its tool with --from inspect|lm-eval|promptfoo"
            )
        source = found
    elif found is not None and found != source:
        raise UsageError(
            f"{path}: written by {source_label(found)}, not {source_label(source)}: "
            f"pass --from {found}"
        )
    runs = _read(path, source, opts)
    for run in runs:
        if not run.scores:
            raise InputError(
                f"{path}: {source_label(source)} {run.system}: no scores in it (its samples carry "
                "no scorer's value; an unscored log is scored by its tool first, e.g. "
                "`inspect score`)"
            )
    return runs


def _read(path: Path, source: str, opts: BridgeOptions) -> list[BridgeRun]:
    if source == "inspect":
        from assay._io.bridges.inspect_log import read_inspect

        if path.is_dir():
            raise InputError(f"{path}: a folder; give one Inspect log (.eval or .json)")
        return [read_inspect(path, opts)]
    if source == "lm-eval":
        from assay._io.bridges.lm_eval import read_lm_eval

        return [read_lm_eval(path, opts)]
    from assay._io.bridges.promptfoo import read_promptfoo

    if path.is_dir():
        raise InputError(f"{path}: a folder; give one promptfoo output (results.json or .jsonl)")
    return read_promptfoo(path, opts)
