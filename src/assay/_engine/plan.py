"""The plan of a run: everything ``score`` was asked for, resolved once against the settings.

A `ScoringPlan` is frozen and holds the task, its settings section with the caller's options
laid over it, the statistics settings, the input files, and the executor choice: who scores the
item blocks (`LocalWorkers`: here or on a local pool; `DaskWorkers`: a Dask cluster) and where
the per-item data lives (`Storage`: in memory or out of core). Every argument is checked here,
before a file is read, in the order ``score`` documents its errors. `read_inputs` then reads
the files the plan names (the suite's ``load`` and ``prepare``) into `ReadInputs`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pydantic import BaseModel, ValidationError

from assay._engine.samples import SampleOptions
from assay._engine.spill import spooling
from assay._engine.task import RUN_NAME, LoadedInputs, SettingsT, Task, task_settings
from assay._io.clusters import ClusterMap, read_cluster_map
from assay._io.fieldpath import field_paths, record_paths
from assay._io.idlists import read_expected_ids, read_ids_file
from assay._settings import Settings, StatsSettings
from assay.errors import ConfigError

if TYPE_CHECKING:  # (concurrent.futures, and logging with it, load only for a pool)
    from concurrent.futures import Executor

Progress = Callable[[int, int], None]


@runtime_checkable
class StagedProgress(Protocol):
    """A progress display told the stage a run is in (the CLI's): ``stage(name, total)``
    starts one ("reading" bytes, "scoring" items, "resampling"; ``total`` None when unknown),
    and calling it with (done, total) reports the stage's progress. A plain ``Progress``
    callable hears of the scoring only."""

    def __call__(self, done: int, total: int) -> None: ...

    def stage(self, name: str, total: int | None = None) -> None: ...


def start_stage(progress: Progress | None, name: str, total: int | None = None) -> None:
    """Tell a ``StagedProgress`` that stage ``name`` begins (nothing for a plain callable)."""
    if isinstance(progress, StagedProgress):
        progress.stage(name, total)


PathLike = str | os.PathLike[str]
#: from this many gold records up, ``score`` works out of core unless told otherwise (``spill``)
SPILL_THRESHOLD = 100_000


@dataclass(frozen=True)
class RunInputs:
    """The files a run reads: predictions, gold, and the optional id lists (``expected_ids``:
    every id the surface must hold; ``ids_file``: the only ids scored)."""

    pred: Path
    gold: tuple[Path, ...]
    expected_ids: PathLike | None = None
    ids_file: PathLike | None = None


@dataclass(frozen=True)
class LocalWorkers:
    """Item blocks scored in this process (``jobs`` 1, no pool) or on a local pool: the
    caller's ``pool``, else ``jobs`` workers of ``kind`` ("process" or "thread")."""

    jobs: int
    kind: str
    pool: Executor | None = None

    @property
    def serial(self) -> bool:
        """True when every block is scored here, one after another."""
        return self.pool is None and self.jobs <= 1


@dataclass(frozen=True)
class DaskWorkers:
    """Item blocks scored in ``partitions`` (None: chosen from the cluster's size) on the Dask
    cluster at ``address``, which also reduces Poisson replicate sums."""

    address: str
    partitions: int | None


@dataclass(frozen=True)
class Storage:
    """Where the per-item data lives: in memory (``spill`` False), out of core in spill files
    under ``folder`` (True; None: the system's temporary folder), or chosen by the number of
    gold records (None: out of core from ``SPILL_THRESHOLD`` up)."""

    spill: bool | None
    folder: PathLike | None

    def reading(self) -> AbstractContextManager[None]:
        """The context a suite's ``load`` runs in: a suite filling ``record_list``s reads onto
        disk from the first record when spilling is forced, past ``SPILL_THRESHOLD`` records
        (per list) when it is automatic, and never when it is off."""
        if self.spill is False:
            return nullcontext()
        return spooling(0 if self.spill else SPILL_THRESHOLD, self.folder)

    def out_of_core(self, n_gold: int) -> bool:
        """Whether a run of ``n_gold`` gold records is scored out of core."""
        return self.spill if self.spill is not None else n_gold >= SPILL_THRESHOLD


@dataclass(frozen=True)
class ScoringPlan:
    """What one run is scored with, resolved once (see the module docstring)."""

    task: Task[Any]
    #: the task's settings section with the options laid over it (``prepare`` may refine it)
    section: BaseModel
    stats: StatsSettings
    inputs: RunInputs
    #: the run's name (None: the predictions' file name without its suffix)
    name: str | None
    workers: LocalWorkers | DaskWorkers
    storage: Storage
    progress: Progress | None = None
    #: several predictions per item read as its samples (None: one per item)
    samples: SampleOptions | None = None
    #: ``--clusters FILE``: each item's cluster, read whole before any input (None: none given)
    cluster_map: ClusterMap | None = None


def plan_scoring(
    task: Task[Any],
    inputs: RunInputs,
    settings: Settings,
    *,
    options: Mapping[str, Any],
    stats_options: Mapping[str, Any],
    jobs: int | None,
    executor: Executor | str | None,
    partitions: int | None,
    spill: bool | None,
    spill_dir: PathLike | None,
    name: str | None,
    progress: Progress | None,
    sample_options: Mapping[str, Any] | None = None,
    clusters: PathLike | None = None,
) -> ScoringPlan:
    """The plan of a run of ``task`` on ``inputs``: ``score``'s arguments, None-valued ones
    falling back on ``settings``; a bad one is a ConfigError naming it (checked in this order:
    task options, statistics options, jobs, executor, partitions, samples, the cluster map)."""
    given = {k: v for k, v in options.items() if v is not None}
    plan = ScoringPlan(
        task=task,
        section=resolve_section(task, settings, given),
        stats=resolve_stats(settings, **stats_options),
        inputs=inputs,
        name=name,
        workers=choose_workers(executor, jobs, partitions, settings),
        storage=Storage(
            spill if spill is not None else settings.run.spill,
            spill_dir if spill_dir is not None else settings.run.spill_dir,
        ),
        progress=progress,
    )
    plan = replace(plan, samples=resolve_samples(plan, settings, **(sample_options or {})))
    if clusters is None:
        return plan
    return replace(plan, cluster_map=read_cluster_map(clusters))


def resolve_samples(
    plan: ScoringPlan,
    settings: Settings,
    *,
    samples: bool | None = None,
    sample_field: str | None = None,
    pass_at: Sequence[int] | None = None,
) -> SampleOptions | None:
    """The samples a run reads (None: one prediction per item): on with ``samples`` or a
    ``sample_field``, given or from the ``run`` settings (``samples: true``,
    ``sample_field: NAME``, ``pass_at: [1, 5]``); a ConfigError for pass@k without samples,
    a k below 1, or a run whose per-item data cannot hold samples (a Dask cluster reducing
    Poisson replicates)."""
    run = settings.run
    field = sample_field if sample_field is not None else run.sample_field
    wanted = samples if samples is not None else (run.samples or field is not None)
    ks = tuple(pass_at) if pass_at else tuple(run.pass_at)
    if not wanted:
        if pass_at:
            raise ConfigError("--pass-at needs --samples (several predictions per item)")
        return None
    bad = [k for k in ks if k < 1]
    if bad:
        raise ConfigError(f"--pass-at must be >= 1, got {bad[0]}")
    if isinstance(plan.workers, DaskWorkers) and plan.stats.resampling == "poisson":
        raise ConfigError(
            "--samples cannot be scored on a Dask cluster with --resampling poisson (its "
            "workers would resample samples, not items): use --resampling multinomial"
        )
    return SampleOptions(field or None, tuple(sorted(set(ks))))


def refuse_samples_out_of_core(plan: ScoringPlan) -> None:
    """Samples are read in memory only: an out-of-core run (``--spill``, or from
    ``SPILL_THRESHOLD`` gold records up) with samples is a ConfigError saying so."""
    if plan.samples is not None:
        raise ConfigError(
            "--samples is scored in memory only, and this run is out of core (--spill, or "
            f"from {SPILL_THRESHOLD:,} gold records up): add --no-spill"
        )


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
    """The ``stats`` settings with the overrides that are not None laid over them."""
    values = {k: v for k, v in overrides.items() if v is not None}
    if not values:
        return settings.stats
    try:
        return StatsSettings.model_validate({**settings.stats.model_dump(), **values})
    except ValidationError as err:
        first = err.errors()[0]
        raise ConfigError(f"option stats.{first['loc'][0]}: {first['msg']}") from None


def choose_workers(
    executor: Executor | str | None, jobs: int | None, partitions: int | None, settings: Settings
) -> LocalWorkers | DaskWorkers:
    """Who scores the item blocks, from the ``executor``, ``jobs`` and ``partitions``
    arguments and the ``run`` settings (each checked even where it does not apply)."""
    n_jobs = jobs if jobs is not None else settings.run.jobs
    if n_jobs < 1:
        raise ConfigError(f"jobs must be >= 1, got {n_jobs}")
    pool, kind, address = _executor_choice(executor, settings)
    if partitions is not None and partitions < 1:
        raise ConfigError(f"partitions must be >= 1, got {partitions}")
    if address is not None:
        return DaskWorkers(address, partitions or settings.run.partitions)
    return LocalWorkers(n_jobs, kind, pool)


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


# ----------------------------------------------------------------------------- the inputs


@dataclass
class ReadInputs:
    """What was read for a run: the suite's records until they are paired (`take_records`),
    the settings section as the suite's ``prepare`` left it, the id lists, and the files the
    records came from (which the run's provenance digests)."""

    section: BaseModel
    expected: list[str] | None
    restrict: list[str] | None
    pred_paths: tuple[Path, ...]
    gold_paths: tuple[Path, ...]
    n_gold: int
    records: LoadedInputs | None
    #: the run's name when the inputs carry one (``LoadedInputs.gathered[RUN_NAME]``)
    default_name: str | None = None

    def take_records(self) -> LoadedInputs:
        """The records, handed over once: whoever pairs them drops them when paired, so that
        the records left out of the cohort are freed before the items are scored."""
        records, self.records = self.records, None
        if records is None:
            raise RuntimeError("the records were paired already")
        return records


def read_inputs(plan: ScoringPlan) -> ReadInputs:
    """The plan's files read by the suite (``load``, in the storage's ``reading`` context),
    its section prepared from them (``prepare``), then the id lists."""
    task = plan.task
    # nested field paths (``scores.match.value``) resolved as the files are read (_io.fieldpath)
    with plan.storage.reading(), record_paths(field_paths(plan.section)):
        loaded = task.load(plan.inputs.pred, plan.inputs.gold, plan.section)
    section = task_settings(task, task.prepare(loaded, plan.section))
    expected_ids, ids_file = plan.inputs.expected_ids, plan.inputs.ids_file
    return ReadInputs(
        section=section,
        expected=read_expected_ids(Path(expected_ids)) if expected_ids is not None else None,
        restrict=read_ids_file(Path(ids_file)) if ids_file is not None else None,
        pred_paths=loaded.pred_paths,
        gold_paths=loaded.gold_paths,
        n_gold=len(loaded.gold),
        records=loaded,
        default_name=str(loaded.gathered[RUN_NAME]) if loaded.gathered.get(RUN_NAME) else None,
    )
