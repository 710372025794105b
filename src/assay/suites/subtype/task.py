"""The subtype suite (seed 000 §6): the sorter's doc_type and contract subtype against the
CUAD folder, strict and with defensible equivalent families, plus the failure modes (§15).

exact_match = share of rows with doc_type == contract; subtype_accuracy = share of rows whose
normalized subtype equals the gold folder (both sides through ``normalize_subtype``, so
"License_Agreements" and "License Agreement" are "license"); subtype_accuracy_equiv = strict
or a listed equivalent pair."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import ItemScore, LoadedInputs, Task
from assay._labels import (
    SORTER_FAILURE_MODES,
    classify_failure,
    confusion,
    equivalence_set,
    equivalent,
    is_blank,
    is_error_output,
    normalize_label,
    normalize_subtype,
    summarize_failures,
)
from assay._legal.labelsuite import raw_text
from assay._legal.records import load_inputs, optional_label
from assay.metrics.spec import MetricSpec, mean_columns, mean_metric, ratio_metric
from assay.suites.subtype.settings import SubtypeSettings


def _confidence(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if value == value else None


class SubtypeTask(Task[SubtypeSettings]):
    """One sorter answer (doc_type, subtype, confidence) per CUAD document."""

    name: ClassVar[str] = "subtype"
    description: ClassVar[str] = "contract subtype: exact match, strict and equiv subtype accuracy"
    metrics_version: ClassVar[int] = 1
    settings_model = SubtypeSettings

    def load(self, pred: Path, gold: tuple[Path, ...], settings: SubtypeSettings) -> LoadedInputs:
        return load_inputs(
            pred,
            gold,
            suite=self.name,
            id_field=settings.id_field,
            gold_checks={settings.expected_field: optional_label},
            pred_checks={
                settings.predicted_field: optional_label,
                settings.doc_type_field: optional_label,
            },
            pred_required=False,
        )

    def score_item(self, item: Item, settings: SubtypeSettings) -> ItemScore:
        pairs = equivalence_set(settings.equivalences)
        pred = item.pred or {}
        expected = normalize_subtype(item.gold.get(settings.expected_field))
        raw_doc = pred.get(settings.doc_type_field)
        raw_sub = pred.get(settings.predicted_field)
        flags: list[str] = [item.status] if item.status != "ok" else []
        if is_error_output(raw_doc) or is_error_output(raw_sub):
            flags.append("error_row")
        elif item.status == "ok" and is_blank(raw_doc) and is_blank(raw_sub):
            flags.append("blank")
        usable = not flags
        doc_type = normalize_label(raw_doc) if usable and not is_blank(raw_doc) else None
        predicted = normalize_subtype(raw_sub) if usable and not is_blank(raw_sub) else None
        doc_type_ok = doc_type == normalize_label(settings.expected_doc_type)
        strict = predicted is not None and predicted == expected
        equiv = equivalent(expected, predicted, pairs)
        mode = (
            classify_failure(
                doc_type_ok=doc_type_ok,
                expected=expected,
                predicted=predicted,
                equivalences=pairs,
                other_label=normalize_label(settings.other_label),
            )
            if usable
            else "unusable"
        )
        conf = _confidence(pred.get(settings.confidence_field))
        stats = {
            **mean_columns("exact_match", float(doc_type_ok)),
            **mean_columns("subtype_accuracy", float(strict)),
            **mean_columns("subtype_accuracy_equiv", float(equiv)),
            **mean_columns("confidence", conf),
            f"strict[{expected}]": float(strict),
            f"equiv[{expected}]": float(equiv),
            f"count[{expected}]": 1.0,
        }
        return ItemScore(
            stats=stats,
            scores={"subtype_accuracy": float(strict), "subtype_accuracy_equiv": float(equiv)},
            flags=tuple(flags),
            details={
                "expected": expected,
                "predicted": predicted,
                "doc_type": doc_type,
                "doc_type_ok": doc_type_ok,
                "failure_mode": mode,
                "equiv_recovered": not strict and equiv,
                "confidence": conf,
                "reasoning": raw_text(pred.get("reasoning")),
                "filename": raw_text(item.gold.get("filename", pred.get("filename"))),
            },
        )

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: SubtypeSettings
    ) -> list[MetricSpec]:
        specs = [
            mean_metric(
                "exact_match",
                "exact_match",
                description="share of rows with doc_type == the expected doc_type (contract)",
            ),
            mean_metric(
                "subtype_accuracy",
                "subtype_accuracy",
                tier="headline",
                description="share of rows whose subtype equals the gold folder",
            ),
            mean_metric(
                "subtype_accuracy_equiv",
                "subtype_accuracy_equiv",
                tier="headline",
                description="strict, or a listed defensible equivalent family",
            ),
            mean_metric(
                "confidence",
                "confidence",
                tier="diagnostic",
                description="mean model-reported confidence",
            ),
        ]
        for c in sorted({str(sc.details["expected"]) for sc in scores}):
            specs += [
                ratio_metric(
                    f"strict[{c}]",
                    f"strict[{c}]",
                    f"count[{c}]",
                    tier="diagnostic",
                    description=f"strict subtype accuracy on {c} rows",
                ),
                ratio_metric(
                    f"equiv[{c}]",
                    f"equiv[{c}]",
                    f"count[{c}]",
                    tier="diagnostic",
                    description=f"equiv subtype accuracy on {c} rows",
                ),
            ]
        return specs

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: SubtypeSettings
    ) -> dict[str, Any]:
        """failure_insights, per_subtype and the confusion matrix (unusable rows as
        ``<none>``)."""
        rows = [{"id": it.id, **sc.details} for it, sc in zip(items, scores, strict=True)]
        per: dict[str, dict[str, Any]] = {}
        for r in rows:
            d = per.setdefault(str(r["expected"]), {"n": 0, "strict": 0, "equiv": 0})
            d["n"] += 1
            d["strict"] += int(r["predicted"] == r["expected"])
            d["equiv"] += int(r["predicted"] == r["expected"] or bool(r["equiv_recovered"]))
        for d in per.values():
            d["strict_accuracy"] = d["strict"] / d["n"]
            d["equiv_accuracy"] = d["equiv"] / d["n"]
        return {
            "failure_insights": summarize_failures(rows, modes=(*SORTER_FAILURE_MODES, "unusable")),
            "per_subtype": dict(sorted(per.items())),
            "confusion_matrix": confusion(
                [(str(r["expected"]), str(r["predicted"] or "<none>")) for r in rows]
            ),
        }
