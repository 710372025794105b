"""The ContractEval suite (seed 000 §8, §17): the benchmark's confusion over (contract,
category) pairs, accuracy / precision / recall / F1 / F2, token-set Jaccard over positive pairs
and the "no related clause" laziness rates, pooled and per category.

Reading is the legal suites' (:mod:`assay._legal.records`); a pair is scored by
:mod:`.scorer`, the run's metrics are :mod:`.metrics`, its summaries :mod:`.summaries`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import ItemScore, LoadedInputs, Task
from assay._legal.records import load_inputs, optional_text, span_list
from assay.metrics.spec import MetricSpec
from assay.suites.contracteval import metrics, scorer, summaries
from assay.suites.contracteval.settings import ContractEvalSettings

#: the field of a ContractEval row naming its contract (CUAD's file name without .pdf)
CONTRACT_FIELD = "contract"


class ContractEvalTask(Task[ContractEvalSettings]):
    """ContractEval: one (contract, category) pair per item, gold spans and the model answer."""

    name: ClassVar[str] = "contracteval"
    description: ClassVar[str] = (
        "ContractEval clause rubric: accuracy/P/R/F1/F2, Jaccard, no-related-clause rates"
    )
    metrics_version: ClassVar[int] = 1
    settings_model = ContractEvalSettings

    def default_cluster_by(self, settings: ContractEvalSettings) -> str | None:
        """A row is one (contract, category) pair: the 41 categories of a contract are not
        independent, so CIs resample contracts (the rows' ``contract`` field)."""
        return CONTRACT_FIELD

    def load(
        self, pred: Path, gold: tuple[Path, ...], settings: ContractEvalSettings
    ) -> LoadedInputs:
        return load_inputs(
            pred,
            gold,
            suite=self.name,
            id_field=settings.id_field,
            gold_checks={settings.spans_field: span_list},
            pred_checks={settings.output_field: optional_text},
        )

    def score_item(self, item: Item, settings: ContractEvalSettings) -> ItemScore:
        return scorer.score_pair(item, settings)

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: ContractEvalSettings
    ) -> list[MetricSpec]:
        return metrics.metric_specs(scores, settings)

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: ContractEvalSettings
    ) -> dict[str, Any]:
        """The confusion counts, pooled and per category, and the laziness counts."""
        return summaries.summaries(scores)


#: the suite's one instance: the package's ``task``, named by the ``assay.tasks`` entry point
task = ContractEvalTask()
