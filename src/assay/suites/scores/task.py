"""The scores suite: per-item scores another tool already computed (Inspect, lm-evaluation-harness,
promptfoo), with assay's CIs, paired tests, missing items and gates.

Each hook delegates: reading to ``_lib.reading`` (through the bridges of ``assay._io.bridges``),
one item to ``scorer``, the metrics to ``metrics`` and the summaries to ``summaries``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import RUN_NAME, ItemScore, LoadedInputs, Task
from assay.errors import UsageError
from assay.metrics.spec import MetricSpec
from assay.suites.scores import metrics, scorer, summaries
from assay.suites.scores._lib.reading import bridge_info, item_records, read_run
from assay.suites.scores.settings import ScoresSettings

#: ``LoadedInputs.gathered`` key: the run read from the tool's file
RUN = "bridge_run"


class ScoresTask(Task[ScoresSettings]):
    """Scores computed by another tool: one file of Inspect, lm-eval or promptfoo, one system."""

    name: ClassVar[str] = "scores"
    description: ClassVar[str] = (
        "scores another tool computed (Inspect, lm-eval, promptfoo): means, CIs, paired tests"
    )
    metrics_version: ClassVar[int] = 1
    settings_model = ScoresSettings

    def default_cluster_by(self, settings: ScoresSettings) -> str | None:
        """With ``cluster_field`` (Inspect's ``metadata.topic``...), the tool's cluster of
        each item, read into its record's ``cluster``, is the resampling unit."""
        return "cluster" if settings.cluster_field else None

    def load(self, pred: Path, gold: tuple[Path, ...], settings: ScoresSettings) -> LoadedInputs:
        """The tool's file (or lm-eval model folder) as items; no gold: the file is the run."""
        if gold:
            raise UsageError(
                "the scores suite takes no gold file: the tool's file holds the scores "
                "(expected ids: --expected-ids)"
            )
        run = read_run(pred, settings)
        preds, golds = item_records(run)
        return LoadedInputs(preds, golds, (pred,), (), {RUN: run, RUN_NAME: run.name})

    def prepare(self, loaded: LoadedInputs, settings: ScoresSettings) -> ScoresSettings:
        """The tool, its scores and their direction from the file, unless the settings say."""
        run = loaded.gathered.get(RUN)
        if run is None:
            return settings
        wanted = settings.scores
        if wanted is not None:
            unknown = [s for s in wanted if s not in run.scores]
            if unknown:
                raise UsageError(
                    f"{run.path}: no score {', '.join(map(repr, unknown))} in it "
                    f"(scores: {', '.join(run.scores)})"
                )
        for score, _, _ in settings.thresholds():
            if score not in run.scores:
                raise UsageError(
                    f"threshold on {score!r}: no such score (scores: {', '.join(run.scores)})"
                )
        prepared = settings.model_copy(
            update={
                "source": run.source,
                "scores": list(wanted if wanted is not None else run.scores),
                "lower": sorted(set(settings.lower) | run.lower),
            }
        )
        prepared._bridge = bridge_info(run)
        return prepared

    def score_item(self, item: Item, settings: ScoresSettings) -> ItemScore:
        return scorer.score_item(item, settings)

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: ScoresSettings
    ) -> list[MetricSpec]:
        return metrics.metric_specs(scores, settings)

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: ScoresSettings
    ) -> dict[str, Any]:
        return summaries.summaries(items, scores, settings)


#: the suite's one instance: the package's ``task``, named by the ``assay.tasks`` entry point
task = ScoresTask()
