"""Answers to LegalBench's shared test files, for a differential test against its own
``evaluation.py``.

Standard library only, so the same module makes the same answers in assay's environment and in
a scratch environment that runs LegalBench's script (``regen_legalbench``). Gold is each task's
``test.tsv`` in ``../shared/data/legal/legalbench/`` (ids ``<task>-NNN`` in file order). Seven
answer styles, each a kind of model output the official figure must count right:

- ``majority``: the most frequent gold label on every row;
- ``noisy``: right on 70% of the rows, another gold label (drawn uniformly) otherwise;
- ``lower_punct``: ``noisy`` lowercased with a trailing "." or "!" (LegalBench's normalize
  forgives both);
- ``blank10``, ``missing10``, ``error10``: ``noisy`` with 10% of the rows answered "", left out
  of the answer file, or answered "ERROR: rate limited";
- ``answer_prefix``: ``noisy`` as "Answer: X" (LegalBench's normalize keeps "answer x": every
  row a miss; assay's label extraction finds X).

Every draw comes from ``random.Random`` seeded by a CRC-32 of the task and style, so the answers
are the same on every machine and Python version.
"""

from __future__ import annotations

import csv
import random
import zlib
from collections import Counter
from pathlib import Path

STYLES = ("majority", "noisy", "lower_punct", "blank10", "missing10", "error10", "answer_prefix")
#: share of ``noisy`` answers that are right
P_RIGHT = 0.7
Row = dict[str, str]


def tasks(root: Path) -> list[str]:
    """The tasks under ``root`` (folders holding a ``test.tsv``), sorted."""
    return sorted(p.name for p in root.iterdir() if (p / "test.tsv").is_file())


def gold_rows(root: Path, task: str) -> list[Row]:
    """``{"id", "answer"}`` per row of the task's ``test.tsv`` (its ``label`` column)."""
    with (root / task / "test.tsv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return [{"id": f"{task}-{i:03d}", "answer": r["label"]} for i, r in enumerate(rows)]


def _rng(task: str, style: str) -> random.Random:
    return random.Random(zlib.crc32(f"{task}/{style}".encode()))


def _noisy(task: str, gold: list[str]) -> list[str]:
    r = _rng(task, "noisy")
    labels = sorted(set(gold))
    out = []
    for g in gold:
        if r.random() < P_RIGHT:
            out.append(g)
        else:
            out.append(r.choice([label for label in labels if label != g]))
    return out


def _tenth(task: str, style: str, n: int) -> set[int]:
    return set(_rng(task, style).sample(range(n), round(0.1 * n)))


def answers(task: str, style: str, gold: list[str]) -> list[str | None]:
    """One answer per gold row in ``style`` (None: the row has no answer record at all)."""
    base = _noisy(task, gold)
    n = len(gold)
    if style == "majority":
        top = max(sorted(set(gold)), key=Counter(gold).__getitem__)
        return [top] * n
    if style == "noisy":
        return list(base)
    if style == "lower_punct":
        return [a.lower() + ("." if i % 2 else "!") for i, a in enumerate(base)]
    if style == "answer_prefix":
        return [f"Answer: {a}" for a in base]
    replace = {"blank10": "", "missing10": None, "error10": "ERROR: rate limited"}
    if style in replace:
        hit = _tenth(task, style, n)
        return [replace[style] if i in hit else a for i, a in enumerate(base)]
    raise ValueError(f"unknown answer style {style!r}; known: {', '.join(STYLES)}")


def answer_rows(gold: list[Row], task: str, style: str) -> list[dict[str, str]]:
    """``{"id", "predicted"}`` per answered row (a ``missing10`` row has none)."""
    said = answers(task, style, [g["answer"] for g in gold])
    return [
        {"id": g["id"], "predicted": a} for g, a in zip(gold, said, strict=True) if a is not None
    ]
