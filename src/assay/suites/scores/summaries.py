"""The run's summaries: which tool's file was read, and what that tool itself reported beside
what assay finds, with the reasons the two may differ.

``source``           the tool, its file's format, the system (task · model, or provider ·
                     prompt), the tool's version and the run's provenance as the file gives it
``own``              each figure the tool reported (Inspect's ``accuracy`` ± ``stderr``,
                     lm-eval's ``acc,none`` ± ``acc_stderr,none``, promptfoo's pass rate) with
                     assay's mean of the same score over the same items and the difference
``unscored``         the items without a value, by score
``clusters``         the cluster field's number of clusters (the CIs resample them)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay.suites.scores.scorer import UNSCORED
from assay.suites.scores.settings import ScoresSettings

#: why assay's figure may differ from the tool's, stated once in each "own" entry
MISSING_RULE = (
    "assay counts a missing or unscored item 0 and keeps it in the denominator; the tool "
    "leaves it out"
)
CI_RULE = (
    "assay's CI is a percentile bootstrap over items; its 95% half-width is close to "
    "1.96 · stderr · √((n−1)/n) of the tool's stderr (the bootstrap's variance of a mean "
    "divides by n, the stderr's by n−1)"
)
CLUSTER_RULE = (
    "the tool's stderr is clustered; assay's CI resamples the same clusters when "
    "--cluster-field names them (else items)"
)


def _assay_mean(scores: Sequence[ItemScore], score: str) -> tuple[float | None, int]:
    total = count = 0.0
    for s in scores:
        total += s.stats.get(score, 0.0)
        count += s.stats.get(f"{score}#n", 0.0)
    return (total / count if count else None), int(count)


def summaries(
    items: Sequence[Item], scores: Sequence[ItemScore], settings: ScoresSettings
) -> dict[str, Any]:
    info = settings._bridge
    out: dict[str, Any] = {}
    if info is None:
        return out
    out["source"] = {
        "tool": info.source,
        "format": info.format,
        "path": info.path,
        "system": info.system,
        "task": info.task,
        "model": info.model,
        "tool_version": info.tool_version,
        "reducer": info.reducer,
        "samples_per_item": info.samples_per_item,
        "provenance": info.provenance,
    }
    own = []
    for figure in info.own:
        if settings.scores is not None and figure.score not in settings.scores:
            continue
        mean, n = _assay_mean(scores, figure.score)
        entry = asdict(figure) | {"assay_mean": mean, "assay_n": n}
        notes = []
        if mean is not None and figure.value is not None:
            entry["difference"] = mean - figure.value
            if figure.n is not None and figure.n != n:
                notes.append(MISSING_RULE)
        if figure.stderr is not None:
            notes.append(CI_RULE)
        if "cluster" in figure.note:
            notes.append(CLUSTER_RULE)
        if info.reducer not in (None, settings.reducer) and (info.samples_per_item or 1) > 1:
            notes.append(f"the tool reduced samples by {info.reducer}, assay by {settings.reducer}")
        entry["notes"] = notes
        own.append(entry)
    out["own"] = own
    unscored: dict[str, list[str]] = {}
    for item, s in zip(items, scores, strict=True):
        for name in s.details.get(UNSCORED, ()):
            unscored.setdefault(name, []).append(item.id)
    out["unscored"] = unscored
    out["sample_errors"] = sum(1 for s in scores if "sample_error" in s.flags)
    if settings.cluster_field:
        out["clusters"] = {
            "field": settings.cluster_field,
            "n_clusters": info.n_clusters,
            "note": "the CIs and paired tests resample these clusters",
        }
    warnings = list(info.warnings)
    if (info.samples_per_item or 1) > 1 and info.reducer not in (None, settings.reducer):
        warnings.append(
            f"the log reduced its samples by {info.reducer!r}, assay by {settings.reducer!r} "
            f"(--reducer {info.reducer} to match, where assay has it)"
        )
    out["warnings"] = warnings
    return out
