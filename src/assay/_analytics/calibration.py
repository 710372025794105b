"""Judge calibration (seed 000 §11): how an LLM judge's verdicts line up with the
deterministic score on the ambiguous-band rows it reviewed.

Over the scored rows (verdict accurate or inaccurate):

* agree_rate    = #(det ≥ strong ∧ accurate) + #(det ≤ weak ∧ inaccurate), over n_scored;
* judge_strict  = #(det ≥ strong ∧ inaccurate) / n_scored — the judge is harsher than the score;
* judge_lenient = #(det ≤ weak ∧ accurate) / n_scored — the judge is kinder than the score.

strong = 0.85 and weak = 0.5 by default. Rows between the thresholds count in n_scored but can
neither agree nor lean, as the seed defines it. Each rate carries a Wilson 95% interval.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from assay._analytics.jsonl import read_objects
from assay.errors import InputError, UsageError
from assay.stats.intervals import wilson_interval

ACCURATE = frozenset({"accurate", "correct", "true", "yes"})
INACCURATE = frozenset({"inaccurate", "incorrect", "false", "no"})
UNSCORED = frozenset({"", "unscored", "error", "abstain", "uncertain", "unknown"})


@dataclass(frozen=True)
class Judgment:
    """One reviewed row: its id, field, deterministic score and the judge's verdict."""

    row: str
    field: str | None
    score: float
    verdict: bool | None  # True accurate, False inaccurate, None unscored


@dataclass(frozen=True)
class Rate:
    """A proportion k/n with its Wilson interval (None when n = 0)."""

    value: float | None
    k: int
    n: int
    ci_lower: float | None
    ci_upper: float | None


def rate(k: int, n: int, alpha: float = 0.05) -> Rate:
    ci = wilson_interval(k, n, alpha)
    return Rate(k / n if n else None, k, n, ci.lower, ci.upper)


@dataclass(frozen=True)
class Calibration:
    """§11's aggregate, overall and per field; ``run_id`` ties it to a run when given."""

    n_judged: int
    n_scored: int
    agree_rate: Rate
    judge_strict: Rate
    judge_lenient: Rate
    strong: float
    weak: float
    per_field: dict[str, dict[str, Any]] = field(default_factory=dict)
    run_id: str | None = None
    run_name: str | None = None
    source: str | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def lean(self) -> str:
        """'strict', 'lenient' or 'none': which disagreement dominates."""
        s, le = self.judge_strict.k, self.judge_lenient.k
        return "strict" if s > le else "lenient" if le > s else "none"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["lean"] = self.lean
        return data


def parse_verdict(value: Any, where: str) -> bool | None:
    """accurate → True, inaccurate → False, null/unscored → None; anything else is an error."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().casefold()
        if word in ACCURATE:
            return True
        if word in INACCURATE:
            return False
        if word in UNSCORED:
            return None
    raise InputError(
        f"{where}: verdict: expected accurate/inaccurate (or null/unscored), found {value!r}"
    )


def read_judgments(path: str | os.PathLike[str]) -> list[Judgment]:
    """JSONL of {row, field, score, verdict}; records of another ``kind`` are skipped."""
    return [
        judgment_from_record(rec, where)
        for where, rec in read_objects(path, "judgment")
        if rec.get("kind", "calibration") == "calibration"
    ]


def judgment_from_record(rec: Mapping[str, Any], where: str = "<record>") -> Judgment:
    row = rec.get("row", rec.get("id"))
    if row is None or isinstance(row, bool | dict | list):
        raise InputError(f"{where}: row: expected the row id (string or number)")
    score = rec.get("score", rec.get("deterministic_score"))
    if isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score):
        raise InputError(f"{where}: score: expected the deterministic score, found {score!r}")
    if not 0.0 <= score <= 1.0:
        raise InputError(f"{where}: score: must lie in [0, 1], found {score}")
    fld = rec.get("field")
    if fld is not None and not isinstance(fld, str):
        raise InputError(f"{where}: field: expected a string, found {fld!r}")
    if "verdict" not in rec:
        raise InputError(f"{where}: no field 'verdict'")
    return Judgment(str(row), fld, float(score), parse_verdict(rec["verdict"], where))


def _counts(rows: Iterable[Judgment], strong: float, weak: float) -> dict[str, int]:
    c = {"judged": 0, "scored": 0, "agree": 0, "strict": 0, "lenient": 0}
    for j in rows:
        c["judged"] += 1
        if j.verdict is None:
            continue
        c["scored"] += 1
        is_strong, is_weak = j.score >= strong, j.score <= weak
        if (is_strong and j.verdict) or (is_weak and not j.verdict):
            c["agree"] += 1
        elif is_strong:
            c["strict"] += 1
        elif is_weak:
            c["lenient"] += 1
    return c


def judge_calibration(
    judgments: Sequence[Judgment],
    *,
    strong: float = 0.85,
    weak: float = 0.5,
    alpha: float = 0.05,
    run_ids: Iterable[str] | None = None,
) -> Calibration:
    """§11's calibration of the judgments; ``run_ids`` warns about rows the run does not have."""
    if not weak < strong:
        raise UsageError(f"weak ({weak}) must be below strong ({strong})")
    c = _counts(judgments, strong, weak)
    warnings = []
    if run_ids is not None:
        known = set(run_ids)
        stray = sorted({j.row for j in judgments if j.row not in known})
        if stray:
            warnings.append(
                f"{len(stray)} judged row(s) are not items of the run: {', '.join(stray[:5])}"
            )
    if c["scored"] == 0:
        warnings.append("no scored verdicts: the rates are undefined")
    per_field: dict[str, dict[str, Any]] = {}
    for name in sorted({j.field for j in judgments if j.field is not None}):
        fc = _counts([j for j in judgments if j.field == name], strong, weak)
        per_field[name] = {
            "n_judged": fc["judged"],
            "n_scored": fc["scored"],
            "agree_rate": asdict(rate(fc["agree"], fc["scored"], alpha)),
            "judge_strict": asdict(rate(fc["strict"], fc["scored"], alpha)),
            "judge_lenient": asdict(rate(fc["lenient"], fc["scored"], alpha)),
        }
    return Calibration(
        n_judged=c["judged"],
        n_scored=c["scored"],
        agree_rate=rate(c["agree"], c["scored"], alpha),
        judge_strict=rate(c["strict"], c["scored"], alpha),
        judge_lenient=rate(c["lenient"], c["scored"], alpha),
        strong=strong,
        weak=weak,
        per_field=per_field,
        warnings=warnings,
    )


def calibration_path(run_path: str | os.PathLike[str]) -> Path:
    """The calibration sidecar next to a run: ``x.json`` → ``x.judge_calibration.json``."""
    p = Path(run_path)
    return p.with_name(f"{p.stem}.judge_calibration.json")
