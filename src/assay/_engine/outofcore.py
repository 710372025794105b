"""Out-of-core scoring: a large cohort is scored in bounded batches with its per-item data on disk.

The paired items, the item scores and the artifact's item records are appended to spill files
(``_engine/spill.py``) and read back through lazy sequences, so the task hooks that take every
item or score (``metric_specs``, ``summaries``) and ``Run.items`` work unchanged. The statistics
table (float64, N × K) is the only N-sized array of numbers; besides it the driver keeps the
item ids, the gold digests (32 bytes each), which columns each item set (N × K bytes) and the
offsets of the spill files (8 bytes per item and file).
"""

from __future__ import annotations

import pickle
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import chain
from typing import TYPE_CHECKING, Any, overload

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

from assay._engine.cohort import Cohort, CohortIssue
from assay._engine.item import Item, new_item
from assay._engine.provenance import json_sha256_bytes
from assay._engine.records import record_lines, stats_member
from assay._engine.run import ItemRecord
from assay._engine.spill import SpillDir, SpilledSequence, SpillFile
from assay._engine.task import (
    BlockSummaries,
    ItemScore,
    Task,
    score_in_blocks,
    scoring_failure,
    task_settings,
)
from assay.metrics.kinds import FloatArray
from assay.metrics.table import StatsTable

if TYPE_CHECKING:  # concurrent.futures (and logging) load only when a pool is made
    from concurrent.futures import Executor

Progress = Callable[[int, int], None]
#: items scored per batch (and per pool.map call) on the spill path
BATCH = 8192
_PICKLE = pickle.HIGHEST_PROTOCOL


@dataclass(frozen=True)
class SpilledCohort:
    """A cohort whose items live in a spill file: the accounting stays in memory."""

    accounting: Cohort  # the original cohort's lists and counts, with ``items`` emptied
    items: SpilledSequence[Item]
    ids: list[str]
    digests: bytearray  # 32 bytes of sha256 per item: the gold record's json_sha256
    evaluated: int
    missing_ids: list[str]
    failed: list[CohortIssue]
    spill: SpillDir

    def gold_sha256(self, index: int) -> str:
        return self.digests[32 * index : 32 * index + 32].hex()


def encode_item(item: Item) -> bytes:
    """An item as the pickled tuple of its fields (``decode_item`` reads it back equal)."""
    return pickle.dumps(
        (
            item.id,
            item.gold,
            item.pred,
            item.source,
            item.meta or None,
            item.error,
            item.status,
        ),
        _PICKLE,
    )


def decode_item(data: bytes) -> Item:
    """The item ``encode_item`` wrote (``new_item``: without the frozen ``__init__``)."""
    return new_item(*pickle.loads(data))


class CohortSpiller:
    """The ``sink`` of ``build_cohort``: writes each paired item to disk as it is made and keeps
    only its id, gold digest and accounting.

    With ``on_batch`` the items are also handed to it ``batch`` at a time, in order, as they
    are paired (scored then and there: ``score_while_pairing``); with ``keep`` False they are
    not written to disk at all (nothing reads them again).
    """

    def __init__(
        self,
        spill: SpillDir,
        on_batch: Callable[[list[Item]], None] | None = None,
        *,
        keep: bool = True,
        batch: int = 0,
    ) -> None:
        self.spill = spill
        self.file = spill.file("items.pickle")
        self.ids: list[str] = []
        self.digests = bytearray()
        self.missing: list[str] = []
        self.failed: list[CohortIssue] = []
        self.evaluated = 0
        self._on_batch = on_batch
        self._keep = keep
        self._batch = batch or BATCH
        self._pending: list[Item] = []

    def __call__(self, item: Item) -> None:
        if self._keep:
            self.file.append(encode_item(item))
        self.ids.append(item.id)
        self.digests += json_sha256_bytes(item.gold)
        if item.status == "ok":
            self.evaluated += 1
        elif item.status == "missing":
            self.missing.append(item.id)
        else:
            self.failed.append(CohortIssue(item.id, item.source or "", item.error or ""))
        if self._on_batch is not None:
            self._pending.append(item)
            if len(self._pending) >= self._batch:
                self._flush()

    def _flush(self) -> None:
        items, self._pending = self._pending, []
        if items and self._on_batch is not None:
            self._on_batch(items)

    def view(self) -> SpilledCohort:
        """The cohort paired so far (its ids and digests grow as items come; no accounting)."""
        return self.finish(Cohort(items=()), flush=False)

    def finish(self, cohort: Cohort, *, flush: bool = True) -> SpilledCohort:
        """The spilled cohort, with ``cohort``'s accounting (its ``items`` are dropped); the
        last items handed to ``on_batch`` first."""
        if flush:
            self._flush()
        self.file.flush()
        return SpilledCohort(
            accounting=replace(cohort, items=()),
            items=SpilledSequence(self.file, decode_item),
            ids=self.ids,
            digests=self.digests,
            evaluated=self.evaluated,
            missing_ids=self.missing,
            failed=self.failed,
            spill=self.spill,
        )


def spill_cohort(cohort: Cohort, spill: SpillDir) -> SpilledCohort:
    """Write every item of an in-memory ``cohort`` to disk (see ``CohortSpiller``)."""
    spiller = CohortSpiller(spill)
    for item in cohort.items:
        spiller(item)
    return spiller.finish(cohort)


class RowStats(Mapping[str, float]):
    """An item's statistics read from its row of the table: the columns the item set, in the
    table's column order, as floats (what ``ItemScore.stats`` held, without a dict per item)."""

    __slots__ = ("_columns", "_index", "_present", "_row")

    def __init__(
        self,
        columns: tuple[str, ...],
        index: dict[str, int],
        row: FloatArray,
        present: NDArray[np.bool_],
    ) -> None:
        self._columns = columns
        self._index = index
        self._row = row
        self._present = present

    def __getitem__(self, name: str) -> float:
        k = self._index.get(name)
        if k is None or not self._present[k]:
            raise KeyError(name)
        return float(self._row[k])

    def __iter__(self) -> Iterator[str]:
        return (self._columns[k] for k in np.flatnonzero(self._present).tolist())

    def __len__(self) -> int:
        return int(np.count_nonzero(self._present))

    def __repr__(self) -> str:
        return repr(dict(self))


class _Lazy:
    """A non-data descriptor: the field is read from the spill on first access (all four
    fields but ``stats`` are one pickled tuple, decoded together) and from then on found in the
    instance's ``__dict__``, without calling the descriptor again."""

    def __init__(self) -> None:
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        obj._load()
        return obj.__dict__[self.name]


_SCORE_FIELDS = ("scores", "flags", "details", "abstained")


class SpilledItemScore(ItemScore):
    """An ``ItemScore`` whose statistics are a view of the table and whose other fields are
    read from the spill file when first used (a scan over ``stats`` decodes nothing)."""

    scores = _Lazy()
    flags = _Lazy()
    details = _Lazy()
    abstained = _Lazy()

    def _load(self) -> None:
        d = self.__dict__
        data = d.pop("_data", None)
        if data is None:
            data = d["_source"].read(d["_index"])
        d.update(zip(_SCORE_FIELDS, pickle.loads(data), strict=True))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ItemScore):
            return NotImplemented
        return _fields(self) == _fields(other)

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        stats, scores, flags, details, abstained = _fields(self)
        return (ItemScore, (dict(stats), scores, flags, details, abstained))


def _fields(s: ItemScore) -> tuple[Any, ...]:
    return (dict(s.stats), s.scores, s.flags, s.details, s.abstained)


def encode_score(s: ItemScore) -> bytes:
    """What ``SpilledItemScore`` reads back: every field but ``stats`` (which is the table's
    row), as one pickled tuple."""
    return pickle.dumps((s.scores, s.flags, s.details, s.abstained), _PICKLE)


class SpilledScores(Sequence[ItemScore]):
    """The run's item scores, in item order, rebuilt on access from the table and the spill;
    iterating reads the spill file in blocks."""

    def __init__(self, table: StatsTable, present: NDArray[np.bool_], source: SpillFile) -> None:
        self._columns = table.columns
        self._index = {c: k for k, c in enumerate(table.columns)}
        self._values = table.values
        self._present = present
        self._source = source

    def __len__(self) -> int:
        return int(self._values.shape[0])

    @property
    def stats_columns(self) -> tuple[str, ...]:
        """The statistics columns, in order of first appearance (``core.task.stats_columns``)."""
        return self._columns

    def _at(self, i: int, data: bytes | None = None) -> ItemScore:
        s = SpilledItemScore.__new__(SpilledItemScore)
        s.__dict__.update(
            stats=RowStats(self._columns, self._index, self._values[i], self._present[i]),
            _source=self._source,
            _index=i,
            _data=data,
        )
        return s

    @overload
    def __getitem__(self, index: int) -> ItemScore: ...

    @overload
    def __getitem__(self, index: slice) -> list[ItemScore]: ...

    def __getitem__(self, index: int | slice) -> ItemScore | list[ItemScore]:
        n = len(self)
        if isinstance(index, slice):
            return [self._at(i) for i in range(*index.indices(n))]
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("item score index out of range")
        return self._at(index)

    def __iter__(self) -> Iterator[ItemScore]:
        return (self._at(i, data) for i, data in enumerate(self._source.iter_range()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))


class SpillCollector:
    """Takes scores in item order: writes each item's score and artifact record to disk and its
    statistics into the growing N × K table; lists the items whose scoring raised (as
    ``cohort_summary`` does in memory)."""

    def __init__(
        self,
        cohort: SpilledCohort,
        task: Task[Any] | None = None,
        settings: BaseModel | None = None,
        *,
        rows: int = 0,
    ) -> None:
        self.cohort = cohort
        #: the task's ``summarize_block`` parts, one per block added (None: it gives none)
        self._summarize = (
            partial(task.summarize_block, settings=task_settings(task, settings))
            if isinstance(task, BlockSummaries) and settings is not None
            else None
        )
        self.summary_parts: list[Any] | None = None if self._summarize is None else []
        self.scores = cohort.spill.file("scores.pickle")
        self.records = cohort.spill.file("records.json")
        self.columns: dict[str, int] = {}
        #: an item's statistics names (in its order) -> their columns: items of one shape
        #: share the lookups (a suite's items have a few shapes: classification one per class)
        self._positions: dict[tuple[str, ...], list[int]] = {}
        # ``rows``: the items expected (scored while paired, the cohort is not yet complete)
        n = max(len(cohort.ids), rows)
        self.values: FloatArray = np.zeros((n, 8), dtype=np.float64)
        self.present: NDArray[np.bool_] = np.zeros((n, 8), dtype=np.bool_)
        self.abstained: list[str] = []
        #: items read fine whose scoring raised, in item order (``scoring_failure``)
        self.failed: list[CohortIssue] = []
        self.done = 0

    def add(self, items: Sequence[Item], scores: Sequence[ItemScore]) -> None:
        """Record ``scores`` of ``items``, the next items in cohort order.

        What depends on a score alone (its columns and cells, its pickled fields, the end of
        its artifact line) is derived once per score object of the call: a suite may hand one
        frozen score to items alike (classification does); the cells of all the items are then
        set by a few array operations (``_cells``)."""
        ids = self.cohort.ids
        start, n = self.done, len(items)
        if len(scores) != n:
            raise ValueError(f"{n} items but {len(scores)} scores")
        hexes = self.cohort.digests[32 * start : 32 * (start + n)].hex()
        statuses, lines = record_lines(
            items, scores, [hexes[k : k + 64] for k in range(0, 64 * n, 64)]
        )
        seen: dict[int, int] = {}  # id(score) -> its index below (the scores live till the end)
        places: list[list[int]] = []
        values: list[list[float]] = []
        pickled: list[bytes] = []
        which: list[int] = []  # per item, the index of its score's derived values
        encoded: list[bytes] = []  # the scores, appended at once
        for k, (item, s) in enumerate(zip(items, scores, strict=True)):
            if item.id != ids[start + k]:
                raise RuntimeError(f"scores out of order: item {item.id!r} at position {start + k}")
            j = seen.get(id(s))
            if j is None:
                j = seen[id(s)] = len(places)
                place, cells = self._place(s.stats)
                places.append(place)
                values.append(cells)
                pickled.append(encode_score(s))
            which.append(j)
            encoded.append(pickled[j])
            if statuses[k] != item.status:
                self.failed.append(scoring_failure(item, s))
            if s.abstained:
                self.abstained.append(item.id)
        self.done += n
        self.scores.extend(encoded)
        self.records.extend(lines)
        while len(self.columns) > self.values.shape[1]:
            self.values = _widen(self.values)
            self.present = _widen(self.present)
        if self.done > self.values.shape[0]:  # items scored while paired: the rows grow
            self.values = _lengthen(self.values, self.done)
            self.present = _lengthen(self.present, self.done)
        rows, cols, set_to = _cells(start, np.array(which, dtype=np.intp), places, values)
        self.values[rows, cols] = set_to
        self.present[rows, cols] = True
        if self._summarize is not None and self.summary_parts is not None:
            self.summary_parts.append(self._summarize(items, scores))

    def _place(self, stats: Mapping[str, float]) -> tuple[list[int], list[float]]:
        """(columns, cells) of a statistics row, its new columns added in its order."""
        names = tuple(stats)
        place = self._positions.get(names)
        if place is None:
            columns = self.columns
            place = [columns.setdefault(name, len(columns)) for name in names]
            if len(self._positions) < _MAX_SHAPES:
                self._positions[names] = place
        cells = list(stats.values())
        return place, cells if _FLOAT.issuperset(map(type, cells)) else list(map(float, cells))

    def add_from(self, start: int, scores: Sequence[ItemScore]) -> None:
        """``add`` for scores that arrive without their items (read back from the spill)."""
        self.add(self.cohort.items[start : start + len(scores)], scores)

    def table(self) -> StatsTable:
        k, n = len(self.columns), self.done
        if self.values.shape != (n, k):
            self.values = self.values[:n, :k].copy()
            self.present = self.present[:n, :k].copy()
        return StatsTable(tuple(self.cohort.ids), tuple(self.columns), self.values)

    def item_scores(self, table: StatsTable) -> SpilledScores:
        self.scores.flush()
        return SpilledScores(table, self.present, self.scores)

    def item_records(self) -> SpilledSequence[ItemRecord]:
        self.records.flush()
        return SpilledSequence(self.records, ItemRecord.model_validate_json)

    def stats_json(self, table: StatsTable) -> dict[str, Any]:
        """``StatsTable.to_json()`` with the rows produced on demand."""
        return stats_member(table, self.cohort.ids)


#: statistics shapes remembered per collector (a suite with a column per item has no shapes)
_MAX_SHAPES = 4096
#: a row's cells are kept as they are when all are floats (checked over the whole row in C)
_FLOAT = frozenset({float})


def _cells(
    start: int, which: NDArray[np.intp], places: list[list[int]], values: list[list[float]]
) -> tuple[NDArray[np.intp], NDArray[np.intp], FloatArray]:
    """(rows, columns, values) of the cells set by items ``start``, ``start + 1``, ... whose
    statistics are row ``which[k]`` of (``places``: columns, ``values``: cells): each item's
    cells in its row's order, gathered from the distinct rows laid end to end."""
    width = np.array([len(p) for p in places], dtype=np.intp)
    first = np.cumsum(width) - width  # where each distinct row starts, laid end to end
    flat_cols = np.fromiter(chain.from_iterable(places), dtype=np.intp, count=int(width.sum()))
    flat_vals = np.fromiter(chain.from_iterable(values), dtype=np.float64, count=flat_cols.size)
    per = width[which]  # cells per item
    total = int(per.sum())
    out_first = np.cumsum(per) - per  # where each item's cells start in the output
    source = np.repeat(first[which] - out_first, per) + np.arange(total, dtype=np.intp)
    rows = np.repeat(np.arange(start, start + which.size, dtype=np.intp), per)
    return rows, flat_cols[source], flat_vals[source]


def _lengthen(array: NDArray[Any], rows: int) -> NDArray[Any]:
    grown = np.zeros((max(rows, 2 * array.shape[0]), array.shape[1]), dtype=array.dtype)
    grown[: array.shape[0]] = array
    return grown


def _widen(array: NDArray[Any]) -> NDArray[Any]:
    grown = np.zeros((array.shape[0], 2 * array.shape[1]), dtype=array.dtype)
    grown[:, : array.shape[1]] = array
    return grown


def _batches(items: SpilledSequence[Item], size: int) -> Iterator[list[Item]]:
    for lo in range(0, len(items), size):
        yield items[lo : lo + size]


def score_while_pairing(
    task: Task[Any],
    section: BaseModel,
    spill: SpillDir,
    *,
    progress: Progress | None = None,
    expected_total: int = 0,
    batch: int = BATCH,
) -> tuple[CohortSpiller, SpillCollector]:
    """A spiller (``build_cohort``'s sink) that scores each batch of items as it is paired,
    into the returned collector, as ``score_in_batches`` would score them from the file
    afterwards (same blocks, same order): for one local worker, so that no item is written
    and read back to be scored. Items are still kept on disk unless the task summarizes by
    blocks (``BlockSummaries``): then nothing reads them again. ``expected_total`` (the
    gold records and expected ids: at least the surface) sizes the table and is the progress
    bar's estimate until the pairing is done."""
    blockwise = isinstance(task, BlockSummaries)
    fn = partial(score_in_blocks, task, settings=section)
    collector: SpillCollector | None = None

    def on_batch(items: list[Item]) -> None:
        assert collector is not None
        collector.add(items, fn(items))
        if progress:
            progress(collector.done, max(expected_total, collector.done))

    spiller = CohortSpiller(spill, on_batch, keep=not blockwise, batch=batch)
    collector = SpillCollector(spiller.view(), task, section, rows=expected_total)
    return spiller, collector


def local_pool(executor_kind: str, jobs: int) -> Executor:
    """A pool of ``jobs`` local workers: processes when ``executor_kind`` is "process", else
    threads. The pools import multiprocessing (~1.5 MiB resident), so only when items are
    scored on them."""
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

    if executor_kind == "process":
        return ProcessPoolExecutor(max_workers=jobs)
    return ThreadPoolExecutor(max_workers=jobs)


def score_in_batches(
    task: Task[Any],
    cohort: SpilledCohort,
    section: BaseModel,
    collector: SpillCollector,
    *,
    jobs: int = 1,
    executor: Executor | None = None,
    executor_kind: str = "process",
    progress: Progress | None = None,
    batch: int = BATCH,
) -> None:
    """Score the spilled items batch by batch into ``collector``, in order; on ``executor`` or
    a pool of ``jobs`` workers, with the next batch in flight while one is collected."""
    fn = partial(score_in_blocks, task, settings=section)
    size = max(1, task.batch_size)
    total = len(cohort.items)
    if executor is None and (jobs <= 1 or total < 2):
        for items in _batches(cohort.items, batch):
            collector.add(items, fn(items))
            if progress:
                progress(collector.done, total)
        return
    own = executor is None
    pool = executor or local_pool(executor_kind, jobs)
    chunk = max(1, batch // (max(jobs, 1) * 8 * size))
    pending: deque[tuple[list[Item], Iterator[ItemScore]]] = deque()
    try:
        for items in _batches(cohort.items, batch):
            blocks = [items[lo : lo + size] for lo in range(0, len(items), size)]
            scored = chain.from_iterable(pool.map(fn, blocks, chunksize=chunk))
            pending.append((items, scored))
            if len(pending) > 1:
                _collect(pending.popleft(), collector, progress, total)
        while pending:
            _collect(pending.popleft(), collector, progress, total)
    finally:
        if own:
            pool.shutdown()


def _collect(
    done: tuple[list[Item], Iterator[ItemScore]],
    collector: SpillCollector,
    progress: Progress | None,
    total: int,
) -> None:
    items, results = done
    collector.add(items, list(results))
    if progress:
        progress(collector.done, total)
