"""Encoding a Run for the store: JSON for the envelope, a float64 blob for the statistics and
the item records in chunks, worst first.

The statistics matrix is stored as little-endian float64 bytes (zlib-compressed), not as one
row per item per column. Items are stored in the drill-down's order (failed and missing first,
then lowest scores) in chunks of ``CHUNK`` records, with their original positions as an int32
blob, so a page of the drill-down reads one chunk and the full run is rebuilt exactly.
Decoding gives back a Run whose ``to_json()`` is byte-identical to the original's.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from assay._engine.records import ScoredRecords
from assay._engine.run import ItemRecord, Run, json_safe
from assay._engine.spill import SpilledSequence
from assay._report.ranking import ranking_for, worst_first
from assay.errors import InputError
from assay.metrics.table import compact_rows

ENCODING = "zlib-json+f8le/1"
CHUNK = 100
#: the envelope's member holding a clustered run's ``stats.clusters`` (not a Run field)
_CLUSTERS = "stats_clusters"


@dataclass(frozen=True)
class EncodedRun:
    """The payload columns of one stored run and its item chunks."""

    envelope: bytes
    stats_ids: bytes
    stats_columns: str
    stats_values: bytes
    item_order: bytes
    n_items: int
    chunks: tuple[bytes, ...]


def pack(value: Any) -> bytes:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return zlib.compress(text.encode("utf-8"), 6)


def unpack(blob: bytes) -> Any:
    return json.loads(zlib.decompress(blob).decode("utf-8"))


def encode_run(run: Run) -> EncodedRun:
    """Split a run into its compressed envelope, statistics blob and ranked item chunks."""
    data = json_safe(run.model_dump(mode="json", exclude={"stats", "items"}))
    if "clusters" in run.stats:  # one label per id: kept with the envelope (small beside rows)
        data[_CLUSTERS] = list(run.stats["clusters"])
    values = np.ascontiguousarray(run.table().values, dtype="<f8")
    order = worst_first(run.items, ranking_for(run))  # the run's primary metric
    # one chunk of item records at a time: a spilled run's items are read from disk
    item_data = _item_data(run.items)
    chunks = tuple(
        pack([item_data(i) for i in order[k : k + CHUNK]]) for k in range(0, len(order), CHUNK)
    )
    return EncodedRun(
        envelope=pack(data),
        stats_ids=pack(run.stats["ids"]),
        stats_columns=json.dumps(run.stats["columns"], ensure_ascii=False),
        stats_values=zlib.compress(values.tobytes(), 6),
        item_order=zlib.compress(np.asarray(order, dtype="<i4").tobytes(), 6),
        n_items=len(order),
        chunks=chunks,
    )


def _item_data(items: Sequence[ItemRecord]) -> Callable[[int], Any]:
    """Item ``i`` as the artifact's JSON data: the line the artifact writes, parsed, for a run
    scored here or spilled (no record validated and dumped again); a list's record dumped."""
    if isinstance(items, SpilledSequence | ScoredRecords):
        return lambda i: json.loads(items.raw_at(i))
    return lambda i: json_safe(items[i].model_dump(mode="json"))


def decode_stats(ids_blob: bytes, columns_text: str, values_blob: bytes) -> dict[str, Any]:
    """The statistics: ids, columns and the (N, K) float64 matrix."""
    ids = unpack(ids_blob)
    columns = json.loads(columns_text)
    flat = np.frombuffer(zlib.decompress(values_blob), dtype="<f8")
    if flat.size != len(ids) * len(columns):
        raise InputError(
            f"stored statistics are corrupt: {flat.size} values for "
            f"{len(ids)} items × {len(columns)} columns"
        )
    return {"ids": ids, "columns": columns, "values": flat.reshape(len(ids), len(columns))}


def decode_items(chunks: Sequence[bytes]) -> list[dict[str, Any]]:
    """Item records (as JSON data) from consecutive chunks, in ranked order."""
    out: list[dict[str, Any]] = []
    for blob in chunks:
        out.extend(unpack(blob))
    return out


def original_order(ranked: list[dict[str, Any]], order_blob: bytes) -> list[dict[str, Any]]:
    """Put ranked items back in the run's own order."""
    order = np.frombuffer(zlib.decompress(order_blob), dtype="<i4")
    if order.size != len(ranked):
        raise InputError(f"stored items are corrupt: {len(ranked)} items, {order.size} positions")
    items: list[dict[str, Any]] = [{}] * len(ranked)
    for rank, pos in enumerate(order.tolist()):
        items[pos] = ranked[rank]
    return items


def decode_run(
    envelope: bytes,
    stats: dict[str, Any] | None,
    items: list[dict[str, Any]] | None,
    *,
    encoding: str = ENCODING,
) -> Run:
    """Rebuild the Run; without ``stats``/``items`` those members are left empty (a light run
    for pages that show only the scorecard and a page of items)."""
    if encoding != ENCODING:
        raise InputError(f"stored run has payload encoding {encoding!r}; expected {ENCODING!r}")
    data = unpack(envelope)
    clusters = data.pop(_CLUSTERS, None)
    if stats is None:
        data["stats"] = {"ids": [], "columns": [], "values": []}
    else:
        data["stats"] = {
            "ids": stats["ids"],
            "columns": stats["columns"],
            "values": compact_rows(stats["values"]),
            **({"clusters": clusters} if clusters is not None else {}),
        }
    data["items"] = items or []
    return Run.model_validate(data)


def item_records(data: list[dict[str, Any]]) -> list[ItemRecord]:
    return [ItemRecord.model_validate(d) for d in data]
