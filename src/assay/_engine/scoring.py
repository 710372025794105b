"""The one flow: files → records → Cohort → StatsTable → metrics → Run, in three steps.

1. **plan** (``_engine/plan.py``): ``score``'s arguments resolved once against the settings
   into a frozen `ScoringPlan` (task, settings section, statistics settings, inputs, executor
   choice), then the files read by the suite (`read_inputs`);
2. **execute** (``_engine/executors.py``): the records paired into a cohort and its items
   scored block by block, by the one executor chosen for the run (in memory or out of core;
   here, on a local pool or on Dask), into the statistics table (`Scored`);
3. **aggregate** (here): the task's metric specs over the table, with their CIs and the run's
   warnings (`aggregate_run`), then the Run envelope: provenance, surface, run id, signature.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from assay._engine.clusters import ClusterLabels
from assay._engine.executors import Scored, choose_executor
from assay._engine.executors import score_items as score_items  # re-exported (_engine, tests)
from assay._engine.inmemory import Records, input_files, relabel
from assay._engine.plan import (
    PathLike,
    Progress,
    ReadInputs,
    RunInputs,
    ScoringPlan,
    StagedProgress,
    plan_scoring,
    read_inputs,
    start_stage,
)
from assay._engine.plan import resolve_section as resolve_section  # re-exported (benchmarks)
from assay._engine.provenance import git_commit, json_sha256, tree_sha256
from assay._engine.registry import get_task
from assay._engine.run import MetricResult, Provenance, Run, Surface, UnitsRecord
from assay._engine.samples import (
    pass_at_specs,
    sample_summary,
    sample_warnings,
    variance_shares,
)
from assay._engine.scorecard import aggregate
from assay._engine.signature import run_signature
from assay._engine.task import BlockSummaries, Task, collector_paused, run_metric_specs
from assay._io.decoding import reading_progress
from assay._settings import Settings, StatsSettings, get_settings
from assay._version import __version__
from assay.errors import UsageError
from assay.metrics.spec import MetricSpec
from assay.stats.units import FEW_CLUSTERS, ITEMS, Units, few_units_factor

if TYPE_CHECKING:  # (concurrent.futures, and logging with it, load only for a pool)
    from concurrent.futures import Executor


def score(
    task: str | Task[Any],
    *,
    pred: PathLike | Records | None = None,
    gold: PathLike | Sequence[PathLike] | Records | None = None,
    predictions: PathLike | Records | None = None,
    name: str | None = None,
    expected_ids: PathLike | None = None,
    ids_file: PathLike | None = None,
    ci: bool | None = None,
    n_bootstrap_ci: int | None = None,
    seed: int | None = None,
    alpha: float | None = None,
    jobs: int | None = None,
    executor: Executor | str | None = None,
    settings: Settings | None = None,
    progress: Progress | None = None,
    resampling: str | None = None,
    partitions: int | None = None,
    spill: bool | None = None,
    spill_dir: PathLike | None = None,
    samples: bool | None = None,
    sample_field: str | None = None,
    pass_at: Sequence[int] | None = None,
    clusters: PathLike | None = None,
    **options: Any,
) -> Run:
    """Score predictions against gold with task ``task`` and return the Run.

    ``options`` override the task's settings section (e.g. ``positive="yes"``); None-valued
    options are ignored so CLI defaults do not mask the settings file. ``executor`` is an
    Executor, ``"process"``/``"thread"`` or ``"dask://HOST:PORT"`` (scores and reduces item
    partitions on that Dask cluster); ``resampling`` is ``"multinomial"`` or ``"poisson"``.
    ``spill`` scores out of core (per-item data in temporary files under ``spill_dir``, default
    the system's temporary folder; see ``_engine/outofcore.py``): None chooses it from
    ``SPILL_THRESHOLD`` gold records up. The run is the same either way. ``clusters`` is a
    file mapping item ids to clusters (``--clusters``); with it, or with the option
    ``cluster_by="FIELD"``, CIs resample clusters (``_engine/clusters.py``).

    ``samples`` reads several predictions per id as samples of one item (``sample_field``
    names their index field; see ``_engine/samples.py``): each item's statistics row is the
    mean over its samples, with pass@k for each k of ``pass_at`` (default 1 and the most
    samples of an item) and each per-item mean metric's within-item variance share in the
    ``samples`` summary. None-valued, they fall back on the ``run`` settings.

    ``predictions`` (or ``pred``) and ``gold`` are paths, or records in memory: a list of
    dicts, a pandas DataFrame or a pyarrow Table (``_engine/inmemory.py``), read by the suite's
    own reader and scored through the same cohort, statistics and Run.
    """
    if pred is not None and predictions is not None:
        raise UsageError("give predictions= or pred=, not both")
    source = predictions if predictions is not None else pred
    with (
        input_files(source, gold) as (pred_path, gold_paths, folder),
        collector_paused(promote=True),
    ):
        settings = settings or get_settings()
        plan = plan_scoring(
            get_task(task) if isinstance(task, str) else task,
            RunInputs(pred_path, gold_paths, expected_ids, ids_file),
            settings,
            options=options,
            stats_options={
                "ci": ci,
                "n_bootstrap_ci": n_bootstrap_ci,
                "seed": seed,
                "alpha": alpha,
                "resampling": resampling,
            },
            jobs=jobs,
            executor=executor,
            partitions=partitions,
            spill=spill,
            spill_dir=spill_dir,
            name=name,
            progress=progress,
            sample_options={"samples": samples, "sample_field": sample_field, "pass_at": pass_at},
            clusters=clusters,
        )
        run = run_plan(plan)
        return run if folder is None else _relabelled(run, folder)


def run_plan(plan: ScoringPlan) -> Run:
    """plan → execute → aggregate: the files read, the items paired and scored by the chosen
    executor into the statistics table, the metrics aggregated into the Run. A
    ``StagedProgress`` hears each stage begin: reading (bytes of the input files), scoring
    (items, from the executor), resampling."""
    with _reading(plan):
        read = read_inputs(plan)
    start_stage(plan.progress, "scoring")
    scored = choose_executor(plan, read).execute(plan, read)
    start_stage(plan.progress, "resampling" if plan.stats.ci else "aggregating")
    return aggregate_run(plan, read, scored)


@contextmanager
def _reading(plan: ScoringPlan) -> Iterator[None]:
    """The reading stage: the bytes read from the input files (``_io.decoding``) reported
    against their total size, to a ``StagedProgress``."""
    progress = plan.progress
    if not isinstance(progress, StagedProgress):
        yield
        return
    inputs = plan.inputs
    total = input_bytes([inputs.pred, *inputs.gold])
    start_stage(progress, "reading", total)
    done = 0

    def advance(n: int) -> None:
        nonlocal done
        done += n
        progress(min(done, total) if total else done, total or 0)

    with reading_progress(advance):
        yield


#: files counted in a folder's size before it is called unknown (``input_bytes``)
_MAX_COUNTED = 100_000


def input_bytes(paths: Sequence[PathLike]) -> int | None:
    """The bytes of the input files (a folder's files counted through its subfolders), or None
    when unknown (a missing path, a folder of more than ``_MAX_COUNTED`` files)."""
    total, counted = 0, 0
    stack = [os.fspath(p) for p in paths]
    try:
        while stack:
            path = stack.pop()
            if not os.path.isdir(path):
                total += os.stat(path).st_size
                continue
            for entry in os.scandir(path):
                counted += 1
                if counted > _MAX_COUNTED:
                    return None
                if entry.is_dir():
                    stack.append(entry.path)
                elif entry.is_file():
                    total += entry.stat().st_size
    except OSError:
        return None
    return total


def _relabelled(run: Run, folder: Path) -> Run:
    """``run`` with the temporary files its in-memory records were written to named as
    records (``inmemory.relabel``): the whole artifact, or for a spilled run its provenance."""
    if not run.spilled:
        return Run.model_validate_json(relabel(run.to_json(), folder))
    provenance = json.loads(relabel(run.provenance.model_dump_json(), folder))
    run.provenance = Provenance.model_validate(provenance)
    return run


# ----------------------------------------------------------------------------- aggregate


def aggregate_run(plan: ScoringPlan, read: ReadInputs, scored: Scored) -> Run:
    """The Run: the task's metric specs over the scored table with their CIs, the summaries,
    the warnings, and the envelope that says what produced them."""
    task, section, stats = plan.task, read.section, plan.stats
    specs = run_metric_specs(task, scored.scores, section, scored.table.columns)
    if scored.samples is not None:
        specs += pass_at_specs(scored.samples)
    ci_warning = _ci_warning(stats, len(scored.table))
    units = (
        ITEMS
        if scored.clusters is None
        else Units(scored.clusters.choice.by, scored.clusters.labels)
    )
    metrics = aggregate(
        scored.table,
        specs,
        ci=stats.ci,
        n_bootstrap=stats.n_bootstrap_ci,
        seed=stats.seed,
        alpha=stats.alpha,
        resampling=stats.resampling,
        replicate_sums=scored.replicate_sums,
        units=units,
    )
    summaries = _summaries(task, scored, section)
    warnings = [*scored.accounting.warnings, *ci_warning, *_undefined(metrics)]
    if scored.samples is not None:
        shares = variance_shares(scored.samples, specs)
        summaries = {**summaries, "samples": sample_summary(scored.samples, shares)}
        warnings += sample_warnings(scored.samples)
    warnings += _cluster_warnings(scored.clusters, stats.alpha)
    # a suite's summaries may carry "warnings" (a label set without some gold classes, ...)
    warnings += [w for w in summaries.get("warnings", []) if isinstance(w, str)]
    return _envelope(plan, read, scored, specs, metrics, summaries, warnings)


def _ci_warning(stats: StatsSettings, n_items: int) -> list[str]:
    """A warning when bootstrap CIs rest on fewer than ``min_items_ci`` items."""
    if stats.ci and 0 < n_items < stats.min_items_ci:
        return [
            f"only {n_items} items: bootstrap confidence intervals may have poor coverage "
            f"(fewer than {stats.min_items_ci})"
        ]
    return []


def _cluster_warnings(clusters: ClusterLabels | None, alpha: float) -> list[str]:
    """The warnings resolving the clusters gave and, below ``FEW_CLUSTERS`` clusters, that
    the cluster bootstrap's coverage may be poor and how comparisons are tested instead."""
    if clusters is None:
        return []
    out = list(clusters.warnings)
    m = clusters.n_clusters
    if m < FEW_CLUSTERS:
        by = clusters.choice.by
        out.append(
            f"only {m} clusters ({by}): cluster-bootstrap CIs may have poor coverage below "
            f"{FEW_CLUSTERS} clusters (widened ×{few_units_factor(m, alpha):.2f} for it); "
            f"comparisons use the exact or randomization test over the {by} clusters"
        )
    return out


def _undefined(metrics: Mapping[str, MetricResult]) -> list[str]:
    """A warning per metric without a value (no items to score it)."""
    return [
        f"metric {m.name} is undefined on this run (no items to score it)"
        for m in metrics.values()
        if m.value is None
    ]


def _summaries(task: Task[Any], scored: Scored, section: BaseModel) -> dict[str, Any]:
    """The suite's summaries: merged from its block summaries when it gives them, else made
    from the items and scores."""
    if isinstance(task, BlockSummaries) and scored.summary_parts is not None:
        return task.merge_summaries(scored.summary_parts, section)
    if scored.samples is not None and scored.samples.summaries is not None:
        return scored.samples.summaries  # over every sample, taken before they were folded
    return task.summaries(scored.items, scored.scores, section)


# ----------------------------------------------------------------------------- the envelope


def _envelope(
    plan: ScoringPlan,
    read: ReadInputs,
    scored: Scored,
    specs: Sequence[MetricSpec],
    metrics: dict[str, MetricResult],
    summaries: dict[str, Any],
    warnings: list[str],
) -> Run:
    """The Run around the metrics: what was scored (provenance, surface, settings, cohort),
    its id and signature; the item records and statistics rows as the executor gave them."""
    task, stats = plan.task, plan.stats
    pred_paths = _digested_predictions(read, scored.accounting.pred_files)
    pred_sha, gold_sha = tree_sha256(pred_paths), tree_sha256(read.gold_paths)
    effective = effective_settings(task, read.section, stats, scored.clusters)
    if plan.samples is not None:  # recorded only when used: other runs keep their bytes and ids
        effective["samples"] = {
            "field": plan.samples.field,
            "pass_at": list(plan.samples.pass_at),
        }
    config_sha = json_sha256(effective)
    run = Run(
        assay_version=__version__,
        task=task.name,
        metrics_version=task.metrics_version,
        run_id=run_id(task, pred_sha, gold_sha, config_sha, read),
        name=plan.name or read.default_name or Path(plan.inputs.pred).stem,
        generated_at=datetime.now(UTC).isoformat(timespec="seconds"),
        provenance=_provenance(stats, pred_paths, pred_sha, read.gold_paths, gold_sha, config_sha),
        surface=Surface(
            fingerprint=scored.fingerprint,
            n_items=len(scored.table),
            seed=stats.seed,
            gold_sha256=gold_sha,
        ),
        settings=effective,
        cohort=scored.summary,
        metrics=metrics,
        summaries=summaries,
        warnings=warnings,
        units=_units_record(scored.clusters, task, len(scored.table)),
        specs=[s.to_json() for s in specs],
        stats=_stats_with_clusters(scored.stats_json, scored.clusters),
        items=[],
    )
    run.items = scored.records  # made from the items when read; out of core, from the spill file
    run.signature = run_signature(run)
    return run


def _units_record(
    clusters: ClusterLabels | None, task: Task[Any], n_items: int
) -> UnitsRecord | None:
    """The run's ``units``: the cluster field, its source and the number of clusters; for a
    suite whose item is itself the unit (``Task.item_unit``: the claims suite's paper), that
    unit, one per item."""
    if clusters is None:
        if task.item_unit == "item":
            return None
        unit = task.item_unit
        return UnitsRecord(by=unit, source=f"suite: each item is one {unit}", n_clusters=n_items)
    choice = clusters.choice
    return UnitsRecord(by=choice.by, source=choice.source, n_clusters=clusters.n_clusters)


def _stats_with_clusters(
    stats_json: dict[str, Any], clusters: ClusterLabels | None
) -> dict[str, Any]:
    """The artifact's ``stats`` with ``clusters``, one label per id, when there are any."""
    if clusters is None:
        return stats_json
    return {**stats_json, "clusters": list(clusters.labels)}


def _provenance(
    stats: StatsSettings,
    pred_paths: Sequence[Path],
    pred_sha: str,
    gold_paths: Sequence[Path],
    gold_sha: str,
    config_sha: str,
) -> Provenance:
    """Where the run's numbers come from: the input files and their digests, the code (git
    commit, assay version), the settings' digest and the resampling settings."""
    return Provenance(
        predictions=[str(p) for p in pred_paths],
        predictions_sha256=pred_sha,
        gold=[str(p) for p in gold_paths],
        gold_sha256=gold_sha,
        git_commit=git_commit(),
        config_sha256=config_sha,
        seed=stats.seed,
        ci=stats.ci,
        n_bootstrap_ci=stats.n_bootstrap_ci,
        alpha=stats.alpha,
        assay_version=__version__,
    )


def _digested_predictions(read: ReadInputs, considered: Sequence[str]) -> tuple[Path, ...]:
    """The prediction files the run digests: under an ids restriction, a suite reading one file
    a record (biblio) digests exactly the files that were ``considered``, not the files the
    restriction left out."""
    pred_paths = read.pred_paths
    if read.restrict is not None and all(Path(p).is_file() for p in pred_paths):
        kept = {Path(f) for f in considered}
        pred_paths = tuple(p for p in pred_paths if Path(p) in kept)
    return pred_paths


def effective_settings(
    task: Task[Any],
    section: BaseModel,
    stats: StatsSettings,
    clusters: ClusterLabels | None = None,
) -> dict[str, dict[str, Any]]:
    """The settings the run was scored with, as recorded in the run and digested into its
    ``config_sha256``: the task's section and the statistics settings. The resampling scheme
    is recorded only when it is not the default, and the cluster field (with a cluster map's
    digest) only when the run resamples clusters, so runs with the defaults keep their bytes
    and ids."""
    effective: dict[str, dict[str, Any]] = {
        task.name: section.model_dump(mode="json"),
        "stats": {
            "ci": stats.ci,
            "n_bootstrap_ci": stats.n_bootstrap_ci,
            "seed": stats.seed,
            "alpha": stats.alpha,
        },
    }
    if stats.resampling != "multinomial":
        effective["stats"]["resampling"] = stats.resampling
    if clusters is not None:
        effective["stats"]["cluster_by"] = clusters.choice.by
        if clusters.choice.digest is not None:
            effective["stats"]["clusters_sha256"] = clusters.choice.digest
    return effective


def run_id(task: Task[Any], pred_sha: str, gold_sha: str, config_sha: str, read: ReadInputs) -> str:
    """The run's id: the first 12 hex digits of the digest of the assay version, the task and
    its metrics version, the inputs' digests, the settings' digest and the id lists. The
    version is part of it: the same inputs scored by another engine version are another run,
    never a silent replacement in the store."""
    key = [__version__, task.name, task.metrics_version, pred_sha, gold_sha, config_sha]
    return json_sha256([*key, read.expected, read.restrict])[:12]
