"""The Monte Carlo corpus (seed 000 §14): label samples per (document, model, prompt).

One JSONL line is one sample — one model call on one document:

    {"doc": "d017", "model": "small-v1", "prompt": "v3", "run": "r2", "label": "contract",
     "gold": "contract", "failed": false, "confidence": 0.82, "prompt_tokens": 812,
     "completion_tokens": 40, "cost": 0.00012, "reasoning": "...", "exemplar_tokens": 350}

Required: ``doc``, ``model``, ``prompt`` and ``label`` (null when the call failed). ``gold`` is the
document's true label (the same on every line of a document; docs without gold are left out of
every accuracy). ``failed`` defaults to label null or an ``ERROR: `` output. Labels compare after
strip + casefold. The rest is optional and feeds escalation (confidence, cost, tokens) and
exemplar mining (reasoning, exemplar_tokens).
"""

from __future__ import annotations

import math
import os
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay._analytics.jsonl import read_objects
from assay.errors import InputError

ERROR_PREFIX = "ERROR: "
FAILED = "<failed>"


@dataclass(frozen=True)
class Sample:
    """One call's label for one document under one (model, prompt)."""

    doc: str
    model: str
    prompt: str
    label: str  # FAILED for a failed call
    gold: str | None
    failed: bool
    run: str | None = None
    confidence: float | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost: float | None = None
    reasoning: str | None = None
    exemplar_tokens: int | None = None

    @property
    def correct(self) -> bool:
        return not self.failed and self.gold is not None and self.label == self.gold


def norm_label(value: str) -> str:
    return value.strip().casefold()


def _opt_number(rec: Mapping[str, Any], key: str, where: str, *, integer: bool) -> Any:
    value = rec.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InputError(f"{where}: {key}: expected a number, found {value!r}")
    if value < 0:
        raise InputError(f"{where}: {key}: must not be negative, found {value}")
    if integer:
        if value != int(value):
            raise InputError(f"{where}: {key}: expected a whole number, found {value}")
        return int(value)
    return float(value)


def _text(rec: Mapping[str, Any], key: str, where: str, *, required: bool) -> str | None:
    value = rec.get(key)
    if value is None:
        if required:
            raise InputError(f"{where}: no field {key!r}")
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise InputError(f"{where}: {key}: expected a string, found {value!r}")
    text = str(value)
    if required and not text.strip():
        raise InputError(f"{where}: {key}: must not be empty")
    return text


def sample_from_record(rec: Mapping[str, Any], where: str = "<record>") -> Sample:
    """Validate one corpus line (see the module docstring for the schema)."""
    doc = _text(rec, "doc", where, required=True)
    model = _text(rec, "model", where, required=True)
    prompt = _text(rec, "prompt", where, required=True)
    if "label" not in rec:
        raise InputError(f"{where}: no field 'label' (null for a failed call)")
    raw = _text(rec, "label", where, required=False)
    failed_field = rec.get("failed")
    if failed_field is not None and not isinstance(failed_field, bool):
        raise InputError(f"{where}: failed: expected true or false, found {failed_field!r}")
    failed = bool(failed_field) or raw is None or raw.startswith(ERROR_PREFIX)
    gold = _text(rec, "gold", where, required=False)
    confidence = _opt_number(rec, "confidence", where, integer=False)
    if confidence is not None and confidence > 1:
        raise InputError(f"{where}: confidence: must lie in [0, 1], found {confidence}")
    assert doc is not None and model is not None and prompt is not None
    return Sample(
        doc=doc,
        model=model,
        prompt=prompt,
        label=FAILED if failed or raw is None else norm_label(raw),
        gold=norm_label(gold) if gold is not None and gold.strip() else None,
        failed=failed,
        run=_text(rec, "run", where, required=False),
        confidence=confidence,
        prompt_tokens=_opt_number(rec, "prompt_tokens", where, integer=True),
        completion_tokens=_opt_number(rec, "completion_tokens", where, integer=True),
        cost=_opt_number(rec, "cost", where, integer=False),
        reasoning=_text(rec, "reasoning", where, required=False),
        exemplar_tokens=_opt_number(rec, "exemplar_tokens", where, integer=True),
    )


@dataclass(frozen=True)
class Corpus:
    """All samples, with the gold label of each document checked for consistency."""

    samples: tuple[Sample, ...]
    source: str = "<corpus>"

    def __post_init__(self) -> None:
        gold: dict[str, str] = {}
        for s in self.samples:
            if s.gold is None:
                continue
            seen = gold.setdefault(s.doc, s.gold)
            if seen != s.gold:
                raise InputError(
                    f"{self.source}: document {s.doc!r} has two gold labels: "
                    f"{seen!r} and {s.gold!r}"
                )

    @classmethod
    def of(cls, samples: Sequence[Sample], source: str = "<corpus>") -> Corpus:
        return cls(tuple(samples), source)

    def configs(self) -> list[tuple[str, str]]:
        """Every (model, prompt), sorted."""
        return sorted({(s.model, s.prompt) for s in self.samples})

    def models(self) -> list[str]:
        return sorted({s.model for s in self.samples})

    def by_doc(self, model: str, prompt: str | None = None) -> dict[str, list[Sample]]:
        """Samples of one model (one prompt, or all when None) grouped by document, sorted."""
        out: dict[str, list[Sample]] = defaultdict(list)
        for s in self.samples:
            if s.model == model and (prompt is None or s.prompt == prompt):
                out[s.doc].append(s)
        return {d: out[d] for d in sorted(out)}

    def gold(self) -> dict[str, str]:
        return {s.doc: s.gold for s in self.samples if s.gold is not None}


def read_corpus(path: str | os.PathLike[str]) -> Corpus:
    """Read a corpus JSONL; a bad line is an error naming the file, line and field."""
    p = Path(path)
    samples = [sample_from_record(rec, where) for where, rec in read_objects(p, "corpus")]
    if not samples:
        raise InputError(f"{p}: the corpus has no samples")
    return Corpus.of(samples, str(p))
