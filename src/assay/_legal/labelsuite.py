"""A base for the label-classification kinds (LegalBench, multiclass, court opinions, MAUD
questions): reading, the per-row outcome of bad answers, and the shared metrics. A suite sets
its settings model and its answer normalization."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import Field

from assay._engine.item import Item
from assay._engine.task import ItemScore, LoadedInputs, Task
from assay._io.records import SourceRecord
from assay._labels import is_blank, is_error_output, normalize_label
from assay._legal.answers import legalbench_key
from assay._legal.labelscore import label_metric_specs, label_stats, label_summaries
from assay._legal.records import load_inputs, optional_label
from assay._settings.model import SuiteSection
from assay.metrics.spec import MetricSpec


class LabelSettings(SuiteSection):
    """Where the labels are, which labels exist and which one is positive."""

    id_field: str = Field("id", description="record field holding the item id")
    expected_field: str = Field("expected", description="gold label field")
    predicted_field: str = Field("predicted", description="predicted label field")
    labels: list[str] | None = Field(
        None, description="valid label set (default: the gold labels seen)"
    )
    positive: str | None = Field(
        None, description="positive class: adds binary precision, recall and F1"
    )
    top_k: int = Field(5, ge=1, description="how many top confusions to list")


#: ``normalize(value, valid)`` → the canonical answer key (a suite's answer normalization)
AnswerNormalizer = Callable[[Any, Collection[str] | None], str]
#: the settings model of a label suite: LabelSettings or a suite's subclass of it
LabelSettingsT = TypeVar("LabelSettingsT", bound=LabelSettings)


def raw_text(raw: Any) -> Any:
    """A JSON-safe copy of the raw answer for the audit trail."""
    return raw if isinstance(raw, str | int | float | bool | None) else str(raw)


def score_label_row(
    item: Item,
    settings: LabelSettings,
    normalize: AnswerNormalizer,
    positive: str | None,
    *,
    legalbench: bool = False,
) -> ItemScore:
    """One row: gold and answer through the suite's ``normalize`` (over the valid labels), the
    :func:`~assay._legal.labelscore.label_stats` columns, and the flags of a bad answer
    (``error_row``, ``blank``, ``invalid_label``; an unusable one is a miss).

    With ``legalbench``, the raw gold and answer also go through LegalBench's own normalization
    (:func:`~assay._legal.answers.legalbench_key`) for its official figure; the answer of a
    missing or failed row is ``""`` there, what LegalBench's caller passes for it."""
    gold_raw = item.gold.get(settings.expected_field)
    expected = normalize(gold_raw, settings.labels)
    raw = item.pred.get(settings.predicted_field) if item.pred is not None else None
    flags: list[str] = [item.status] if item.status != "ok" else []
    if is_error_output(raw):
        flags.append("error_row")
    elif item.status == "ok" and is_blank(raw):
        flags.append("blank")
    usable = not flags
    predicted = normalize(raw, settings.labels) if usable else None
    if predicted is not None and settings.labels and predicted not in settings.labels:
        flags.append("invalid_label")
    details: dict[str, Any] = {
        "expected": expected,
        "predicted": predicted,
        "raw_output": raw_text(raw),
    }
    official = None
    if legalbench:
        answered = raw if item.status == "ok" else None
        official = (legalbench_key(gold_raw), legalbench_key(answered))
        details["legalbench_expected"], details["legalbench_answer"] = official
    stats = label_stats(expected, predicted, positive=positive, official=official)
    return ItemScore(
        stats=stats,
        scores={"exact_match": stats["exact_match"]},
        flags=tuple(flags),
        details=details,
    )


class LabelSuite(Task[LabelSettingsT]):
    """One gold label and one answer per row, normalized by :meth:`normalize`."""

    def normalize(self, value: Any, valid: Collection[str] | None) -> str:
        """The canonical answer key; plain label normalization by default."""
        return normalize_label(value, valid)

    def positive_class(self, s: LabelSettings) -> str | None:
        return self.normalize(s.positive, s.labels) if s.positive is not None else None

    def load(self, pred: Path, gold: tuple[Path, ...], settings: LabelSettingsT) -> LoadedInputs:
        return load_inputs(
            pred,
            gold,
            suite=self.name,
            id_field=settings.id_field,
            gold_checks={settings.expected_field: optional_label},
            pred_checks={settings.predicted_field: optional_label},
        )

    def prepare(self, loaded: LoadedInputs, settings: LabelSettingsT) -> LabelSettingsT:
        """Without a configured label set, the valid labels are the gold labels seen."""
        if settings.labels is not None:
            return settings.model_copy(
                update={"labels": sorted({self.normalize(v, None) for v in settings.labels})}
            )
        seen = {
            self.normalize(r.record.get(settings.expected_field), None)
            for r in loaded.gold
            if isinstance(r, SourceRecord) and not is_blank(r.record.get(settings.expected_field))
        }
        return settings.model_copy(update={"labels": sorted(seen)})

    def score_item(self, item: Item, settings: LabelSettingsT) -> ItemScore:
        return score_label_row(item, settings, self.normalize, self.positive_class(settings))

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: LabelSettingsT
    ) -> list[MetricSpec]:
        return label_metric_specs(scores, positive=self.positive_class(settings))

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: LabelSettingsT
    ) -> dict[str, Any]:
        return {
            **label_summaries(scores, top_k=settings.top_k),
            "positive": self.positive_class(settings),
        }
