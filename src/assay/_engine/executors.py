"""Executing a plan: the records paired into a cohort, its items scored block by block, the
statistics table built.

The executor is one value, chosen once (`choose_executor`) from the plan's storage and the
number of gold records: `InMemory` (items and scores in lists) or `OutOfCore` (items, scores
and item records in spill files, only the statistics table in memory; ``_engine/outofcore.py``).
Its one method, ``execute``, pairs the records and scores the blocks with the plan's workers:
here, on a local pool (``jobs``, an Executor) or on a Dask cluster. Memory, spill, pool and
Dask thus combine freely, and every combination scores the same blocks the same way and hands
back the same `Scored`, from which ``scoring`` makes the same Run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from assay._engine.clusters import ClusterLabeler, ClusterLabels, choose_clusters
from assay._engine.cohort import Cohort, CohortIssue, build_cohort
from assay._engine.item import Item, new_item
from assay._engine.plan import (
    DaskWorkers,
    LocalWorkers,
    PathLike,
    Progress,
    ReadInputs,
    ScoringPlan,
    refuse_samples_out_of_core,
)
from assay._engine.provenance import json_sha256, surface_fingerprint, surface_fingerprint_streamed
from assay._engine.records import ScoredRecords, stats_member
from assay._engine.run import CohortSummary, IssueRecord, ItemRecord
from assay._engine.samples import SampleData, expand, fold
from assay._engine.spill import SpillDir
from assay._engine.task import (
    BlockSummaries,
    ItemScore,
    Task,
    score_in_blocks,
    scoring_failures,
    stats_columns,
)
from assay.metrics.kinds import FloatArray
from assay.metrics.table import StatsTable

if TYPE_CHECKING:  # (concurrent.futures, and logging with it, load only for a pool)
    from concurrent.futures import Executor

    # out-of-core scoring and the local pools load when a run spills or runs on a pool
    from assay._engine.outofcore import CohortSpiller, SpillCollector, SpilledCohort

#: the columns and the summed Poisson replicate sums a Dask cluster reduced, when it did
ReplicateSums = tuple[Sequence[str], FloatArray]
#: told of each scored block: (first item, end, the block's scores)
OnBlock = Callable[[int, int, list[ItemScore]], None]


@dataclass(frozen=True)
class Scored:
    """What an executor hands back: the scored items, their statistics table, and what the
    Run is made of besides the metrics."""

    accounting: Cohort
    items: Sequence[Item]
    scores: Sequence[ItemScore]
    table: StatsTable
    summary: CohortSummary
    fingerprint: str
    stats_json: dict[str, Any]
    records: Sequence[ItemRecord]
    replicate_sums: ReplicateSums | None
    #: the task's block summaries (``BlockSummaries``), None when it gives none
    summary_parts: Sequence[Any] | None
    #: a run read with samples: what is kept of them (``_engine/samples.py``)
    samples: SampleData | None = None
    #: each item's cluster when the run resamples clusters (``_engine/clusters.py``)
    clusters: ClusterLabels | None = None


@dataclass(frozen=True)
class InMemory:
    """Items and scores in lists, the table built from the scores' rows; the item records and
    statistics rows made from them when read (``ScoredRecords``, ``StatsRows``)."""

    def execute(self, plan: ScoringPlan, read: ReadInputs) -> Scored:
        labeler = cluster_labeler(plan, read)
        cohort = pair(plan, read)
        # the items handed over on their own: they may be released block by block
        items, accounting = list(cohort.items), replace(cohort, items=())
        del cohort
        if labeler is not None:
            for item in items:
                labeler(item)
        clusters = None if labeler is None else labeler.result()
        if plan.samples is None:
            kept = _ListedItems(plan.task, read.section, items)
            scores, sums = _score_listed(plan, read.section, kept, clusters)
            return replace(kept.scored(accounting, scores, sums), clusters=clusters)
        # samples: each item's samples scored as items, then folded into one score per item
        # (no replicate sums to key by cluster: Dask's Poisson path refuses samples)
        flat, sizes = expand(items)
        kept = _ListedItems(plan.task, read.section, flat)
        flat_scores, sums = _score_listed(plan, read.section, kept, None)
        scores, data = fold(
            plan.task,
            read.section,
            items,
            kept.items,
            flat_scores,
            sizes,
            plan.samples,
            field_used=accounting.sample_field,
        )
        kept.summarize(flat_scores)  # the suite's summaries count every sample
        kept.gold_digests = {item.id: kept.digest_of(item) for item in items}
        kept.items = items
        return replace(kept.scored(accounting, scores, sums), samples=data, clusters=clusters)


@dataclass(frozen=True)
class OutOfCore:
    """Items, scores and item records in spill files under ``folder``, read on demand; only
    the statistics table in memory (each block's rows added to it as the block is scored).
    With one local worker each batch is scored as it is paired (``score_while_pairing``):
    no item is written and read back to be scored."""

    folder: PathLike | None

    def execute(self, plan: ScoringPlan, read: ReadInputs) -> Scored:
        from assay._engine.outofcore import score_while_pairing

        workers = plan.workers
        labeler = cluster_labeler(plan, read)
        if isinstance(workers, LocalWorkers) and workers.serial:
            spiller, collector = score_while_pairing(
                plan.task,
                read.section,
                SpillDir(self.folder),
                progress=plan.progress,
                expected_total=read.n_gold + len(read.expected or ()),
            )
            spilled = _spill(plan, read, spiller, labeler)
            if plan.progress:
                plan.progress(collector.done, collector.done)
            clusters = None if labeler is None else labeler.result()
            return replace(_spilled_scored(spilled, collector, None), clusters=clusters)
        return self._score_spilled(plan, read, workers, labeler)

    def _score_spilled(
        self,
        plan: ScoringPlan,
        read: ReadInputs,
        workers: LocalWorkers | DaskWorkers,
        labeler: ClusterLabeler | None,
    ) -> Scored:
        """The cohort paired onto disk, then its items scored from the spill file."""
        from assay._engine.outofcore import CohortSpiller, SpillCollector

        spilled = _spill(plan, read, CohortSpiller(SpillDir(self.folder)), labeler)
        clusters = None if labeler is None else labeler.result()
        collector = SpillCollector(spilled, plan.task, read.section)
        sums = _score_spilled(plan, read.section, spilled, collector, workers, clusters)
        return replace(_spilled_scored(spilled, collector, sums), clusters=clusters)


Execution = InMemory | OutOfCore


def choose_executor(plan: ScoringPlan, read: ReadInputs) -> Execution:
    """Out of core when the plan's storage says so for this many gold records (refused for a
    run read with samples: ``refuse_samples_out_of_core``)."""
    if plan.storage.out_of_core(read.n_gold):
        refuse_samples_out_of_core(plan)
        return OutOfCore(plan.storage.folder)
    return InMemory()


def cluster_labeler(plan: ScoringPlan, read: ReadInputs) -> ClusterLabeler | None:
    """What collects each item's cluster as the cohort is paired; None for iid items."""
    choice = choose_clusters(plan.task, read.section, plan.cluster_map)
    if choice is None:
        return None
    return ClusterLabeler(choice, [str(p) for p in read.gold_paths])


def pair(
    plan: ScoringPlan,
    read: ReadInputs,
    sink: CohortSpiller | None = None,
    labeler: ClusterLabeler | None = None,
) -> Cohort:
    """The cohort: prediction and gold records paired by the task's keys (``build_cohort``),
    each paired item handed to ``sink`` (and ``labeler``) when there is one; the records are
    dropped once paired."""
    records = read.take_records()
    task, section = plan.task, read.section
    handed: Callable[[Item], None] | None = sink
    if sink is not None and labeler is not None:

        def handed(item: Item) -> None:
            labeler(item)
            sink(item)

    return build_cohort(
        records.predictions,
        records.gold,
        pred_key=task.pred_key(section),
        gold_key=task.gold_key(section),
        expected_ids=read.expected,
        restrict_ids=read.restrict,
        sink=handed,
        from_predictions=task.cohort_from_predictions(section),
        gold_files=[str(p) for p in read.gold_paths],
        samples=plan.samples.key if plan.samples is not None else None,
    )


# --------------------------------------------------------------------------- in memory


class _ListedItems:
    """The cohort's items in a list, and what is taken of them as they are scored: their gold
    digests and, for a suite that summarizes by blocks (``BlockSummaries``), the blocks'
    summary parts.

    A suite that reads nothing of an item once its block is summarized
    (``BlockSummaries.release_scored``) has each block's digests and summary part taken as the
    block is scored, and its items then replaced in the list by ones without gold and
    prediction (`_released`), so that the documents are resident one block at a time.
    """

    def __init__(self, task: Task[Any], section: BaseModel, items: list[Item]) -> None:
        self.task = task
        self.section = section
        self.items = items
        self.gold_digests: dict[str, str] = {}
        self.parts: list[Any] | None = [] if isinstance(task, BlockSummaries) else None
        self.release = isinstance(task, BlockSummaries) and task.release_scored

    def on_block(self) -> OnBlock | None:
        """What local scoring tells of each block: only to release it."""
        return self._release_block if self.release else None

    def _digest(self, lo: int, hi: int) -> None:
        for item in self.items[lo:hi]:
            self.gold_digests[item.id] = json_sha256(item.gold)

    def summarize(self, scores: Sequence[ItemScore]) -> None:
        """The whole run's summary part taken now, from the listed items, unless taken block
        by block or the suite gives none."""
        if self.parts is not None and not self.parts:
            assert isinstance(self.task, BlockSummaries)
            self.parts.append(self.task.summarize_block(self.items, scores, self.section))

    def digest_of(self, item: Item) -> str:
        """``item``'s gold digest: taken already (its samples' gold is its own), else now."""
        return self.gold_digests.get(item.id) or json_sha256(item.gold)

    def _release_block(self, lo: int, hi: int, scores: list[ItemScore]) -> None:
        task = self.task
        assert isinstance(task, BlockSummaries) and self.parts is not None
        self._digest(lo, hi)
        self.parts.append(task.summarize_block(self.items[lo:hi], scores, self.section))
        for k in range(lo, hi):
            self.items[k] = _released(self.items[k])

    def scored(
        self, cohort: Cohort, scores: Sequence[ItemScore], sums: ReplicateSums | None
    ) -> Scored:
        """The scored run: digests and the whole run's summary part taken now unless taken
        block by block; ``cohort`` is the accounting (handed over without its items)."""
        items = self.items
        if not self.gold_digests:  # not taken block by block
            self._digest(0, len(items))
        self.summarize(scores)  # the whole run as one block, unless taken block by block
        accounting = replace(cohort, items=tuple(items))
        ids = [item.id for item in items]
        table = StatsTable.from_rows(ids, [s.stats for s in scores], stats_columns(scores))
        return Scored(
            accounting=accounting,
            items=accounting.items,
            scores=scores,
            table=table,
            summary=cohort_summary(accounting, scores),
            fingerprint=surface_fingerprint(ids, self.gold_digests),
            # the artifact's rows and records made when read or written, as out of core: not a
            # validated record and 43 Python numbers per translation segment held until then
            stats_json=stats_member(table, ids),
            records=ScoredRecords(accounting.items, scores, self.gold_digests),
            replicate_sums=sums,
            summary_parts=self.parts,
        )


def _score_listed(
    plan: ScoringPlan, section: BaseModel, kept: _ListedItems, clusters: ClusterLabels | None
) -> tuple[Sequence[ItemScore], ReplicateSums | None]:
    """Every listed item's score in order, by the plan's workers; and the replicate sums a
    Dask cluster reduced."""
    workers = plan.workers
    if isinstance(workers, DaskWorkers):
        from assay._engine.dask import score_on_dask

        return score_on_dask(
            workers.address,
            plan.task,
            kept.items,
            section,
            n_resamples=plan.stats.n_bootstrap_ci,
            seed=plan.stats.seed,
            poisson=_poisson(plan),
            partitions=workers.partitions,
            progress=plan.progress,
            labels=None if clusters is None else clusters.labels,
        )
    scores = score_items(
        plan.task,
        kept.items,
        section,
        jobs=workers.jobs,
        executor=workers.pool,
        executor_kind=workers.kind,
        progress=plan.progress,
        on_block=kept.on_block(),
    )
    return scores, None


def _released(item: Item) -> Item:
    """``item`` without its gold and prediction: what its record and the cohort's accounting
    read (id, status, error, source, meta) and nothing else."""
    return new_item(item.id, {}, None, item.source, item.meta, item.error, item.status)


def score_items(
    task: Task[Any],
    items: Sequence[Item],
    section: BaseModel,
    *,
    jobs: int = 1,
    executor: Executor | None = None,
    executor_kind: str = "process",
    progress: Progress | None = None,
    on_block: OnBlock | None = None,
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


def _poisson(plan: ScoringPlan) -> bool:
    """Whether a Dask cluster reduces Poisson replicates (the CIs resample that way)."""
    return plan.stats.resampling == "poisson" and plan.stats.ci


# --------------------------------------------------------------------------- out of core


def _spill(
    plan: ScoringPlan,
    read: ReadInputs,
    spiller: CohortSpiller,
    labeler: ClusterLabeler | None = None,
) -> SpilledCohort:
    """The cohort paired with each item written to disk as it is made (no list of items is
    built; ``labeler`` told of each); its accounting lives on in the spilled cohort."""
    return spiller.finish(pair(plan, read, spiller, labeler))


def _score_spilled(
    plan: ScoringPlan,
    section: BaseModel,
    spilled: SpilledCohort,
    collector: SpillCollector,
    workers: LocalWorkers | DaskWorkers,
    clusters: ClusterLabels | None = None,
) -> ReplicateSums | None:
    """The spilled items scored into ``collector`` by the workers; the replicate sums a Dask
    cluster reduced."""
    if isinstance(workers, DaskWorkers):
        from assay._engine.dask import stream_on_dask

        return stream_on_dask(
            workers.address,
            plan.task,
            spilled.items,
            section,
            sink=collector.add_from,
            n_resamples=plan.stats.n_bootstrap_ci,
            seed=plan.stats.seed,
            poisson=_poisson(plan),
            partitions=workers.partitions,
            progress=plan.progress,
            labels=None if clusters is None else clusters.labels,
        )
    from assay._engine.outofcore import score_in_batches

    score_in_batches(
        plan.task,
        spilled,
        section,
        collector,
        jobs=workers.jobs,
        executor=workers.pool,
        executor_kind=workers.kind,
        progress=plan.progress,
    )
    return None


def _spilled_scored(
    spilled: SpilledCohort, collector: SpillCollector, sums: ReplicateSums | None
) -> Scored:
    """The scored run from the spill files and the collector's table."""
    table = collector.table()
    accounting = spilled.accounting
    return Scored(
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
        replicate_sums=sums,
        summary_parts=collector.summary_parts,
    )


# --------------------------------------------------------------------------- the accounting


def cohort_summary(cohort: Cohort, scores: Sequence[ItemScore]) -> CohortSummary:
    """The accounting of a cohort scored in memory: attempted = evaluated + missing + failed,
    an item whose scoring raised counted failed."""
    abstained = [it.id for it, s in zip(cohort.items, scores, strict=True) if s.abstained]
    failed = cohort.failed + scoring_failures(cohort.items, scores)  # items whose scoring raised
    evaluated = cohort.evaluated - (len(failed) - len(cohort.failed))
    return _summary(cohort, cohort.attempted, evaluated, cohort.missing_ids, failed, abstained)


def _issues(issues: Sequence[CohortIssue]) -> list[IssueRecord]:
    return [IssueRecord(id=i.id, where=i.where, reason=i.reason) for i in issues]


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
