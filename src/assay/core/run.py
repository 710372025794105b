"""Run: the JSON artifact of one scored run, the same envelope for every task.

Reports, the store, gates and comparisons read a Run, never the original files: it carries the
statistics table and the metric specs, so a paired test needs nothing else.
"""

from __future__ import annotations

import json
import math
import os
import uuid
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_serializer,
)

from assay.core.spill import SpilledSequence
from assay.errors import InputError
from assay.metrics.spec import MetricSpec, Tier
from assay.metrics.table import StatsTable

ARTIFACT_SCHEMA = 1


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MetricResult(_Model):
    """One metric of a run: point value, percentile CI, support and, for per-item means, spread."""

    name: str
    value: float | None
    ci_lower: float | None = None
    ci_upper: float | None = None
    ci_method: str | None = None
    n: int
    tier: Tier = "core"
    higher_is_better: bool = True
    kind: str
    path: str = "fast"
    description: str = ""
    mean: float | None = None
    p10: float | None = None
    median: float | None = None
    min: float | None = None
    max: float | None = None


class IssueRecord(_Model):
    id: str | None
    where: str
    reason: str


class CohortSummary(_Model):
    """Who was scored: attempted = evaluated + missing + failed; the rest is listed."""

    attempted: int
    evaluated: int
    missing: int
    missing_ids: list[str]
    failed: int
    failures: list[IssueRecord]
    unmatched: int
    unmatched_ids: list[str]
    unmatched_records: list[IssueRecord]
    duplicates: list[IssueRecord]
    parse_failures: list[IssueRecord]
    gold_failures: list[IssueRecord]
    no_gold_ids: list[str]
    excluded: int
    abstained: int
    abstained_ids: list[str]


class Provenance(_Model):
    predictions: list[str]
    predictions_sha256: str
    gold: list[str]
    gold_sha256: str
    git_commit: str | None
    config_sha256: str
    seed: int
    ci: bool
    n_bootstrap_ci: int
    alpha: float
    assay_version: str


class Surface(_Model):
    """The dataset fingerprint: two runs are compared on equal surfaces (or the id overlap)."""

    fingerprint: str
    n_items: int
    seed: int
    gold_sha256: str


class ItemRecord(_Model):
    id: str
    status: str
    gold_sha256: str
    source: str | None = None
    error: str | None = None
    scores: dict[str, float | None] = Field(default_factory=dict)
    flags: list[str] = Field(default_factory=list)
    details: dict[str, Any] = Field(default_factory=dict)


class Run(_Model):
    """The scored run (see DESIGN.md, "A Run")."""

    artifact_schema: int = ARTIFACT_SCHEMA
    assay_version: str
    task: str
    metrics_version: int
    run_id: str
    name: str
    generated_at: str
    provenance: Provenance
    surface: Surface
    settings: dict[str, Any]
    cohort: CohortSummary
    metrics: dict[str, MetricResult]
    summaries: dict[str, Any] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)
    #: the reproducibility signature (assay.core.signature); "" in artifacts older than it
    signature: str = ""
    specs: list[dict[str, Any]]
    stats: dict[str, Any]
    # a list, or for a spilled run (see core/spill.py) a lazy sequence read from disk;
    # ``stats`` and ``items`` stay the last two fields: the streamed writer relies on it
    items: Sequence[ItemRecord]

    @field_serializer("items", mode="wrap")
    def _items_as_list(
        self, value: Sequence[ItemRecord], handler: SerializerFunctionWrapHandler
    ) -> Any:
        return handler(value if isinstance(value, list) else list(value))

    @field_serializer("stats", mode="wrap")
    def _stats_as_lists(self, value: dict[str, Any], handler: SerializerFunctionWrapHandler) -> Any:
        rows = value.get("values")
        if rows is not None and not isinstance(rows, list):
            value = {**value, "values": list(rows)}
        return handler(value)

    @property
    def spilled(self) -> bool:
        """True when the items (and statistics rows) are read from disk on demand."""
        return not isinstance(self.items, list)

    def table(self) -> StatsTable:
        """The per-item statistics table (rows in surface order)."""
        return StatsTable.from_json(self.stats)

    def metric_specs(self) -> list[MetricSpec]:
        return [MetricSpec.from_json(s) for s in self.specs]

    def item_gold_digests(self) -> dict[str, str]:
        return {item.id: item.gold_sha256 for item in self.items}

    def to_json(self) -> str:
        """Deterministic JSON text (NaN never appears: undefined values are null)."""
        if self.spilled:
            return "".join(self.iter_json())
        data = _clean(self.model_dump(mode="json"))
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"

    def iter_json(self) -> Iterator[str]:
        """``to_json()`` in pieces: the statistics rows and item records are written one by one,
        so a spilled run is saved without building its text (the bytes are the same)."""
        if not self.spilled:
            yield self.to_json()
            return
        marker = f"@@assay-stream-{uuid.uuid4().hex}@@"
        head = _clean(self.model_dump(mode="json", exclude={"stats", "items"}))
        head["stats"] = marker
        head["items"] = marker
        text = json.dumps(head, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
        before, middle, after = text.split(json.dumps(marker))
        yield before
        yield from _stream_mapping(self.stats, 1)
        yield middle
        if isinstance(self.items, SpilledSequence):
            texts: Iterable[str] = (b.decode("utf-8") for b in self.items.raw())
        else:
            texts = (item_text(i) for i in self.items)
        yield from _stream_texts(texts, 1)
        yield after

    def save(self, path: str | os.PathLike[str]) -> Path:
        p = Path(path)
        if p.parent and not p.parent.exists():
            p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(p.name + ".tmp")
        if self.spilled:
            with tmp.open("w", encoding="utf-8") as fh:
                for piece in self.iter_json():
                    fh.write(piece)
        else:
            tmp.write_text(self.to_json(), encoding="utf-8")
        tmp.replace(p)
        return p

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Run:
        """Read a run artifact; a missing or malformed file is an InputError naming it."""
        p = Path(path)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise InputError(f"{p}: run file not found") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise InputError(f"{p}: not a readable run artifact: {err}") from None
        try:
            return cls.model_validate(data)
        except ValidationError as err:
            first = err.errors()[0]
            loc = ".".join(str(x) for x in first["loc"])
            raise InputError(f"{p}: not an assay run artifact: {loc}: {first['msg']}") from None


def item_text(record: ItemRecord) -> str:
    """One item record as the artifact writes it (indented as a top-level value)."""
    data = record.model_dump(mode="json")
    try:
        return indented_json(data)
    except TypeError:  # a value json.dumps would have to judge (it raises the clear error)
        return json.dumps(_clean(data), indent=2, ensure_ascii=False, allow_nan=False)


_encode_str = json.encoder.encode_basestring
_INF = float("inf")


def indented_json(value: Any, pad: str = "") -> str:
    """``json.dumps(_clean(value), indent=2, ensure_ascii=False)`` for JSON data (dicts with
    string keys, lists, str, int, float, bool, None), about twice as fast as the pure-Python
    indenting encoder; TypeError for anything else."""
    if isinstance(value, str):
        text: str = _encode_str(value)
        return text
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return int.__repr__(value)
    if type(value) is float:
        if value != value or value == _INF or value == -_INF:
            return "null"
        return float.__repr__(value)
    inner = pad + "  "
    if type(value) is dict:
        if not value:
            return "{}"
        parts = []
        for k, v in value.items():
            if type(k) is not str:
                raise TypeError("non-string key")
            parts.append("\n" + inner + _encode_str(k) + ": " + indented_json(v, inner))
        return "{" + ",".join(parts) + "\n" + pad + "}"
    if type(value) is list:
        if not value:
            return "[]"
        return (
            "[" + ",".join("\n" + inner + indented_json(v, inner) for v in value) + "\n" + pad + "]"
        )
    raise TypeError(f"not JSON data: {type(value).__name__}")


def _dumps(value: Any) -> str:
    """``json.dumps(indent=2)`` of a cleaned value; a flat list of numbers (a statistics row)
    takes the C encoder with the indented separator, which writes the same text."""
    if (
        isinstance(value, list)
        and value
        and all(type(v) is int or type(v) is float or v is None for v in value)
    ):
        flat = json.dumps(_clean(value), separators=(",\n  ", ": "), allow_nan=False)
        return "[\n  " + flat[1:-1] + "\n]"
    return json.dumps(_clean(value), indent=2, ensure_ascii=False, allow_nan=False)


def _stream_texts(texts: Iterable[str], level: int) -> Iterator[str]:
    """A JSON array, at nesting ``level``, of elements already dumped with ``indent=2``."""
    inner = "\n" + "  " * (level + 1)
    first = True
    for t in texts:
        yield ("[" if first else ",") + inner + t.replace("\n", inner)
        first = False
    yield "[]" if first else "\n" + "  " * level + "]"


def _stream_mapping(mapping: dict[str, Any], level: int) -> Iterator[str]:
    """A JSON object at nesting ``level`` whose sequence values are written element by element."""
    if not mapping:
        yield "{}"
        return
    inner = "\n" + "  " * (level + 1)
    for k, (key, value) in enumerate(mapping.items()):
        yield ("{" if k == 0 else ",") + inner + json.dumps(key, ensure_ascii=False) + ": "
        if isinstance(value, Sequence) and not isinstance(value, str | bytes):
            yield from _stream_texts((_dumps(v) for v in value), level + 1)
        else:
            yield _dumps(value).replace("\n", inner)
    yield "\n" + "  " * level + "}"


def _clean(value: Any) -> Any:
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value
