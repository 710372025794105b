"""Hierarchical doc classification (seed 000 §7): a primary doc_type and a second-level
subclass, scored apart and together. Shared by the docclass and MAUD suites.

doc_type_accuracy = share of rows with the right primary class; subclass_accuracy = share of
rows *with subclass gold* whose subclass is right, whatever the doc_type (rows without one
are not scored);
subclass_accuracy_equiv also accepts a listed equivalent family; exact_match = doc_type and
(when gold has one) subclass both right.

:func:`score_row`, :func:`hierarchical_specs` and :func:`hierarchical_summaries` are the row, the
metrics and the summaries; a suite binds them with its subclass normalization (its
``scorer.py``, ``metrics.py`` and ``summaries.py``) on :class:`HierarchicalTask`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import Field

from assay._engine.item import Item
from assay._engine.task import ItemScore, LoadedInputs, Task
from assay._labels import (
    DOC_SUBCLASS_EQUIVALENCES,
    DOCCLASS_FAILURE_MODES,
    classify_docclass_failure,
    confusion,
    equivalence_set,
    equivalent,
    is_blank,
    is_error_output,
    normalize_label,
    summarize_failures,
)
from assay._legal.labelsuite import raw_text
from assay._legal.records import load_inputs, optional_label
from assay._settings.model import SuiteSection
from assay.metrics.spec import MetricSpec, mean_columns, mean_metric, ratio_metric

#: subclass answer → canonical key
SubclassNormalizer = Callable[[Any], str]
INPUT_MODES = ("text", "vision", "text_fallback")


class HierarchicalSettings(SuiteSection):
    """Field names of a row and the subclass equivalences."""

    id_field: str = Field("id", description="record field holding the item id")
    expected_field: str = Field("expected", description="gold doc_type field")
    expected_subclass_field: str = Field(
        "expected_subclass", description="gold subclass field (null = no second level)"
    )
    predicted_field: str = Field("predicted", description="predicted doc_type field")
    predicted_subclass_field: str = Field(
        "predicted_subclass", description="predicted subclass field"
    )
    confidence_field: str = Field("confidence", description="model-reported confidence")
    equivalences: list[list[str]] = Field(
        default_factory=lambda: [list(p) for p in DOC_SUBCLASS_EQUIVALENCES],
        description="subclass pairs counted by subclass_accuracy_equiv",
        json_schema_extra={"cli": False},
    )


#: the settings model of a hierarchical suite: HierarchicalSettings or a subclass of it
HierarchicalSettingsT = TypeVar("HierarchicalSettingsT", bound=HierarchicalSettings)


def _confidence(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if value == value else None


def score_row(
    item: Item, settings: HierarchicalSettings, subclass_key: SubclassNormalizer
) -> ItemScore:
    """The row's columns and details; ``subclass_key`` is the suite's subclass normalization.
    An ``ERROR:`` answer, a blank one or a failed row is unusable (a miss)."""
    pairs = equivalence_set(settings.equivalences)
    pred = item.pred or {}
    expected = normalize_label(item.gold.get(settings.expected_field))
    raw_sub_gold = item.gold.get(settings.expected_subclass_field)
    expected_sub = None if is_blank(raw_sub_gold) else subclass_key(raw_sub_gold)
    raw = pred.get(settings.predicted_field)
    flags: list[str] = [item.status] if item.status != "ok" else []
    if is_error_output(raw):
        flags.append("error_row")
    elif item.status == "ok" and is_blank(raw):
        flags.append("blank")
    usable = not flags
    predicted = normalize_label(raw) if usable else None
    raw_sub = pred.get(settings.predicted_subclass_field) if usable else None
    predicted_sub = None if is_blank(raw_sub) else subclass_key(raw_sub)
    doc_type_ok = predicted == expected
    # the subclass alone (seed 000 §7), on rows with subclass gold: a wrong doc_type costs
    # exact_match, not subclass_accuracy
    subclass_ok = None if expected_sub is None else predicted_sub == expected_sub
    subclass_ok_equiv = (
        None if expected_sub is None else equivalent(expected_sub, predicted_sub, pairs)
    )
    exact = doc_type_ok and subclass_ok is not False
    mode = classify_docclass_failure(doc_type_ok=doc_type_ok, subclass_ok=subclass_ok)
    input_mode = pred.get("input_mode")
    stats = {
        **mean_columns("doc_type_accuracy", float(doc_type_ok)),
        **mean_columns("subclass_accuracy", None if subclass_ok is None else float(subclass_ok)),
        **mean_columns(
            "subclass_accuracy_equiv",
            None if subclass_ok_equiv is None else float(subclass_ok_equiv),
        ),
        **mean_columns("exact_match", float(exact)),
        **mean_columns("confidence", _confidence(pred.get(settings.confidence_field))),
        f"doc_type_correct[{expected}]": float(doc_type_ok),
        f"doc_type_count[{expected}]": 1.0,
    }
    if expected_sub is not None:
        stats[f"subclass_correct[{expected_sub}]"] = float(bool(subclass_ok))
        stats[f"subclass_count[{expected_sub}]"] = 1.0
    return ItemScore(
        stats=stats,
        scores={"exact_match": float(exact), "doc_type_ok": float(doc_type_ok)},
        flags=tuple(flags),
        details={
            "expected": expected,
            "predicted": predicted,
            "expected_subclass": expected_sub,
            "predicted_subclass": predicted_sub,
            "doc_type_ok": doc_type_ok,
            "subclass_ok": subclass_ok,
            "subclass_ok_equiv": subclass_ok_equiv,
            "failure_mode": mode,
            "input_mode": input_mode if isinstance(input_mode, str) else None,
            "fallback_reason": raw_text(pred.get("fallback_reason")),
            "reasoning": raw_text(pred.get("reasoning")),
            "filename": raw_text(item.gold.get("filename", pred.get("filename"))),
            "confidence": _confidence(pred.get(settings.confidence_field)),
        },
    )


def hierarchical_specs(scores: Sequence[ItemScore]) -> list[MetricSpec]:
    """doc_type_accuracy, subclass_accuracy (strict and equiv), exact_match, confidence, then
    the accuracy of every primary class and every subclass seen (diagnostic)."""
    specs = [
        mean_metric(
            "doc_type_accuracy",
            "doc_type_accuracy",
            tier="headline",
            description="share of rows with the right primary class",
        ),
        mean_metric(
            "subclass_accuracy",
            "subclass_accuracy",
            tier="headline",
            description="share of rows with subclass gold whose subclass is right "
            "(rows without subclass gold are not scored)",
        ),
        mean_metric(
            "subclass_accuracy_equiv",
            "subclass_accuracy_equiv",
            description="subclass right or a listed equivalent family",
        ),
        mean_metric(
            "exact_match",
            "exact_match",
            tier="headline",
            description="doc_type and (when gold has one) subclass both right",
        ),
        mean_metric(
            "confidence",
            "confidence",
            tier="diagnostic",
            description="mean model-reported confidence",
        ),
    ]
    for c in sorted({str(sc.details["expected"]) for sc in scores}):
        specs.append(
            ratio_metric(
                f"per_class_accuracy[{c}]",
                f"doc_type_correct[{c}]",
                f"doc_type_count[{c}]",
                tier="diagnostic",
                description=f"doc_type accuracy on rows of class {c}",
            )
        )
    subs = {sc.details["expected_subclass"] for sc in scores}
    for c in sorted(str(x) for x in subs if x is not None):
        specs.append(
            ratio_metric(
                f"per_subclass_accuracy[{c}]",
                f"subclass_correct[{c}]",
                f"subclass_count[{c}]",
                tier="diagnostic",
                description=f"subclass accuracy on rows of subclass {c}",
            )
        )
    return specs


def hierarchical_summaries(items: Sequence[Item], scores: Sequence[ItemScore]) -> dict[str, Any]:
    """Subclass support and confusion, the doc_type confusion, the ids recovered by an
    equivalence, the input-mode counts and the failure insights (docclass modes)."""
    rows = [{"id": it.id, **sc.details} for it, sc in zip(items, scores, strict=True)]
    sub_pairs = [
        (str(r["expected_subclass"]), str(r["predicted_subclass"]))
        for r in rows
        if r["expected_subclass"] is not None
    ]
    support = Counter(e for e, _ in sub_pairs)
    modes = Counter(str(r["input_mode"]) for r in rows if r["input_mode"] is not None)
    return {
        "per_subclass_support": dict(sorted(support.items())),
        "subclass_confusion": confusion(sub_pairs),
        "doc_type_confusion": confusion(
            [(str(r["expected"]), str(r["predicted"])) for r in rows if r["predicted"]]
        ),
        "equiv_recovered": [
            r["id"] for r in rows if r["subclass_ok"] is False and r["subclass_ok_equiv"]
        ],
        "input_mode_counts": {m: modes.get(m, 0) for m in INPUT_MODES}
        | {m: n for m, n in sorted(modes.items()) if m not in INPUT_MODES},
        "failure_insights": summarize_failures(
            [
                {
                    **r,
                    "expected": [r["expected"], r["expected_subclass"]],
                    "predicted": [r["predicted"], r["predicted_subclass"]],
                }
                for r in rows
            ],
            modes=DOCCLASS_FAILURE_MODES,
        ),
    }


class HierarchicalTask(Task[HierarchicalSettingsT]):
    """doc_type + subclass per row; the subclass normalization is the suite's."""

    def subclass_key(self, value: Any) -> str:
        """The canonical subclass; plain label normalization by default."""
        return normalize_label(value)

    def load(
        self, pred: Path, gold: tuple[Path, ...], settings: HierarchicalSettingsT
    ) -> LoadedInputs:
        return load_inputs(
            pred,
            gold,
            suite=self.name,
            id_field=settings.id_field,
            gold_checks={settings.expected_field: optional_label},
            pred_checks={settings.predicted_field: optional_label},
        )

    def score_item(self, item: Item, settings: HierarchicalSettingsT) -> ItemScore:
        return score_row(item, settings, self.subclass_key)

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: HierarchicalSettingsT
    ) -> list[MetricSpec]:
        return hierarchical_specs(scores)

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: HierarchicalSettingsT
    ) -> dict[str, Any]:
        return hierarchical_summaries(items, scores)
