"""What the embedding rescue rescues, and wrongly rescues, on CUAD's real spans (seed 000 §3).

Built from CUAD's ``master_clauses.csv`` (no prediction needed), four kinds of pairs, each scored
by the string scorer and then with the rescue (max(string, cosine) below
``embedding_rescue_below``), counted at the list match threshold (0.6):

- ``names / same party``: a party's defined alias against its full name, from the normalized
  Parties answer ('I-ESCROW, INC. ("i-Escrow")' → ("i-Escrow", "I-ESCROW, INC.")) — should match;
- ``names / other contract``: an alias against a full name of the next contract — should not;
- ``clause / truncated``: a clause against its first 40% of words (a cut-off extraction) —
  should match;
- ``clause / other contract``: the first clause of a category against the next contract's
  first clause of the same category — different clauses, should not.

``rescued`` = pairs the string score misses (< 0.6) that the rescue lifts to ≥ 0.6; on the
"should not" rows these are wrong rescues.
"""

from __future__ import annotations

import ast
import csv
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from assay._fields import DEFAULT_FIELD_SETTINGS, Embedder, FieldSettings
from assay._fields.embedding import cosine_matrix
from assay._fields.names import name_similarity
from assay._fields.text import token_f1
from assay.errors import InputError

CLAUSE_CATEGORIES = ("License Grant", "Anti-Assignment", "Audit Rights", "Governing Law",
                     "Cap on Liability")  # fmt: skip
_ALIAS = re.compile(r"\s*([^()\"“]+?)[\s,]*\(\s*(?:the\s+)?[\"“]([^\"”]+)[\"”]")


@dataclass(frozen=True)
class StudyRow:
    """One kind of pair: how many, how many the string score misses, how many the rescue lifts."""

    kind: str
    category: str
    should_match: bool
    n_pairs: int
    string_misses: int
    rescued: int

    @property
    def share(self) -> float | None:
        return self.rescued / self.string_misses if self.string_misses else None


def _read(master: Path) -> list[dict[str, str]]:
    try:
        with master.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
    except (OSError, UnicodeDecodeError, csv.Error) as err:
        raise InputError(f"{master}: not a readable CSV ({err})") from err
    need = {"Parties-Answer", *CLAUSE_CATEGORIES}
    if rows and not need <= set(rows[0]):
        missing = ", ".join(sorted(need - set(rows[0])))
        raise InputError(f"{master}: not CUAD's master_clauses.csv (no column {missing})")
    return rows


def _spans(row: dict[str, str], column: str, where: str) -> list[str]:
    value = row[column].strip()
    if not value.startswith("["):
        return []
    try:
        return [str(v) for v in ast.literal_eval(value)]
    except (ValueError, SyntaxError) as err:
        raise InputError(f"{where}: {column}: not a list of spans ({err})") from err


def alias_pairs(rows: Sequence[dict[str, str]]) -> tuple[list[tuple[str, str]], ...]:
    """(alias, full name) pairs of the same party, and of a party and the next contract's."""
    per_doc = [
        [(m[2].strip(), m[1].strip(" ,")) for part in r["Parties-Answer"].split(";")
         if (m := _ALIAS.match(part))]
        for r in rows
    ]  # fmt: skip
    same = [p for doc in per_doc for p in doc]
    other = [
        (a, f)
        for i, doc in enumerate(per_doc)
        for (a, _), (_, f) in zip(doc, per_doc[(i + 1) % len(per_doc)], strict=False)
    ]
    return same, other


def _count(
    pairs: Sequence[tuple[str, str]],
    string: Callable[[str, str], float],
    embedder: Embedder,
    s: FieldSettings,
) -> tuple[int, int]:
    if not pairs:
        return 0, 0
    scores = np.array([string(a, b) for a, b in pairs])
    cos = np.array([cosine_matrix(embedder, [a], [b])[0, 0] for a, b in pairs])
    rescued = np.where(scores < s.embedding_rescue_below, np.maximum(scores, cos), scores)
    t = s.bipartite_match_threshold
    miss = scores < t
    return int(miss.sum()), int((miss & (rescued >= t)).sum())


def rescue_study(
    master: Path, embedder: Embedder, settings: FieldSettings = DEFAULT_FIELD_SETTINGS
) -> list[StudyRow]:
    """The study's rows (see the module docstring), deterministic for a given embedder."""
    rows = _read(master)
    out: list[StudyRow] = []
    same, other = alias_pairs(rows)

    def names(a: str, b: str) -> float:
        return name_similarity(a, b)[0]

    for kind, pairs, should in (("names / same party", same, True),
                                ("names / other contract", other, False)):  # fmt: skip
        misses, rescued = _count(pairs, names, embedder, settings)
        out.append(StudyRow(kind, "Parties", should, len(pairs), misses, rescued))
    for cat in CLAUSE_CATEGORIES:
        firsts = [
            spans[0]
            for i, r in enumerate(rows)
            if (spans := _spans(r, cat, f"{master}: row {i + 2}"))
        ]
        truncated = [(" ".join(c.split()[: max(3, len(c.split()) * 2 // 5)]), c) for c in firsts]
        others = [(firsts[i], firsts[(i + 1) % len(firsts)]) for i in range(len(firsts))]
        for kind, pairs, should in (("clause / truncated", truncated, True),
                                    ("clause / other contract", others, False)):  # fmt: skip
            misses, rescued = _count(pairs, token_f1, embedder, settings)
            out.append(StudyRow(kind, cat, should, len(pairs), misses, rescued))
    return out


def study_json(rows: Sequence[StudyRow]) -> list[dict[str, Any]]:
    return [{**asdict(r), "share": r.share} for r in rows]
