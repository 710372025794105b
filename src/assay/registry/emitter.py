"""The emitter: registry-validated scores fanned out to sinks, and the views built on them.

``emit_score`` validates a name against the registry; unknown names and None values come back
as skipped (with the reason), never silently lost. ``get_scorecard`` and ``compare_headlines``
read what was emitted (from the manifest when there is one).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from assay._engine.run import Run
from assay.errors import InputError
from assay.registry.model import tier_rank
from assay.registry.registry import MetricRegistry
from assay.registry.sinks import LocalManifestSink, OtlpSink, ScoreRecord, Sink


@dataclass(frozen=True)
class Skipped:
    """A score that was not emitted, and why."""

    name: str
    reason: str


@dataclass(frozen=True)
class EmitOutcome:
    emitted: list[ScoreRecord] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


@dataclass(frozen=True)
class HeadlineDelta:
    """One T0 metric of two runs: Δ = A − B."""

    name: str
    a: float | None
    b: float | None
    delta: float | None


class Emitter:
    """Validates scores against ``registry`` and writes them to every sink."""

    def __init__(
        self,
        registry: MetricRegistry,
        sinks: Sequence[Sink] = (),
        *,
        clock: datetime | None = None,
    ) -> None:
        self.registry = registry
        self.sinks = list(sinks)
        self._clock = clock
        self.records: list[ScoreRecord] = []
        self.skipped: list[Skipped] = []

    def _now(self) -> str:
        return (self._clock or datetime.now(UTC)).isoformat(timespec="microseconds")

    def status(self) -> dict[str, str]:
        """Each sink's state, e.g. an OTLP sink saying it is inactive and why."""
        return {sink.name: sink.status for sink in self.sinks}

    def _validate(self, name: str | None, value: float | None) -> Skipped | None:
        if not name:
            return Skipped(str(name), "no metric name")
        if name not in self.registry:
            return Skipped(name, "not in the registry (add it to the suite or ASSAY_REGISTRY)")
        if value is None:
            return Skipped(name, "no value (None)")
        if isinstance(value, bool) or not isinstance(value, int | float):
            return Skipped(name, f"value is not a number: {value!r}")
        if not math.isfinite(value):
            return Skipped(name, f"value is not finite: {value}")
        return None

    def _record(
        self,
        agent: str,
        run_id: str,
        name: str,
        value: float,
        *,
        item_id: str | None = None,
        ci_lower: float | None = None,
        ci_upper: float | None = None,
        n: int | None = None,
    ) -> ScoreRecord:
        entry = self.registry.get(name)
        return ScoreRecord(
            agent=agent,
            run_id=run_id,
            name=name,
            value=float(value),
            tier=entry.tier,
            unit=entry.unit,
            timestamp=self._now(),
            item_id=item_id,
            ci_lower=ci_lower,
            ci_upper=ci_upper,
            n=n,
        )

    def _send(self, records: Sequence[ScoreRecord]) -> None:
        self.records.extend(records)
        for sink in self.sinks:
            sink.write(records)

    def emit_score(
        self,
        agent: str,
        run_id: str,
        name: str | None,
        value: float | None,
        *,
        item_id: str | None = None,
        ci_lower: float | None = None,
        ci_upper: float | None = None,
        n: int | None = None,
    ) -> ScoreRecord | Skipped:
        """Emit one score, or return why it was skipped."""
        problem = self._validate(name, value)
        if problem is not None:
            self.skipped.append(problem)
            return problem
        assert name is not None and value is not None
        record = self._record(
            agent, run_id, name, value, item_id=item_id, ci_lower=ci_lower, ci_upper=ci_upper, n=n
        )
        self._send([record])
        return record

    def emit_run_scores(
        self, agent: str, run_id: str, metrics: Mapping[str, float | None]
    ) -> EmitOutcome:
        """Emit a mapping of metric → value: (emitted, skipped)."""
        outcome = EmitOutcome()
        for name, value in metrics.items():
            result = self.emit_score(agent, run_id, name, value)
            (outcome.skipped if isinstance(result, Skipped) else outcome.emitted).append(result)  # type: ignore[arg-type]
        return outcome

    def emit_run(self, run: Run, *, agent: str | None = None) -> EmitOutcome:
        """Every metric of a Run, with its CI and n; the agent defaults to the run's task."""
        outcome = EmitOutcome()
        for m in run.metrics.values():
            result = self.emit_score(
                agent or run.task,
                run.run_id,
                m.name,
                m.value,
                ci_lower=m.ci_lower,
                ci_upper=m.ci_upper,
                n=m.n,
            )
            if isinstance(result, Skipped):
                outcome.skipped.append(result)
            else:
                outcome.emitted.append(result)
        return outcome

    def flush(self) -> None:
        for sink in self.sinks:
            sink.flush()

    def _all_records(self) -> list[ScoreRecord]:
        for sink in self.sinks:
            if isinstance(sink, LocalManifestSink):
                return sink.read()
        return list(self.records)

    def get_scorecard(
        self, agent: str, run_id: str, *, min_tier: str = "T1"
    ) -> dict[str, ScoreRecord]:
        """The run-level scores of one agent's run at ``min_tier`` or above (last one wins)."""
        limit = tier_rank(min_tier)
        card: dict[str, ScoreRecord] = {}
        for r in self._all_records():
            if (
                r.agent == agent
                and r.run_id == run_id
                and r.item_id is None
                and tier_rank(r.tier) <= limit
            ):
                card[r.name] = r
        if not card and not any(
            r.agent == agent and r.run_id == run_id for r in self._all_records()
        ):
            raise InputError(f"no scores emitted for agent {agent!r}, run {run_id!r}")
        return dict(sorted(card.items()))

    def compare_headlines(self, agent: str, run_a: str, run_b: str) -> list[HeadlineDelta]:
        """T0 metrics only, Δ = A − B (None where one run lacks the metric)."""
        a = self.get_scorecard(agent, run_a, min_tier="T0")
        b = self.get_scorecard(agent, run_b, min_tier="T0")
        out = []
        for name in sorted(set(a) | set(b)):
            va = a[name].value if name in a else None
            vb = b[name].value if name in b else None
            delta = va - vb if va is not None and vb is not None else None
            out.append(HeadlineDelta(name, va, vb, delta))
        return out


def build_emitter(
    registry: MetricRegistry,
    manifest_path: str | Path | None = None,
    *,
    otlp: bool = False,
) -> Emitter:
    """A local JSONL manifest sink (default ``.assay/scores_manifest.jsonl``) and, with
    ``otlp``, the OTLP/Langfuse sink (inert without credentials; see ``Emitter.status``)."""
    sinks: list[Sink] = [
        LocalManifestSink(manifest_path or Path(".assay") / "scores_manifest.jsonl")
    ]
    if otlp:
        sinks.append(OtlpSink())
    return Emitter(registry, sinks)
