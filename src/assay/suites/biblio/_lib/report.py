"""The seed-shaped evaluation JSON, built from a Run (nothing is rescored).

Fields: metrics_version, generated_at, scoring_commit, predictions_dir,
predictions_tree_sha256, papers_attempted / evaluated / missing / unmatched with ids, metrics
(mean, p10, median, min, max, n, the CI, and micro averages, field coverage and
mean_incl_abstained where they apply), pass_rate, pass_rate_n, pass_rate_excl_abstained,
abstention_rate, n_abstained, abstained_ids and per_paper.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from assay._engine.provenance import evaluator
from assay._engine.run import MetricResult, Run
from assay.suites.biblio.metrics import (
    METRICS,
    METRICS_VERSION,
    MICRO,
    SECTION_METRICS,
    SUPPRESSIBLE,
    incl_name,
    micro_name,
)


def _entry(m: MetricResult) -> dict[str, Any]:
    return {
        "mean": m.value,
        "p10": m.p10,
        "median": m.median,
        "min": m.min,
        "max": m.max,
        "n": m.n,
        "ci_lower": m.ci_lower,
        "ci_upper": m.ci_upper,
    }


def _column_sum(run: Run, column: str) -> int:
    table = run.table()
    if column not in table.columns:
        return 0
    return round(float(table.column(column).sum()))


def _cohort(run: Run, predictions_dir: str) -> dict[str, Any]:
    c = run.cohort
    return {
        "metrics_version": METRICS_VERSION,
        "generated_at": run.generated_at,
        # the evaluator: assay's version and the commit of assay's own checkout (None when
        # assay is not run from a git checkout of itself), never the working directory's
        "scoring_commit": run.provenance.git_commit,
        "evaluator": evaluator(run.assay_version, run.provenance.git_commit),
        "assay_version": run.assay_version,
        "run_id": run.run_id,
        "predictions_dir": predictions_dir,
        "predictions_tree_sha256": run.provenance.predictions_sha256,
        "gold_tree_sha256": run.provenance.gold_sha256,
        "papers_attempted": c.attempted,
        "papers_evaluated": c.evaluated,
        "papers_missing": c.missing,
        "missing_ids": c.missing_ids,
        "papers_failed": c.failed,
        "failed": [f.model_dump() for f in c.failures],
        "papers_unmatched": c.unmatched,
        "unmatched_ids": c.unmatched_ids,
        # prediction files that could not be read and whose name is no gold paper's (bibr drops
        # them silently; an unreadable file of a gold paper is a failed row, above)
        "papers_unreadable": len(c.parse_failures),
        "unreadable": [f.model_dump() for f in c.parse_failures],
        # expected ids with no gold record: a missing row each when no prediction either, the
        # prediction's unmatched entry otherwise
        "papers_expected_without_gold": len(c.no_gold_ids),
        "expected_without_gold_ids": c.no_gold_ids,
        # gold papers with neither a prediction nor an expected id: not in the denominator
        "papers_gold_not_in_cohort": c.excluded,
        "dialects": run.summaries.get("dialects", {}),
    }


def _per_paper(run: Run) -> list[dict[str, Any]]:
    return [
        {
            "id": item.id,
            "status": item.status,
            "source": item.source,
            "error": item.error,
            "scores": item.scores,
            "flags": item.flags,
            **{k: v for k, v in item.details.items() if k not in ("error",)},
        }
        for item in run.items
    ]


def metadata_view(run: Run, *, predictions_dir: str) -> dict[str, Any]:
    """The seed's output table for a metadata run."""
    s = run.summaries
    metrics: dict[str, Any] = {}
    for name, (tier, _) in METRICS.items():
        entry = {"tier": tier, **_entry(run.metrics[name])}
        if name in MICRO:
            micro = run.metrics[micro_name(name)]
            entry.update(
                micro_mean=micro.value,
                micro_correct=_column_sum(run, f"{name}#correct"),
                micro_denominator=_column_sum(run, f"{name}#den"),
                micro_ci_lower=micro.ci_lower,
                micro_ci_upper=micro.ci_upper,
                **s.get("reference_coverage", {}).get(name, {}),
            )
        if name in SUPPRESSIBLE:
            entry["n_abstained_suppressed"] = sum(
                1 for item in run.items if name in item.details.get("suppressed", ())
            )
            if incl_name(name) in run.metrics:
                entry["mean_incl_abstained"] = run.metrics[incl_name(name)].value
        metrics[name] = entry
    return {
        **_cohort(run, predictions_dir),
        "metrics": metrics,
        "pass_rate": s.get("pass_rate"),
        "pass_rate_n": s.get("pass_rate_n"),
        "pass_rate_ci": [run.metrics["pass_rate"].ci_lower, run.metrics["pass_rate"].ci_upper],
        "pass_rate_excl_abstained": s.get("pass_rate_excl_abstained"),
        "pass_rate_excl_abstained_n": s.get("pass_rate_excl_abstained_n"),
        "abstention_rate": s.get("abstention_rate"),
        "n_abstained": s.get("n_abstained"),
        "abstained_ids": s.get("abstained_ids", []),
        "per_paper": _per_paper(run),
    }


def sections_view(run: Run, *, predictions_dir: str) -> dict[str, Any]:
    """The section-text output: recall, coverage, the drop report and per-type recall."""
    s = run.summaries
    metrics = {
        name: {"tier": tier, **_entry(run.metrics[name])}
        for name, (tier, _) in SECTION_METRICS.items()
    }
    micro = run.metrics["layout_recall_micro"]
    metrics["layout_recall"].update(
        micro_mean=micro.value,
        micro_correct=_column_sum(run, "layout#overlap"),
        micro_denominator=_column_sum(run, "layout#gold"),
    )
    per_type = {
        t: {
            **v,
            "ci_lower": run.metrics[f"section_recall[{t}]"].ci_lower,
            "ci_upper": run.metrics[f"section_recall[{t}]"].ci_upper,
        }
        for t, v in s.get("per_type_recall", {}).items()
    }
    return {
        **_cohort(run, predictions_dir),
        "mode": "sections",
        "metrics": metrics,
        "per_type_recall": per_type,
        "drop_report": s.get("drop_report", []),
        "n_dropped_sections": s.get("n_dropped_sections", 0),
        "per_paper": _per_paper(run),
    }


def write_view(view: dict[str, Any], path: Path) -> Path:
    """Write the view as indented UTF-8 JSON (NaN never appears: undefined values are null)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(view, indent=2, ensure_ascii=False, allow_nan=False) + "\n", encoding="utf-8"
    )
    return path
