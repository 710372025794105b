"""The one flow: files → records → Cohort → StatsTable → metrics → Run."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from assay._engine.cohort import Cohort, CohortIssue, build_cohort
from assay._engine.inmemory import Records, input_files, relabel
from assay._engine.item import Item, new_item
from assay._engine.provenance import (
    git_commit,
    json_sha256,
    surface_fingerprint,
    surface_fingerprint_streamed,
    tree_sha256,
)
from assay._engine.records import ScoredRecords, stats_member
from assay._engine.registry import get_task
from assay._engine.run import CohortSummary, IssueRecord, ItemRecord, Provenance, Run, Surface
from assay._engine.scorecard import aggregate
from assay._engine.signature import run_signature
from assay._engine.spill import SpillDir, spooling
from assay._engine.task import (
    RUN_NAME,
    BlockSummaries,
    ItemScore,
    SettingsT,
    Task,
    collector_paused,
    score_in_blocks,
    scoring_failures,
    stats_columns,
    task_settings,
)
from assay._io.fieldpath import field_paths, record_paths
from assay._io.idlists import read_expected_ids, read_ids_file
from assay._settings import Settings, StatsSettings, get_settings
from assay._version import __version__
from assay.errors import ConfigError, UsageError
from assay.metrics.kinds import FloatArray
from assay.metrics.table import StatsTable

if TYPE_CHECKING:  # (concurrent.futures, and logging with it, load only for a pool)
    from concurrent.futures import Executor

    # out-of-core scoring and the local pools load when a run spills or runs on a pool
    from assay._engine.outofcore import CohortSpiller, SpillCollector, SpilledCohort

Progress = Callable[[int, int], None]
PathLike = str | os.PathLike[str]
#: from this many gold records up, ``score`` works out of core unless told otherwise (``spill``)
SPILL_THRESHOLD = 100_000


def resolve_section(
    task: Task[SettingsT], settings: Settings, options: Mapping[str, Any]
) -> SettingsT:
    """The task's settings section with ``options`` laid over it; unknown keys are errors, and
    a section that is not the task's own model (``task_settings``) is refused."""
    base = task_settings(task, settings.section(task.name))
    fields = type(base).model_fields
    unknown = [k for k in options if k not in fields]
    if unknown:
        raise ConfigError(
            f"unknown option(s) for task {task.name!r}: {', '.join(unknown)} "
            f"(known: {', '.join(fields)})"
        )
    if not options:
        return base
    try:
        return type(base).model_validate({**base.model_dump(), **options})
    except ValidationError as err:
        first = err.errors()[0]
        loc = ".".join(str(x) for x in first["loc"])
        raise ConfigError(f"option {task.name}.{loc}: {first['msg']}") from None


def resolve_stats(settings: Settings, **overrides: Any) -> StatsSettings:
    values = {k: v for k, v in overrides.items() if v is not None}
    if not values:
        return settings.stats
    try:
        return StatsSettings.model_validate({**settings.stats.model_dump(), **values})
    except ValidationError as err:
        first = err.errors()[0]
        raise ConfigError(f"option stats.{first['loc'][0]}: {first['msg']}") from None


def score_items(
    task: Task[Any],
    items: Sequence[Item],
    section: BaseModel,
    *,
    jobs: int = 1,
    executor: Executor | None = None,
    executor_kind: str = "process",
    progress: Progress | None = None,
    on_block: Callable[[int, int, list[ItemScore]], None] | None = None,
) -> list[ItemScore]:
    """Score every item, in order; in parallel on ``executor`` or a pool of ``jobs`` workers.

    Items go to the task in blocks of its ``batch_size`` (``Task.score_batch``); each block is
    sliced from ``items`` only when it is handed out, and ``on_block(lo, hi, scores)`` is told
    of each block's scores (items ``lo`` to ``hi``), in order, as they arrive.
    """
    fn = partial(score_in_blocks, task, settings=section)
    total = len(items)
    serial = executor is None and (jobs <= 1 or total < 2)
    # in parallel, at least 4 blocks per worker, so that no worker waits on another's last block
    parallel_size = -(-total // (4 * max(jobs, 2)))  # an executor of unknown size: 2 or more
    size = max(1, task.batch_size if serial else min(task.batch_size, parallel_size))
    starts = range(0, total, size)
    results: list[ItemScore] = []

    def add(lo: int, scored: list[ItemScore]) -> None:
        results.extend(scored)
        if on_block is not None:
            on_block(lo, len(results), scored)
        if progress:
            progress(len(results), total)

    if serial:
        for lo in starts:
            add(lo, fn(items[lo : lo + size]))
        return results
    from assay._engine.outofcore import local_pool  # (with the pools, only for parallel scoring)

    own = executor is None
    pool = executor or local_pool(executor_kind, jobs)
    try:
        chunk = max(1, len(starts) // (max(jobs, 1) * 8))
        blocks = (items[lo : lo + size] for lo in starts)
        for lo, scored in zip(starts, pool.map(fn, blocks, chunksize=chunk), strict=True):
            add(lo, scored)
    finally:
        if own:
            pool.shutdown()
    return results


def _executor_choice(
    executor: Executor | str | None, settings: Settings
) -> tuple[Executor | None, str, str | None]:
    """(pool, local executor kind, Dask address) from the ``executor`` argument and settings."""
    if executor is None:
        return None, settings.run.executor, settings.run.dask
    if isinstance(executor, str):
        if executor in ("process", "thread"):
            return None, executor, None
        if executor.startswith("dask://"):
            return None, settings.run.executor, executor
    else:
        from concurrent.futures import Executor

        if isinstance(executor, Executor):
            return executor, settings.run.executor, None
    raise ConfigError(
        f"executor must be 'process', 'thread' or 'dask://HOST:PORT', not {executor!r}"
    )


def _issues(issues: Sequence[CohortIssue]) -> list[IssueRecord]:
    return [IssueRecord(id=i.id, where=i.where, reason=i.reason) for i in issues]


def cohort_summary(cohort: Cohort, scores: Sequence[ItemScore]) -> CohortSummary:
    abstained = [it.id for it, s in zip(cohort.items, scores, strict=True) if s.abstained]
    failed = cohort.failed + scoring_failures(cohort.items, scores)  # items whose scoring raised
    evaluated = cohort.evaluated - (len(failed) - len(cohort.failed))
    return _summary(cohort, cohort.attempted, evaluated, cohort.missing_ids, failed, abstained)


def _summary(
    cohort: Cohort,
    attempted: int,
    evaluated: int,
    missing_ids: list[str],
    failed: list[CohortIssue],
    abstained: list[str],
) -> CohortSummary:
    """The cohort's accounting; counts and lists of the items passed apart (a spilled cohort's
    items are not in ``cohort.items``)."""
    return CohortSummary(
        attempted=attempted,
        evaluated=evaluated,
        missing=len(missing_ids),
        missing_ids=missing_ids,
        failed=len(failed),
        failures=_issues(failed),
        unmatched=len(cohort.unmatched),
        unmatched_ids=[str(u.id) for u in cohort.unmatched],
        unmatched_records=_issues(cohort.unmatched),
        duplicates=_issues(cohort.duplicates),
        parse_failures=_issues(cohort.parse_failures),
        gold_failures=_issues(cohort.gold_failures),
        no_gold_ids=list(cohort.no_gold_ids),
        excluded=cohort.n_excluded,
        abstained=len(abstained),
        abstained_ids=abstained,
    )


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
    **options: Any,
) -> Run:
    """Score predictions against gold with task ``task`` and return the Run.

    ``options`` override the task's settings section (e.g. ``positive="yes"``); None-valued
    options are ignored so CLI defaults do not mask the settings file. ``executor`` is an
    Executor, ``"process"``/``"thread"`` or ``"dask://HOST:PORT"`` (scores and reduces item
    partitions on that Dask cluster); ``resampling`` is ``"multinomial"`` or ``"poisson"``.
    ``spill`` scores out of core (per-item data in temporary files under ``spill_dir``, default
    the system's temporary folder; see ``_engine/outofcore.py``): None chooses it from
    ``SPILL_THRESHOLD`` gold records up. The run is the same either way.

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
        run = _score_files(
            task,
            pred=pred_path,
            gold=gold_paths,
            name=name,
            expected_ids=expected_ids,
            ids_file=ids_file,
            ci=ci,
            n_bootstrap_ci=n_bootstrap_ci,
            seed=seed,
            alpha=alpha,
            jobs=jobs,
            executor=executor,
            settings=settings,
            progress=progress,
            resampling=resampling,
            partitions=partitions,
            spill=spill,
            spill_dir=spill_dir,
            **options,
        )
        if folder is None:
            return run
        if not run.spilled:
            return Run.model_validate_json(relabel(run.to_json(), folder))
        provenance = json.loads(relabel(run.provenance.model_dump_json(), folder))
        run.provenance = Provenance.model_validate(provenance)
        return run


def _score_files(
    task: str | Task[Any],
    *,
    pred: Path,
    gold: tuple[Path, ...],
    name: str | None,
    expected_ids: PathLike | None,
    ids_file: PathLike | None,
    ci: bool | None,
    n_bootstrap_ci: int | None,
    seed: int | None,
    alpha: float | None,
    jobs: int | None,
    executor: Executor | str | None,
    settings: Settings | None,
    progress: Progress | None,
    resampling: str | None,
    partitions: int | None,
    spill: bool | None,
    spill_dir: PathLike | None,
    **options: Any,
) -> Run:
    """``score`` over input files: files → records → Cohort → StatsTable → metrics → Run."""
    settings = settings or get_settings()
    t = get_task(task) if isinstance(task, str) else task
    section = resolve_section(t, settings, {k: v for k, v in options.items() if v is not None})
    stats = resolve_stats(
        settings,
        ci=ci,
        n_bootstrap_ci=n_bootstrap_ci,
        seed=seed,
        alpha=alpha,
        resampling=resampling,
    )
    n_jobs = jobs if jobs is not None else settings.run.jobs
    if n_jobs < 1:
        raise ConfigError(f"jobs must be >= 1, got {n_jobs}")
    pool, executor_kind, dask_address = _executor_choice(executor, settings)
    if partitions is not None and partitions < 1:
        raise ConfigError(f"partitions must be >= 1, got {partitions}")

    if spill is None:
        spill = settings.run.spill
    folder = spill_dir if spill_dir is not None else settings.run.spill_dir
    # a suite whose ``load`` fills ``record_list``s reads onto disk when out of core: from the
    # first record when forced, past SPILL_THRESHOLD records (per list) when automatic
    reading: AbstractContextManager[None] = (
        spooling(0 if spill else SPILL_THRESHOLD, folder) if spill is not False else nullcontext()
    )
    with reading, record_paths(field_paths(section)):  # nested field paths (_io.fieldpath)
        loaded = t.load(pred, gold, section)
    section = task_settings(t, t.prepare(loaded, section))
    default_name = loaded.gathered.get(RUN_NAME)
    expected = read_expected_ids(Path(expected_ids)) if expected_ids is not None else None
    restrict = read_ids_file(Path(ids_file)) if ids_file is not None else None
    use_spill = spill if spill is not None else len(loaded.gold) >= SPILL_THRESHOLD
    blocks = _Blocks(
        task=t,
        section=section,
        jobs=n_jobs,
        pool=pool,
        executor_kind=executor_kind,
        dask_address=dask_address,
        n_resamples=stats.n_bootstrap_ci,
        seed=stats.seed,
        poisson=stats.resampling == "poisson" and stats.ci,
        partitions=partitions or settings.run.partitions,
        progress=progress,
    )
    # out of core, each paired item goes to disk as it is made: no list of items is built;
    # with one local worker it is scored as it is paired (``score_while_pairing``)
    spiller: CohortSpiller | None = None
    collector: SpillCollector | None = None
    if use_spill and dask_address is None and pool is None and n_jobs <= 1:
        from assay._engine.outofcore import score_while_pairing

        spiller, collector = score_while_pairing(
            t,
            section,
            SpillDir(folder),
            progress=progress,
            expected_total=len(loaded.gold) + len(expected or ()),
        )
    elif use_spill:
        from assay._engine.outofcore import CohortSpiller

        spiller = CohortSpiller(SpillDir(folder))
    cohort = build_cohort(
        loaded.predictions,
        loaded.gold,
        pred_key=t.pred_key(section),
        gold_key=t.gold_key(section),
        expected_ids=expected,
        restrict_ids=restrict,
        sink=spiller,
        from_predictions=t.cohort_from_predictions(section),
    )
    pred_paths, gold_paths = loaded.pred_paths, loaded.gold_paths
    del loaded  # the records not paired into the cohort can go
    if spiller is not None:
        spilled = spiller.finish(cohort)
        del cohort, spiller  # the accounting lives on in ``spilled``; the items are on disk
        scored = _spill_sink(spilled, blocks, collector)
    else:
        # the items handed over on their own: the sink may release them block by block
        paired, cohort = list(cohort.items), replace(cohort, items=())
        scored = _memory_sink(cohort, paired, blocks)
        del paired
    accounting, items, scores, table = scored.accounting, scored.items, scored.scores, scored.table
    summary, fingerprint, replicate_sums = scored.summary, scored.fingerprint, scored.replicate_sums
    specs = t.metric_specs(scores, section)

    warnings = list(accounting.warnings)
    if stats.ci and 0 < len(table) < stats.min_items_ci:
        warnings.append(
            f"only {len(table)} items: bootstrap confidence intervals may have poor coverage "
            f"(fewer than {stats.min_items_ci})"
        )
    metrics = aggregate(
        table,
        specs,
        ci=stats.ci,
        n_bootstrap=stats.n_bootstrap_ci,
        seed=stats.seed,
        alpha=stats.alpha,
        resampling=stats.resampling,
        replicate_sums=replicate_sums,
    )
    for m in metrics.values():
        if m.value is None:
            warnings.append(f"metric {m.name} is undefined on this run (no items to score it)")

    if restrict is not None and all(Path(p).is_file() for p in pred_paths):
        # under an ids restriction, a suite reading one file a record (biblio) digests exactly
        # the files that were considered, not the files the restriction left out
        considered = {Path(f) for f in accounting.pred_files}
        pred_paths = tuple(p for p in pred_paths if Path(p) in considered)
    pred_sha = tree_sha256(pred_paths)
    gold_sha = tree_sha256(gold_paths)
    effective: dict[str, dict[str, Any]] = {
        t.name: section.model_dump(mode="json"),
        "stats": {
            "ci": stats.ci,
            "n_bootstrap_ci": stats.n_bootstrap_ci,
            "seed": stats.seed,
            "alpha": stats.alpha,
        },
    }
    if stats.resampling != "multinomial":
        # recorded (and digested into config_sha256 and the run id) only when not the default,
        # so runs with the default scheme keep their bytes and ids
        effective["stats"]["resampling"] = stats.resampling
    config_sha = json_sha256(effective)
    # the assay version is part of the id: the same inputs scored by another engine version
    # are another run, never a silent replacement in the store
    run_id = json_sha256(
        [__version__, t.name, t.metrics_version, pred_sha, gold_sha, config_sha, expected, restrict]
    )[:12]
    run = Run(
        assay_version=__version__,
        task=t.name,
        metrics_version=t.metrics_version,
        run_id=run_id,
        name=name or (str(default_name) if default_name else Path(pred).stem),
        generated_at=datetime.now(UTC).isoformat(timespec="seconds"),
        provenance=Provenance(
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
        ),
        surface=Surface(
            fingerprint=fingerprint,
            n_items=len(table),
            seed=stats.seed,
            gold_sha256=gold_sha,
        ),
        settings=effective,
        cohort=summary,
        metrics=metrics,
        summaries=(
            summaries := t.merge_summaries(scored.summary_parts, section)
            if isinstance(t, BlockSummaries) and scored.summary_parts is not None
            else t.summaries(items, scores, section)
        ),
        # a suite's summaries may carry "warnings" (a label set without some gold classes, ...)
        warnings=warnings + [w for w in summaries.get("warnings", []) if isinstance(w, str)],
        specs=[s.to_json() for s in specs],
        stats=scored.stats_json,
        items=[],
    )
    run.items = scored.records  # made from the items when read; out of core, from the spill file
    run.signature = run_signature(run)
    return run


# --------------------------------------------------------------------------- the two sinks
#
# The flow above is one path: records → cohort → item blocks scored → statistics table →
# metrics → Run. Where the per-item data lives is the sink's only job: in memory (lists), or
# out of core (spill files, only the statistics table in memory; _engine/outofcore.py). Both
# score the same blocks the same way, locally or on a Dask cluster, and give the same Run.


@dataclass(frozen=True)
class _Blocks:
    """How the cohort's items are scored: in blocks locally (``jobs``, ``pool``) or on the
    Dask cluster at ``dask_address`` (which also reduces Poisson replicates when ``poisson``)."""

    task: Task[Any]
    section: BaseModel
    jobs: int
    pool: Executor | None
    executor_kind: str
    dask_address: str | None
    n_resamples: int
    seed: int
    poisson: bool
    partitions: int | None
    progress: Progress | None


@dataclass(frozen=True)
class _Scored:
    """What a sink hands back to the flow."""

    accounting: Cohort
    items: Sequence[Item]
    scores: Sequence[ItemScore]
    table: StatsTable
    summary: CohortSummary
    fingerprint: str
    stats_json: dict[str, Any]
    records: Sequence[ItemRecord]
    replicate_sums: tuple[Sequence[str], FloatArray] | None
    #: the task's block summaries (``BlockSummaries``), None when it gives none
    summary_parts: Sequence[Any] | None


def _memory_sink(cohort: Cohort, items: list[Item], b: _Blocks) -> _Scored:
    """Items and scores as lists, the table built from the scores' rows; the item records and
    statistics rows made from them when read (``ScoredRecords``, ``StatsRows``).

    ``items`` are the cohort's (``cohort`` is its accounting, handed over without them): a
    suite that summarizes by blocks and reads nothing of an item once its block is summarized
    (``BlockSummaries.release_scored``) has each block's gold digests and summary part taken as
    the block is scored, and its items then replaced in ``items`` by ones without gold and
    prediction, so that the documents are resident one block at a time.
    """
    task = b.task
    release = isinstance(task, BlockSummaries) and task.release_scored
    gold_digests: dict[str, str] = {}
    parts: list[Any] | None = [] if isinstance(task, BlockSummaries) else None

    def digest(lo: int, hi: int) -> None:
        for item in items[lo:hi]:
            gold_digests[item.id] = json_sha256(item.gold)

    def scored_block(lo: int, hi: int, scores: list[ItemScore]) -> None:
        assert isinstance(task, BlockSummaries) and parts is not None
        digest(lo, hi)
        parts.append(task.summarize_block(items[lo:hi], scores, b.section))
        for k in range(lo, hi):
            items[k] = _released(items[k])

    replicate_sums: tuple[Sequence[str], FloatArray] | None = None
    if b.dask_address is not None:
        from assay._engine.dask import score_on_dask

        scores, replicate_sums = score_on_dask(
            b.dask_address,
            b.task,
            items,
            b.section,
            n_resamples=b.n_resamples,
            seed=b.seed,
            poisson=b.poisson,
            partitions=b.partitions,
            progress=b.progress,
        )
    else:
        scores = score_items(
            b.task,
            items,
            b.section,
            jobs=b.jobs,
            executor=b.pool,
            executor_kind=b.executor_kind,
            progress=b.progress,
            on_block=scored_block if release else None,
        )
    if not gold_digests:  # not taken block by block
        digest(0, len(items))
    if parts is not None and not parts:  # the whole run as one block
        assert isinstance(task, BlockSummaries)
        parts.append(task.summarize_block(items, scores, b.section))
    accounting = replace(cohort, items=tuple(items))
    ids = [item.id for item in items]
    table = StatsTable.from_rows(ids, [s.stats for s in scores], stats_columns(scores))
    return _Scored(
        accounting=accounting,
        items=accounting.items,
        scores=scores,
        table=table,
        summary=cohort_summary(accounting, scores),
        fingerprint=surface_fingerprint(ids, gold_digests),
        # the artifact's rows and records made when read or written, as out of core: not a
        # validated record and 43 Python numbers per translation segment held until then
        stats_json=stats_member(table, ids),
        records=ScoredRecords(accounting.items, scores, gold_digests),
        replicate_sums=replicate_sums,
        summary_parts=parts,
    )


def _released(item: Item) -> Item:
    """``item`` without its gold and prediction: what its record and the cohort's accounting
    read (id, status, error, source, meta) and nothing else."""
    return new_item(item.id, {}, None, item.source, item.meta, item.error, item.status)


def _spill_sink(
    spilled: SpilledCohort, b: _Blocks, scored_while_paired: SpillCollector | None = None
) -> _Scored:
    """Items, scores and item records in spill files, read on demand; only the statistics
    table in memory (each block's rows added to it as the block is scored). The items are
    scored here, from the spill file, unless they were as they were paired (the collector
    ``scored_while_paired``)."""
    from assay._engine.outofcore import SpillCollector, score_in_batches

    collector = scored_while_paired or SpillCollector(spilled, b.task, b.section)
    replicate_sums: tuple[Sequence[str], FloatArray] | None = None
    if scored_while_paired is not None:
        if b.progress:
            b.progress(collector.done, collector.done)
    elif b.dask_address is not None:
        from assay._engine.dask import stream_on_dask

        replicate_sums = stream_on_dask(
            b.dask_address,
            b.task,
            spilled.items,
            b.section,
            sink=collector.add_from,
            n_resamples=b.n_resamples,
            seed=b.seed,
            poisson=b.poisson,
            partitions=b.partitions,
            progress=b.progress,
        )
    else:
        score_in_batches(
            b.task,
            spilled,
            b.section,
            collector,
            jobs=b.jobs,
            executor=b.pool,
            executor_kind=b.executor_kind,
            progress=b.progress,
        )
    table = collector.table()
    accounting = spilled.accounting
    return _Scored(
        accounting=accounting,
        items=spilled.items,
        scores=collector.item_scores(table),
        table=table,
        summary=_summary(
            accounting,
            len(spilled.ids),
            spilled.evaluated - len(collector.failed),
            spilled.missing_ids,
            spilled.failed + collector.failed,  # as cohort_summary: then items whose scoring raised
            collector.abstained,
        ),
        fingerprint=surface_fingerprint_streamed(spilled.ids, spilled.gold_sha256),
        stats_json=collector.stats_json(table),
        records=collector.item_records(),
        replicate_sums=replicate_sums,
        summary_parts=collector.summary_parts,
    )
