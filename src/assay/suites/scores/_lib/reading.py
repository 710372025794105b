"""A tool's result file as the scores suite's records: one prediction record per item carrying
its samples' scores, one gold record per expected id.

* The gold side is the benchmark: every id the tool meant to score (Inspect's dataset sample
  ids, lm-eval's split) or, when the file does not say, every item read. A gold record is its
  id alone, so two runs of one benchmark share a surface and pair on ids, whichever tool or
  model wrote them.
* An item none of whose samples holds a score (every epoch errored, a provider error) is a
  listed failure naming where it was read and why; an expected id absent from the file is a
  missing item; both count 0.
* A record the tool wrote without a usable id is a listed parse failure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assay._io.bridges import BridgeItem, BridgeOptions, BridgeRun, OwnMetric, read_bridge
from assay._io.records import ParseFailure, ReadResult, SourceRecord
from assay.errors import UsageError
from assay.suites.scores.settings import ScoresSettings

__all__ = [
    "BridgeInfo",
    "bridge_info",
    "bridge_options",
    "item_records",
    "read_run",
    "system_names",
]


@dataclass(frozen=True)
class BridgeInfo:
    """What the tool's file said of the run, for the summaries: never scored, only shown."""

    source: str
    path: str
    system: str
    format: str
    task: str | None
    model: str | None
    tool_version: str | None
    reducer: str | None
    own: tuple[OwnMetric, ...]
    provenance: dict[str, Any]
    warnings: tuple[str, ...]
    samples_per_item: int | None
    n_clusters: int | None = None
    lower: frozenset[str] = field(default_factory=frozenset)


def bridge_options(settings: ScoresSettings) -> BridgeOptions:
    return BridgeOptions(
        id_field=settings.id_field,
        filter=settings.filter,
        systems=(settings.system,) if settings.system else (),
        cluster_field=settings.cluster_field,
        inspect_reader=settings.inspect_reader,
        inspect_source=settings.inspect_source,
    )


def read_run(path: Path, settings: ScoresSettings) -> BridgeRun:
    """The one run of ``path`` the settings name: a file of several systems (promptfoo's
    columns) needs ``system``."""
    runs = read_bridge(path, settings.source, bridge_options(settings))
    if len(runs) != 1:
        listed = "; ".join(f"{k}: {r.system}" for k, r in enumerate(runs))
        raise UsageError(
            f"{path}: {len(runs)} systems in it ({listed}); score one with --system NAME "
            "(or compare them all: assay compare FILE --from …)"
        )
    return runs[0]


def _record(run: BridgeRun, item: BridgeItem) -> ReadResult:
    usable = [s for s in item.samples if s.error is None]
    if not usable or not any(v is not None for s in usable for v in s.scores.values()):
        first = item.samples[0]
        reasons = [f"{s.where}: {s.error}" for s in item.samples if s.error]
        reasons += [f"{s.where}: {p}" for s in item.samples for p in s.problems]
        reason = "; ".join(reasons[:3]) or f"{first.where}: no score in any sample"
        return ParseFailure(str(run.path), None, f"no score: {reason}", item.id)
    record = {
        "id": item.id,
        "samples": [
            {
                "index": s.index,
                "scores": s.scores,
                "where": s.where,
                **({"error": s.error} if s.error else {}),
                **({"problems": list(s.problems)} if s.problems else {}),
            }
            for s in item.samples
        ],
        "display": item.display,
        **({"cluster": item.cluster} if item.cluster is not None else {}),
    }
    return SourceRecord(item.id, record, str(run.path), None)


def item_records(run: BridgeRun) -> tuple[list[ReadResult], list[ReadResult]]:
    """(predictions, gold): the items and the tool's unreadable records; the expected ids."""
    preds: list[ReadResult] = list(run.failures)
    preds += [_record(run, item) for item in run.items]
    ids = run.expected if run.expected is not None else [item.id for item in run.items]
    gold: list[ReadResult] = [
        SourceRecord(i, {"id": i}, str(run.path), None) for i in dict.fromkeys(ids)
    ]
    return preds, gold


def bridge_info(run: BridgeRun) -> BridgeInfo:
    clusters = {item.cluster for item in run.items if item.cluster is not None}
    per_item = run.provenance.get("samples_per_item")
    return BridgeInfo(
        source=run.source,
        path=str(run.path),
        system=run.system,
        format=run.format,
        task=run.task,
        model=run.model,
        tool_version=run.tool_version,
        reducer=run.reducer,
        own=tuple(run.own),
        provenance=dict(run.provenance),
        warnings=tuple(run.warnings),
        samples_per_item=per_item if isinstance(per_item, int) else None,
        n_clusters=len(clusters) if clusters else None,
        lower=frozenset(run.lower),
    )


def system_names(path: Path, **options: Any) -> list[str]:
    """The systems in a tool's file (promptfoo's columns; one for the other tools), read with
    the scores suite's ``options`` (``source``, ``filter``, ``id_field``…)."""
    settings = ScoresSettings.model_validate({k: v for k, v in options.items() if v is not None})
    runs = read_bridge(Path(path), settings.source, bridge_options(settings))
    return [r.system for r in runs]
