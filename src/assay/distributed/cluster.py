"""Score a cohort on a Dask cluster: each partition of items is scored on a worker and reduced
there to its Poisson replicate sums (B × K), which the client adds up.

What travels back per partition: the partition's ``ItemScore`` objects (the Run artifact keeps
every item's statistics row, scores, flags and details, and later paired tests need the rows)
and, with Poisson resampling and CIs on, one (B × K_p) float64 array of replicate sums. The
bootstrap's B × N weights — the expensive part at scale — never leave the workers. With the
multinomial scheme the resamples need the global N, so the client bootstraps the gathered table.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import BaseModel

from assay.core.item import Item
from assay.core.task import ItemScore, Task
from assay.errors import ConfigError
from assay.metrics.kinds import FloatArray
from assay.metrics.table import StatsTable
from assay.stats.poisson import item_keys, poisson_replicate_sums

Progress = Callable[[int, int], None]
#: partitions per worker when the caller does not say: enough to balance, few enough to be cheap
PARTITIONS_PER_WORKER = 4
_SCHEME = "dask://"
_MISSING_EXTRA = (
    "--executor dask://... needs dask.distributed, which is not installed: "
    "install the optional extra with `pip install 'assay[dask]'` (or `uv sync --extra dask`)"
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
    task: Task,
    items: Sequence[Item],
    section: BaseModel,
    *,
    n_resamples: int,
    seed: int,
    poisson: bool,
) -> PartitionResult:
    """Score ``items`` and, when ``poisson``, reduce them to their (B × K) replicate sums."""
    scores = tuple(task.score_item(item, settings=section) for item in items)
    columns = _columns_in_order(scores)
    sums = None
    if poisson:
        ids = [item.id for item in items]
        table = StatsTable.from_rows(ids, [s.stats for s in scores], columns)
        sums = poisson_replicate_sums(item_keys(ids), table.values, n_resamples, seed)
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


def score_on_dask(
    address: str,
    task: Task,
    items: Sequence[Item],
    section: BaseModel,
    *,
    n_resamples: int,
    seed: int,
    poisson: bool,
    partitions: int | None = None,
    progress: Progress | None = None,
) -> tuple[list[ItemScore], tuple[tuple[str, ...], FloatArray] | None]:
    """Every item's score in order and, when ``poisson``, the summed replicate sums.

    Partitions are contiguous runs of items; a worker that dies has its partitions rerun by
    Dask (each is a pure function of its inputs, so the numbers do not change).
    """
    client = _client(address)
    try:
        distributed = importlib.import_module("distributed")
        n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        slices = _slices(len(items), partitions or PARTITIONS_PER_WORKER * n_workers)
        futures = [
            client.submit(
                score_partition,
                k,
                task,
                list(items[lo:hi]),
                section,
                n_resamples=n_resamples,
                seed=seed,
                poisson=poisson,
                pure=False,
            )
            for k, (lo, hi) in enumerate(slices)
        ]
        results: list[PartitionResult | None] = [None] * len(slices)
        done = 0
        for future in distributed.as_completed(futures):
            part: PartitionResult = future.result()
            results[part.index] = part
            done += len(part.scores)
            if progress:
                progress(done, len(items))
    finally:
        client.close()
    ordered = [r for r in results if r is not None]
    scores = [s for r in ordered for s in r.scores]
    if not poisson:
        return scores, None
    columns = _columns_in_order(scores)
    index = {c: k for k, c in enumerate(columns)}
    total = np.zeros((n_resamples, len(columns)), dtype=np.float64)
    for r in ordered:
        if r.replicate_sums is not None and r.columns:
            total[:, [index[c] for c in r.columns]] += r.replicate_sums
    return scores, (columns, total)
