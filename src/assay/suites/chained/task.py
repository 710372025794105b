"""The chained suite (seed 000 §5): per-stage trackers of a sorter → extractor pipeline and
their composite, one row per document.

sorter_exact_match = doc_type right; sorter_subtype_accuracy = doc_type AND subtype (normalized
against the CUAD folder names) right;
extractor_* = the specialist stage's composite lookups (a row without one scores 0, so a
dropped document stays in the denominator); chained_composite = w_s·sorter_exact_match +
w_e·extractor_overall per document, averaged."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import ItemScore, LoadedInputs, Task
from assay._labels import is_blank, is_error_output, normalize_label, normalize_subtype
from assay._legal.chained import chained_composite
from assay._legal.records import load_inputs, optional_label
from assay.metrics.spec import MetricSpec, mean_columns, mean_metric
from assay.suites.chained.settings import ChainedSettings

EXTRACTOR_TRACKERS = (
    "extractor_overall",
    "extractor_field_presence",
    "extractor_verified_precision",
    "extractor_category_presence",
    "extractor_schema_valid",
)


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float) and value == value:
        return float(value)
    return None


class ChainedTask(Task[ChainedSettings]):
    """Sorter and extractor outputs of one document per row."""

    name: ClassVar[str] = "chained"
    description: ClassVar[str] = "chained sorter → extractor trackers and their composite"
    metrics_version: ClassVar[int] = 1
    settings_model = ChainedSettings

    def load(self, pred: Path, gold: tuple[Path, ...], settings: ChainedSettings) -> LoadedInputs:
        return load_inputs(
            pred,
            gold,
            suite=self.name,
            id_field=settings.id_field,
            gold_checks={settings.expected_field: optional_label},
            pred_checks={
                settings.doc_type_field: optional_label,
                settings.subtype_field: optional_label,
            },
            pred_required=False,
        )

    def score_item(self, item: Item, settings: ChainedSettings) -> ItemScore:
        pred = item.pred or {}
        expected = normalize_subtype(item.gold.get(settings.expected_field))
        raw_doc, raw_sub = pred.get(settings.doc_type_field), pred.get(settings.subtype_field)
        flags: list[str] = [item.status] if item.status != "ok" else []
        if is_error_output(raw_doc):
            flags.append("error_row")
        usable = not flags
        doc_type = normalize_label(raw_doc) if usable and not is_blank(raw_doc) else None
        subtype = normalize_subtype(raw_sub) if usable and not is_blank(raw_sub) else None
        doc_ok = doc_type == normalize_label(settings.expected_doc_type)
        sub_ok = doc_ok and subtype == expected
        extractor = {t: (_number(pred.get(t)) if usable else None) for t in EXTRACTOR_TRACKERS}
        overall = extractor["extractor_overall"] or 0.0
        composite = chained_composite(
            float(doc_ok), overall, (settings.sorter_weight, settings.extractor_weight)
        )
        stats = {
            **mean_columns("sorter_exact_match", float(doc_ok)),
            **mean_columns("sorter_subtype_accuracy", float(sub_ok)),
            **mean_columns("sorter_confidence", _number(pred.get(settings.confidence_field))),
            **mean_columns("chained_composite", composite),
        }
        for t, v in extractor.items():
            stats.update(mean_columns(t, v if v is not None or t == "extractor_overall" else None))
            if t == "extractor_overall":
                stats.update(mean_columns(t, overall))
        return ItemScore(
            stats=stats,
            scores={"chained_composite": composite, "extractor_overall": overall},
            flags=tuple(flags),
            details={"expected": expected, "predicted": subtype, "doc_type": doc_type},
        )

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: ChainedSettings
    ) -> list[MetricSpec]:
        return [
            mean_metric(
                "chained_composite",
                "chained_composite",
                tier="headline",
                description=f"{settings.sorter_weight}·sorter_exact_match + "
                f"{settings.extractor_weight}·extractor_overall (weights normalized), per document",
            ),
            mean_metric("sorter_exact_match", "sorter_exact_match", description="doc_type right"),
            mean_metric(
                "sorter_subtype_accuracy",
                "sorter_subtype_accuracy",
                description="doc_type and subtype right",
            ),
            mean_metric(
                "sorter_confidence",
                "sorter_confidence",
                tier="diagnostic",
                description="mean sorter confidence",
            ),
            mean_metric(
                "extractor_overall",
                "extractor_overall",
                tier="headline",
                description="mean extractor composite (0 for a document without one)",
            ),
            *[
                mean_metric(t, t, tier="diagnostic", description=f"mean {t} where reported")
                for t in EXTRACTOR_TRACKERS[1:]
            ],
        ]
