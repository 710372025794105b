"""The ContractEval suite (seed 000 §8, §17): the benchmark's confusion over (contract,
category) pairs, accuracy / precision / recall / F1 / F2, token-set Jaccard over positive pairs
and the "no related clause" laziness rates, pooled and per category."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import ItemScore, LoadedInputs, Task
from assay._fields.display import display_value
from assay._labels import is_error_output
from assay._legal.contracteval import (
    contracteval_outcome,
    pair_jaccard,
    said_no_related,
)
from assay._legal.mapping import (
    BEST_CONTAINMENT_FIELD,
    DEFAULT_BANDS,
    STRUCTURAL_PRECISION_CAVEAT,
)
from assay._legal.records import load_inputs, optional_text, span_list
from assay.metrics.spec import (
    MetricSpec,
    Tier,
    fbeta_metric,
    mean_columns,
    mean_metric,
    precision_metric,
    ratio_metric,
    recall_metric,
)
from assay.suites.contracteval.settings import ContractEvalSettings

OUTCOMES = ("tp", "fn", "tn", "fp")
#: characters of a gold clause or an answer kept per pair for the report
CLAUSE_CHARS = 240


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _category_key(category: Any) -> str:
    return str(category).strip() if category is not None else ""


def confusion_specs(suffix: str = "", *, per_category: bool = False) -> list[MetricSpec]:
    """accuracy / precision / recall / F1 / F2 over the columns ``tp{suffix}``, ``fp{suffix}``..."""
    s = suffix
    core: Tier = "diagnostic" if per_category else "core"
    head: Tier = "diagnostic" if per_category else "headline"
    return [
        ratio_metric(
            f"accuracy{s}",
            f"correct{s}",
            f"pairs{s}",
            tier=core,
            description="(TP + TN) / all pairs",
        ),
        precision_metric(
            f"precision{s}", f"tp{s}", f"fp{s}", tier=core, description="TP / (TP + FP)"
        ),
        recall_metric(f"recall{s}", f"tp{s}", f"fn{s}", tier=core, description="TP / (TP + FN)"),
        fbeta_metric(
            f"f1{s}",
            f"tp{s}",
            f"fp{s}",
            f"fn{s}",
            beta=1.0,
            tier=head,
            description="2PR / (P + R) = 2TP / (2TP + FP + FN)",
        ),
        fbeta_metric(
            f"f2{s}",
            f"tp{s}",
            f"fp{s}",
            f"fn{s}",
            beta=2.0,
            tier=head,
            description="5PR / (4P + R) = 5TP / (5TP + 4FN + FP)",
        ),
    ]


class ContractEvalTask(Task[ContractEvalSettings]):
    """ContractEval: one (contract, category) pair per item, gold spans and the model answer."""

    name: ClassVar[str] = "contracteval"
    description: ClassVar[str] = (
        "ContractEval clause rubric: accuracy/P/R/F1/F2, Jaccard, no-related-clause rates"
    )
    metrics_version: ClassVar[int] = 1
    settings_model = ContractEvalSettings

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
        spans: list[str] = list(item.gold.get(settings.spans_field) or [])
        category = _category_key(item.gold.get(settings.category_field))
        raw = item.pred.get(settings.output_field) if item.pred is not None else None
        output = raw if isinstance(raw, str) and item.status == "ok" else None
        outcome = contracteval_outcome(spans, output)
        positive = bool(spans)
        no_related = said_no_related(output)
        jac = pair_jaccard(spans, output)
        stats: dict[str, float] = {}
        for suffix in ("", f"[{category}]") if settings.per_category else ("",):
            for o in OUTCOMES:
                stats[f"{o}{suffix}"] = float(outcome == o)
            stats[f"correct{suffix}"] = float(outcome in ("tp", "tn"))
            stats[f"pairs{suffix}"] = 1.0
        stats.update(
            {
                "positive": float(positive),
                "said_no_related": float(no_related),
                "false_no_related": float(no_related and positive),
                **mean_columns("jaccard", jac),
            }
        )
        flags: list[str] = [item.status] if item.status != "ok" else []
        if is_error_output(raw):
            flags.append("error_row")
        if output is None:
            flags.append("no_output")
        return ItemScore(
            stats=stats,
            scores={"correct": stats["correct"], "jaccard": jac},
            flags=tuple(flags),
            details={
                "category": category,
                "outcome": outcome,
                "positive": positive,
                "said_no_related": no_related,
                "n_gold_spans": len(spans),
                "best_containment": _number(item.gold.get(BEST_CONTAINMENT_FIELD)),
                # compact, for the report's gold beside prediction (never scored from)
                "gold": display_value(spans, chars=CLAUSE_CHARS) or "(no clause)",
                **(
                    {"predicted": shown}
                    if (shown := display_value(output, chars=CLAUSE_CHARS)) is not None
                    else {}
                ),
            },
        )

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: ContractEvalSettings
    ) -> list[MetricSpec]:
        specs = confusion_specs()
        specs += [
            mean_metric(
                "jaccard",
                "jaccard",
                tier="headline",
                description="mean token-set Jaccard over positive pairs (spans joined by a space)",
            ),
            ratio_metric(
                "no_related_rate",
                "said_no_related",
                "pairs",
                higher_is_better=False,
                description='share of all pairs answered "no related clause"',
            ),
            ratio_metric(
                "false_no_related_rate",
                "false_no_related",
                "positive",
                tier="headline",
                higher_is_better=False,
                description='share of this run\'s positive pairs answered "no related clause"',
            ),
            MetricSpec(
                "false_no_related_rate_paper",
                "fixed_denominator",
                ("false_no_related",),
                params={"denominator": float(settings.paper_positives)},
                higher_is_better=False,
                description=f'false "no related clause" answers / {settings.paper_positives} '
                "(the paper's fixed positive count)",
            ),
        ]
        if settings.per_category:
            for cat in sorted({str(sc.details["category"]) for sc in scores}):
                specs += confusion_specs(f"[{cat}]", per_category=True)
        return specs

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: ContractEvalSettings
    ) -> dict[str, Any]:
        """The confusion counts, pooled and per category, and the laziness counts."""
        pooled = Counter(str(sc.details["outcome"]) for sc in scores)
        per_cat: dict[str, Counter[str]] = {}
        for sc in scores:
            per_cat.setdefault(str(sc.details["category"]), Counter())[
                str(sc.details["outcome"])
            ] += 1
        mapped = [
            sc.details["best_containment"]
            for sc in scores
            if sc.details["positive"] and sc.details["best_containment"] is not None
        ]
        extra: dict[str, Any] = {}
        if mapped:
            extra["coverage_bands"] = {
                f"containment>={t}": sum(v >= t for v in mapped) / len(mapped)
                for t in DEFAULT_BANDS
            } | {"n_positive": len(mapped)}
            extra["caveat"] = STRUCTURAL_PRECISION_CAVEAT
        return {
            **extra,
            "confusion": {o.upper(): pooled.get(o, 0) for o in OUTCOMES},
            "per_category": {
                c: {o.upper(): n.get(o, 0) for o in OUTCOMES} for c, n in sorted(per_cat.items())
            },
            "n_pairs": len(scores),
            "n_positive": sum(1 for sc in scores if sc.details["positive"]),
            "n_no_related": sum(1 for sc in scores if sc.details["said_no_related"]),
            "n_error_rows": sum(1 for sc in scores if "error_row" in sc.flags),
            "n_no_output": sum(1 for sc in scores if "no_output" in sc.flags),
        }

    def cli_group(self) -> Any:
        from assay._cli.legal import legal_group

        return legal_group
