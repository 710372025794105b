"""Run: the JSON artifact of one scored run, the same envelope for every task.

Reports, the store, gates and comparisons read a Run, never the original files: it carries the
statistics table and the metric specs, so a paired test needs nothing else.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

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
    specs: list[dict[str, Any]]
    stats: dict[str, Any]
    items: list[ItemRecord]

    def table(self) -> StatsTable:
        """The per-item statistics table (rows in surface order)."""
        return StatsTable.from_json(self.stats)

    def metric_specs(self) -> list[MetricSpec]:
        return [MetricSpec.from_json(s) for s in self.specs]

    def item_gold_digests(self) -> dict[str, str]:
        return {item.id: item.gold_sha256 for item in self.items}

    def to_json(self) -> str:
        """Deterministic JSON text (NaN never appears: undefined values are null)."""
        data = _clean(self.model_dump(mode="json"))
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"

    def save(self, path: str | os.PathLike[str]) -> Path:
        p = Path(path)
        if p.parent and not p.parent.exists():
            p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(p.name + ".tmp")
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


def _clean(value: Any) -> Any:
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value
