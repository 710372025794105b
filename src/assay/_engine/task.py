"""The Task plugin contract: how a suite loads its inputs, scores an item and names its metrics.

A ``Task`` is generic in its settings model: a suite declares
``class ClassificationTask(Task[ClassificationSettings])`` and its hooks take
``settings: ClassificationSettings``, so no hook casts what it is given. The model itself is
the class attribute ``settings_model: type[SettingsT]``, not a ``ClassVar`` (mypy forbids a
type variable inside ``ClassVar``) nor a classmethod: a plain attribute is what suites already
set (``settings_model = ClassificationSettings``), what the registry, the settings loader and
the CLI read off an instance of any suite (``Task[Any]``), and mypy checks the value a suite
assigns against its type argument (``Task[A]`` with ``settings_model = B`` is an error). Two
run-time checks make the type true for suites nobody type-checked: defining a subclass whose
``settings_model`` is not its type argument (or a subclass of it) raises a TypeError
(``Task.__init_subclass__``), and the engine hands a hook only an instance of the task's own
model (``task_settings``: a ConfigError naming both models otherwise), checked where settings
enter it (``resolve_section``, after ``prepare``, ``score_in_blocks``, which every executor
calls, and the out-of-core collector's block summaries).
"""

from __future__ import annotations

import gc
import math
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from itertools import chain
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar, get_args, get_origin

from pydantic import BaseModel

from assay._engine.cohort import CohortIssue
from assay._engine.cohort import record_id as _record_id
from assay._engine.item import Item, ItemStatus
from assay._io.records import ReadResult, SourceRecord
from assay.errors import ConfigError, RunInputError, UsageError
from assay.metrics.spec import MetricSpec


@dataclass(frozen=True)
class ItemScore:
    """What a task returns for one item: its statistics row and what a person needs to see why.

    ``stats`` feeds the StatsTable: column name → finite number. A row is sparse (a column an
    item leaves out counts as 0 for it), but every column a MetricSpec of the run names must be
    emitted by some item of the run: emit it with 0.0 where there is nothing to count
    (``mean_columns`` emits both columns of a mean). A spec naming a column no item emitted
    stops the run with "unknown stats column(s)" (``check_spec_columns``).

    ``scores`` are the per-item headline numbers shown in reports (None when undefined);
    ``flags`` mark conditions (``error_row``, ``abstained``...).
    """

    stats: Mapping[str, float]
    scores: dict[str, float | None] = field(default_factory=dict)
    flags: tuple[str, ...] = ()
    details: dict[str, Any] = field(default_factory=dict)
    abstained: bool = False


_NEW = object.__new__


def new_score(
    stats: dict[str, float],
    scores: dict[str, float | None],
    flags: tuple[str, ...] = (),
    details: dict[str, Any] | None = None,
    abstained: bool = False,
) -> ItemScore:
    """``ItemScore(...)`` with its fields set as pickle sets a dataclass's, without the frozen
    ``__init__``'s one ``object.__setattr__`` per field (a suite's batch makes one per item)."""
    score: ItemScore = _NEW(ItemScore)
    score.__dict__.update(
        stats=stats, scores=scores, flags=flags, details=details or {}, abstained=abstained
    )
    return score


@dataclass(frozen=True)
class LoadedInputs:
    """Records read from the prediction and gold sources (parse failures included)."""

    predictions: Sequence[ReadResult]
    gold: Sequence[ReadResult]
    pred_paths: tuple[Path, ...]
    gold_paths: tuple[Path, ...]
    #: what the task's ``load`` noted while reading, for its ``prepare`` (the classification
    #: suite's gold labels), so that ``prepare`` need not read every record again
    gathered: Mapping[str, Any] = field(default_factory=dict)


#: ``LoadedInputs.gathered`` key: the run's default name, when the inputs carry one (the scores
#: suite's ``inspect:task · model``); otherwise a run is named after its prediction file's stem
RUN_NAME = "run_name"


KeyFunction = Callable[[SourceRecord], str | None]

#: the settings model of a suite: what its hooks are given
SettingsT = TypeVar("SettingsT", bound=BaseModel)


class Task(ABC, Generic[SettingsT]):
    """A task suite. Subclasses set the class attributes and implement the four methods.

    A task registers under the entry-point group ``assay.tasks`` (or with ``register_task``);
    the CLI and the store find it there, so a third party adds a suite without touching assay.
    ``class MyTask(Task[MySettings])`` with ``settings_model = MySettings``: every hook is then
    given a ``MySettings`` (see the module docstring).
    """

    name: ClassVar[str]
    description: ClassVar[str]
    metrics_version: ClassVar[int] = 1
    #: the pydantic model of the suite's settings section (a class attribute)
    settings_model: type[SettingsT]
    #: items handed to ``score_batch`` at once (1: item by item)
    batch_size: ClassVar[int] = 1
    #: the per-item score (a key of ``ItemScore.scores``) that says whether one sample is
    #: correct, for pass@k (``sample_correct``); None: the item's first score, its primary one
    pass_score: ClassVar[str | None] = None
    #: what one item is, as outputs name the resampling unit ("paper" for the claims suite)
    item_unit: ClassVar[str] = "item"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Refuse a suite whose ``settings_model`` is not the settings type its hooks declare
        (``Task[A]`` or ``BlockSummaries[A]`` anywhere in its bases, with a model other than
        ``A`` or a subclass of it): mypy catches it in typed code, this in any code."""
        super().__init_subclass__(**kwargs)
        model = getattr(cls, "settings_model", None)
        if model is None:
            return  # an abstract base: its concrete suites are checked
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            raise TypeError(f"{cls.__qualname__}.settings_model must be a pydantic model class")
        for declared in _declared_settings(cls):
            if not issubclass(model, declared):
                raise TypeError(
                    f"{cls.__qualname__}.settings_model is {model.__name__}, but its hooks take "
                    f"{declared.__name__}: set {declared.__name__} or a subclass of it"
                )

    @abstractmethod
    def load(self, pred: Path, gold: tuple[Path, ...], settings: SettingsT) -> LoadedInputs:
        """Read predictions and gold: ``gold`` may hold several paths (gold directories,
        references) or none, when the gold lives in the prediction file.

        Build the record sequences with ``assay._engine.spill.record_list``: a plain list, except
        under ``assay.score``'s out-of-core path, where the records then go to disk as read.
        """

    def prepare(self, loaded: LoadedInputs, settings: SettingsT) -> SettingsT:
        """Settings completed from the inputs (e.g. a label set read off the gold); identity."""
        return settings

    def cohort_from_predictions(self, settings: SettingsT) -> bool:
        """True when the surface is the gold items that have a prediction and expected ids only
        add rows (``build_cohort(from_predictions=True)``); False (the default): the surface is
        the expected ids when given, else every gold item."""
        return False

    def default_cluster_by(self, settings: SettingsT) -> str | None:
        """The field naming each item's cluster where the suite's data names it (ContractEval
        rows: ``contract``), used when ``cluster_by`` is not set (``_engine/clusters.py``);
        None (the default): items are the resampling unit."""
        return None

    def pred_key(self, settings: SettingsT) -> KeyFunction:
        """How a prediction record is paired with gold: its id by default."""
        return _record_id

    def gold_key(self, settings: SettingsT) -> KeyFunction:
        return _record_id

    @abstractmethod
    def score_item(self, item: Item, settings: SettingsT) -> ItemScore:
        """Score one item (also missing and failed ones: they stay in the denominator)."""

    def score_batch(self, items: Sequence[Item], settings: SettingsT) -> list[ItemScore]:
        """Score consecutive items at once; must equal ``[score_item(i) for i in items]``.

        A suite overrides it (and sets ``batch_size``) when work shared between items, such as
        one vectorized computation for many small matrices, makes a batch cheaper than its items.
        """
        return [self.score_item(item, settings) for item in items]

    def sample_correct(self, score: ItemScore, settings: SettingsT) -> bool:
        """Whether one sample (of a run that reads several per item) is correct, for pass@k:
        its ``pass_score`` (default: its first per-item score, the suite's primary one, such
        as exact_match) is full credit, 1.0. A missing or failed sample scores a miss, so it
        is not correct."""
        name = self.pass_score
        value = score.scores.get(name) if name else next(iter(score.scores.values()), None)
        return value is not None and value >= 1.0

    @abstractmethod
    def metric_specs(self, scores: Sequence[ItemScore], settings: SettingsT) -> list[MetricSpec]:
        """The metrics of this run (may depend on what was seen, e.g. the classes).

        Every column a spec names must be emitted by some item's ``ItemScore.stats``: an absent
        cell counts as 0, but a column no item emitted is unknown, and the run stops with a
        UsageError naming the suite, the metric and the columns (``check_spec_columns``). Emit
        the column with 0.0 where there is nothing to count, or leave the spec out when no
        item defines it (the extraction suite's date error, on a run without dates).
        """

    def cli_group(self) -> Any:
        """An optional ``click.Group`` of suite commands (``assay mt ...``); None by default.

        Built lazily by the CLI, so a suite's command module may import ``assay._cli``.
        """
        return None

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: SettingsT
    ) -> dict[str, Any]:
        """Task summaries (confusion matrices, per-class tables...) under the seeds' names."""
        return {}


class BlockSummaries(ABC, Generic[SettingsT]):
    """What a suite whose summaries are sums over items (counts, confusion cells) adds to its
    ``Task``: the summaries of a block, and the run's from its blocks' parts.

    The engine summarizes each block as it is scored (on the out-of-core path nothing is then
    read back from disk to summarize) and merges the parts, in item order; a suite without it
    gets ``Task.summaries`` over the whole run. Such a suite computes ``summaries`` the same
    way (``merge_summaries`` of one block), so both give the same result.
    """

    #: True when nothing after ``summarize_block`` reads a scored item's gold or prediction:
    #: in memory the engine then summarizes each block as it is scored, takes its gold digests,
    #: and drops the block's gold and predictions (a source document travelling with each gold
    #: record is then resident one block at a time, not for the whole run)
    release_scored: ClassVar[bool] = False

    @abstractmethod
    def summarize_block(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: SettingsT
    ) -> Any:
        """This block's part of the summaries."""

    @abstractmethod
    def merge_summaries(self, parts: Sequence[Any], settings: SettingsT) -> dict[str, Any]:
        """The run's summaries from its blocks' ``summarize_block`` parts, in item order."""


def _declared_settings(cls: type) -> list[type[BaseModel]]:
    """The settings models named as type arguments of ``Task`` / ``BlockSummaries`` bases
    (``Task[ClassificationSettings]``) anywhere in ``cls``'s ancestry."""
    found: list[type[BaseModel]] = []
    for klass in cls.__mro__:
        for base in klass.__dict__.get("__orig_bases__", ()):
            origin = get_origin(base)
            if isinstance(origin, type) and issubclass(origin, Task | BlockSummaries):
                found.extend(
                    arg
                    for arg in get_args(base)
                    if isinstance(arg, type) and issubclass(arg, BaseModel)
                )
    return found


def task_settings(task: Task[SettingsT], settings: BaseModel) -> SettingsT:
    """``settings`` as ``task``'s own: an instance of its ``settings_model``, as its hooks
    declare; anything else (another suite's section, a bare model) is a ConfigError naming
    both models, raised before a hook sees it."""
    model = task.settings_model
    if not isinstance(settings, model):
        raise ConfigError(
            f"task {task.name!r} takes {model.__name__} settings, "
            f"not {type(settings).__module__}.{type(settings).__qualname__}"
        )
    return settings


def score_in_blocks(
    task: Task[SettingsT], items: Sequence[Item], settings: BaseModel
) -> list[ItemScore]:
    """Every item's score, in order: ``task.score_batch`` over blocks of ``task.batch_size``.

    The cyclic garbage collector is paused while a block is scored (``collector_paused``) and
    runs as usual between blocks, so cyclic garbage never outlives one block.

    One item never sinks the run: when a block raises, its items are scored one by one, and an
    item whose scoring raises (any ``Exception``: a RecursionError on a hostile value, a
    MemoryError, a bug; a ``RUN_ERRORS`` one, ``ConfigError`` or ``RunInputError``, still stops
    the run) is scored as a miss instead (``isolated_score``), flagged ``score_error`` with the
    reason in its details, and listed by ``scoring_failures``.
    """
    section = task_settings(task, settings)  # every executor's entry: refused before a hook
    size = max(1, task.batch_size)
    scores: list[ItemScore] = []
    for lo in range(0, len(items), size):
        block = items[lo : lo + size]
        with collector_paused():
            try:
                if size == 1:
                    scores.append(task.score_item(block[0], section))
                else:
                    scores.extend(task.score_batch(block, section))
            except RUN_ERRORS:
                raise  # the run's configuration or inputs, not one record: every item would fail
            except Exception:
                scores.extend(isolated_score(task, item, section) for item in block)
                continue
        for k in range(lo, len(scores)):
            problem = _bad_row(scores[k].stats)
            if problem is not None:
                scores[k] = _as_miss(task, items[k], section, problem)
    return scores


def check_spec_columns(task: str, specs: Sequence[MetricSpec], columns: Collection[str]) -> None:
    """Every column ``specs`` name is among ``columns``, those the run's items emitted; else a
    UsageError ("unknown stats column(s)") naming suite ``task``, each metric with the columns
    it misses, and the fix."""
    emitted = set(columns)
    problems = [
        f"metric {spec.name!r} names {missing}"
        for spec in specs
        if (missing := [c for c in spec.columns if c not in emitted])
    ]
    if problems:
        raise UsageError(
            f"suite {task!r}: unknown stats column(s): {'; '.join(problems)}, which no item "
            "emitted. A statistics row is sparse (a column an item leaves out counts as 0 for "
            "it), but every column a MetricSpec names must be emitted by some item: emit it in "
            "ItemScore.stats with 0.0 where there is nothing to count, or leave the metric out "
            "of metric_specs when no item defines it"
        )


def run_metric_specs(
    task: Task[SettingsT],
    scores: Sequence[ItemScore],
    settings: SettingsT,
    columns: Collection[str],
) -> list[MetricSpec]:
    """``task.metric_specs(scores, settings)``, checked against the statistics ``columns`` the
    items emitted (``check_spec_columns``) before any metric is computed."""
    specs = task.metric_specs(scores, settings)
    check_spec_columns(task.name, specs, columns)
    return specs


def stats_columns(scores: Sequence[ItemScore]) -> list[str]:
    """Every statistics column of ``scores``, in order of first appearance over the items.

    Scores that know their columns (a spilled run's ``SpilledScores``: its table's) say so
    through a ``stats_columns`` attribute, so nothing per item is read back from disk.
    """
    known = getattr(scores, "stats_columns", None)
    if known is not None:
        return list(known)
    return list(dict.fromkeys(chain.from_iterable(s.stats for s in scores)))


def _bad_row(stats: Mapping[str, float]) -> str | None:
    """Why a statistics row cannot enter the StatsTable (a non-finite or non-numeric cell)."""
    try:
        if math.isfinite(sum(stats.values())):
            return None
    except TypeError:
        pass
    for name, v in stats.items():
        if not isinstance(v, int | float) or not math.isfinite(v):
            return f"statistic {name!r} is {v!r}, not a finite number"
    return None  # a finite row whose sum overflowed


SCORE_ERROR = "score_error"
#: errors of the whole run that scoring lets through: they stop it instead of failing an item
RUN_ERRORS = (ConfigError, RunInputError)


def isolated_score(task: Task[SettingsT], item: Item, settings: SettingsT) -> ItemScore:
    """``task.score_item(item)``; if it raises, the item scored as a failed (missing) one.

    The failed item keeps its gold and loses its prediction, so the task's own rule for a miss
    gives its statistics row: it stays in every denominator. When even that raises (the gold
    itself cannot be scored) the row is empty, and the item still listed.
    """
    try:
        return task.score_item(item, settings)
    except RUN_ERRORS:
        raise
    except Exception as exc:
        return _as_miss(task, item, settings, f"{type(exc).__name__}: {_short(str(exc))}")


def _as_miss(task: Task[SettingsT], item: Item, settings: SettingsT, problem: str) -> ItemScore:
    reason = f"scoring failed: {problem}"
    failed = replace(item, pred=None, status="failed", error=reason)
    try:
        miss = task.score_item(failed, settings)
        if _bad_row(miss.stats) is not None:
            raise ValueError(reason)
    except Exception:
        return ItemScore(stats={}, flags=(SCORE_ERROR,), details={SCORE_ERROR: reason})
    details = {**miss.details, SCORE_ERROR: reason}
    return replace(miss, flags=(*miss.flags, SCORE_ERROR), details=details)


def scoring_failed(item: Item, score: ItemScore) -> bool:
    """True when ``item`` was read fine but its scoring raised (``isolated_score``); a missing
    or failed item is listed as such already."""
    return item.status == "ok" and SCORE_ERROR in score.flags


def item_outcome(item: Item, score: ItemScore) -> tuple[ItemStatus, str | None]:
    """(status, error) of an item's record: its own, except that an item whose scoring raised
    is ``failed``, its error the scoring's reason (the ``score_error`` detail)."""
    if scoring_failed(item, score):
        return "failed", str(score.details.get(SCORE_ERROR, ""))
    return item.status, item.error


def scoring_failure(item: Item, score: ItemScore) -> CohortIssue:
    """The listed failure of an item whose scoring raised (``scoring_failed``)."""
    return CohortIssue(item.id, item.source or "", str(score.details.get(SCORE_ERROR, "")))


def scoring_failures(items: Sequence[Item], scores: Sequence[ItemScore]) -> list[CohortIssue]:
    """Every item whose scoring raised (see ``isolated_score``), in order, as a listed failure."""
    return [
        scoring_failure(item, s)
        for item, s in zip(items, scores, strict=True)
        if scoring_failed(item, s)
    ]


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


_paused = 0
_paused_lock = threading.Lock()
_was_enabled = False
_promote = False


@contextmanager
def collector_paused(*, promote: bool = False) -> Iterator[None]:
    """Python's cyclic garbage collector off while a run is read, paired and scored (``score``)
    and while items are scored (``score_in_blocks``), as it was afterwards.

    Scoring allocates many short-lived containers and no reference cycles of note, so the
    collections it triggers mostly re-walk every loaded record for nothing (~10% of the item
    scoring time of the extraction suite; 12 of 88 CPU seconds of a 10⁶-item classification
    run, whose peak memory is the same without them); reference counting still frees
    everything at once, and anything cyclic waits for the next collection. Nested and
    concurrent uses (threads) restore the state the first one found when the last one leaves.

    With ``promote`` (the first use's say), what survives goes to the oldest generation when
    the collector comes back on (``_promote_survivors``) instead of being walked by the young
    collection its first allocation would start: a run's every record and score (0.35 of 20 CPU
    seconds of a 10⁴-document extraction run).
    """
    global _paused, _was_enabled, _promote
    with _paused_lock:
        if _paused == 0:
            _was_enabled = gc.isenabled()
            _promote = promote
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _paused_lock:
            _paused -= 1
            if _paused == 0 and _was_enabled:
                if _promote:
                    _promote_survivors()
                gc.enable()


def _promote_survivors() -> None:
    """Every object the collector tracks moved to its oldest generation, uncollected
    (``gc.freeze`` then ``gc.unfreeze``): cyclic garbage among them is found by the next full
    collection. Not when objects are frozen already (a server's own ``gc.freeze``), which
    ``unfreeze`` would release."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()
