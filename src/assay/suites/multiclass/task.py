"""The multiclass suite (seed 000 §8, multiclass_score / court_opinion_score): macro accuracy,
micro accuracy (= exact match), per-class accuracy and confusion."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from assay._engine.task import ItemScore
from assay._legal.labelsuite import LabelSuite
from assay.metrics.spec import MetricSpec
from assay.suites.multiclass.settings import MulticlassSettings


class MulticlassTask(LabelSuite[MulticlassSettings]):
    """Plain label classification over many classes; macro accuracy is the headline."""

    name: ClassVar[str] = "multiclass"
    description: ClassVar[str] = "multiclass / court opinions: macro and micro accuracy, confusion"
    metrics_version: ClassVar[int] = 1
    settings_model = MulticlassSettings

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: MulticlassSettings
    ) -> list[MetricSpec]:
        specs = super().metric_specs(scores, settings)
        return [replace(s, tier="headline") if s.name == "macro_accuracy" else s for s in specs]
