"""Score a cohort on a Dask cluster: each partition of items is scored on a worker and reduced
there to its Poisson replicate sums (B × K), which the client adds up.

What travels back per partition: the partition's ``ItemScore`` objects (the Run artifact keeps
every item's statistics row, scores, flags and details, and later paired tests need the rows)
and, with Poisson resampling and CIs on, one (B × K_p) float64 array of replicate sums. The
bootstrap's B × N weights — the expensive part at scale — never leave the workers. With the
multinomial scheme the resamples need the global N, so the client bootstraps the gathered table.
Partitions are submitted a few at a time and handed on in item order as they complete, so an
out-of-core run (``_engine/outofcore.py``) writes them to disk without holding every score.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import BaseModel

from assay._engine.item import Item
from assay._engine.task import ItemScore, Task, score_in_blocks
from assay.errors import ConfigError
from assay.metrics.kinds import FloatArray
from assay.metrics.table import StatsTable
from assay.stats.poisson import item_keys, poisson_replicate_sums

Progress = Callable[[int, int], None]
#: partitions per worker when the caller does not say: enough to balance, few enough to be cheap
PARTITIONS_PER_WORKER = 4
#: items per partition at most when the caller does not set the number of partitions
MAX_PARTITION_ITEMS = 5_000
_SCHEME = "dask://"
_MISSING_EXTRA = (
    "--executor dask://... needs dask.distributed, which is not installed: "
    "install the optional extra dask (in a checkout: `uv sync --extra dask`; from a wheel: "
    "its [dask] extra, README 'Install')"
)


@dataclass(frozen=True)
class PartitionResult:
    """One partition, scored and reduced on a worker."""

    index: int
    scores: tuple[ItemScore, ...]
    columns: tuple[str, ...]
    replicate_sums: FloatArray | None


def parse_dask_address(address: str) -> str:
    """``dask://HOST:PORT`` → the scheduler address ``tcp://HOST:PORT``; anything else fails."""
    if not address.startswith(_SCHEME) or ":" not in address[len(_SCHEME) :]:
        raise ConfigError(f"executor {address!r}: expected dask://HOST:PORT")
    return "tcp://" + address[len(_SCHEME) :]


def _columns_in_order(scores: Sequence[ItemScore]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for s in scores:
        for name in s.stats:
            seen.setdefault(name, None)
    return tuple(seen)


def score_partition(
    index: int,
    task: Task[Any],
    items: Sequence[Item],
    section: BaseModel,
    *,
    n_resamples: int,
    seed: int,
    poisson: bool,
    labels: Sequence[str] | None = None,
) -> PartitionResult:
    """Score ``items`` and, when ``poisson``, reduce them to their (B × K) replicate sums.

    With cluster ``labels`` (one per item), an item's weight is keyed by its cluster's label,
    not its id: every item of a cluster gets the cluster's weight, Σ_i w(c_i) S_i =
    Σ_c w(c) S_c, so the partitions' sums add up to the Poisson bootstrap of the cluster sums
    however a cluster is split between partitions."""
    scores = tuple(score_in_blocks(task, items, section))
    columns = _columns_in_order(scores)
    sums = None
    if poisson:
        ids = [item.id for item in items]
        table = StatsTable.from_rows(ids, [s.stats for s in scores], columns)
        keys = item_keys(labels if labels is not None else ids)
        sums = poisson_replicate_sums(keys, table.values, n_resamples, seed)
    return PartitionResult(index, scores, columns, sums)


def _client(address: str) -> Any:
    try:
        distributed = importlib.import_module("distributed")
    except ImportError:
        raise ConfigError(_MISSING_EXTRA) from None
    try:
        return distributed.Client(parse_dask_address(address), timeout="30s")
    except OSError as err:
        raise ConfigError(f"cannot reach the Dask scheduler at {address}: {err}") from None


def _slices(total: int, parts: int) -> list[tuple[int, int]]:
    parts = max(1, min(parts, total))
    bounds = [round(k * total / parts) for k in range(parts + 1)]
    return [(bounds[k], bounds[k + 1]) for k in range(parts) if bounds[k] < bounds[k + 1]]


def default_partitions(total: int, n_workers: int) -> int:
    """Partitions when the caller does not say: 4 per worker, and at most
    ``MAX_PARTITION_ITEMS`` items each so that few items are in flight at a time."""
    return max(PARTITIONS_PER_WORKER * max(1, n_workers), -(-total // MAX_PARTITION_ITEMS))


def score_on_dask(
    address: str,
    task: Task[Any],
    items: Sequence[Item],
    section: BaseModel,
    *,
    n_resamples: int,
    seed: int,
    poisson: bool,
    partitions: int | None = None,
    progress: Progress | None = None,
    labels: Sequence[str] | None = None,
) -> tuple[list[ItemScore], tuple[tuple[str, ...], FloatArray] | None]:
    """Every item's score in order and, when ``poisson``, the summed replicate sums.

    Partitions are contiguous runs of items; a worker that dies has its partitions rerun by
    Dask (each is a pure function of its inputs, so the numbers do not change).
    """
    scores: list[ItemScore] = []
    sums = stream_on_dask(
        address,
        task,
        items,
        section,
        sink=lambda _start, part: scores.extend(part),
        n_resamples=n_resamples,
        seed=seed,
        poisson=poisson,
        partitions=partitions,
        progress=progress,
        labels=labels,
    )
    return scores, sums


def stream_on_dask(
    address: str,
    task: Task[Any],
    items: Sequence[Item],
    section: BaseModel,
    *,
    sink: Callable[[int, Sequence[ItemScore]], None],
    n_resamples: int,
    seed: int,
    poisson: bool,
    partitions: int | None = None,
    progress: Progress | None = None,
    in_flight: int | None = None,
    labels: Sequence[str] | None = None,
) -> tuple[tuple[str, ...], FloatArray] | None:
    """Score ``items`` partition by partition on the cluster, handing each partition's scores
    to ``sink(first item position, scores)`` in item order; return the summed replicate sums.

    At most ``in_flight`` partitions (default two per worker) are submitted or held at a time,
    so the client never holds every item or every score at once. ``labels`` (one cluster
    label per item) key the Poisson weights by cluster (`score_partition`).
    """
    client = _client(address)
    parts: list[tuple[tuple[str, ...], FloatArray | None]] = []
    try:
        distributed = importlib.import_module("distributed")
        n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        slices = _slices(len(items), partitions or default_partitions(len(items), n_workers))
        window = max(1, in_flight or 2 * n_workers)

        def submit(k: int) -> Any:
            lo, hi = slices[k]
            return client.submit(
                score_partition,
                k,
                task,
                list(items[lo:hi]),
                section,
                n_resamples=n_resamples,
                seed=seed,
                poisson=poisson,
                labels=None if labels is None else list(labels[lo:hi]),
                pure=False,
            )

        pending = distributed.as_completed([submit(k) for k in range(min(window, len(slices)))])
        submitted = min(window, len(slices))
        ready: dict[int, PartitionResult] = {}
        emitted = done = 0
        for future in pending:
            part: PartitionResult = future.result()
            future.release()
            ready[part.index] = part
            while emitted in ready:
                r = ready.pop(emitted)
                sink(slices[emitted][0], r.scores)
                parts.append((r.columns, r.replicate_sums))
                done += len(r.scores)
                emitted += 1
                if progress:
                    progress(done, len(items))
            while submitted < len(slices) and submitted - emitted < window:
                pending.add(submit(submitted))
                submitted += 1
    finally:
        client.close()
    return summed_replicates(parts, n_resamples) if poisson else None


def summed_replicates(
    parts: Sequence[tuple[tuple[str, ...], FloatArray | None]], n_resamples: int
) -> tuple[tuple[str, ...], FloatArray]:
    """The partitions' Poisson replicate sums added into one (B, K) matrix over the union of
    their columns (in the order they first appear): a replicate's sum over all items is the
    sum of its partitions' sums, because each item's weight depends on its id alone."""
    seen: dict[str, None] = {}
    for columns, _ in parts:
        for c in columns:
            seen.setdefault(c, None)
    index = {c: k for k, c in enumerate(seen)}
    total = np.zeros((n_resamples, len(index)), dtype=np.float64)
    for columns, sums in parts:
        if sums is not None and columns:
            total[:, [index[c] for c in columns]] += sums
    return tuple(seen), total
