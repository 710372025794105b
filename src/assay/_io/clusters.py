"""Cluster maps: which cluster (contract, document, paper) each item belongs to, from a file.

``--clusters FILE`` reads one of:

* a JSON object ``{"item id": "cluster", ...}``;
* a two-column TSV or CSV, ``id<TAB>cluster`` (or ``id,cluster``), an optional header row
  ``id<TAB>cluster`` ignored; WMT's ``*.docids.tsv`` (``0<TAB>doc``: 0-based line numbers) is
  this shape;
* a one-column file: line k (1-based) is the cluster of the item on line k of a line-aligned
  input (an MT hypothesis file).

Like an id list, a cluster map is used whole: any problem in it is an `InputError` naming the
file and line. `labels_for` then maps a run's item ids to their clusters, every id covered.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from assay._io.idlists import read_whole_text
from assay._io.readers import json_type
from assay._io.strict import StrictJSONError
from assay._io.strict import loads as strict_loads
from assay.errors import InputError

__all__ = ["ClusterMap", "read_cluster_map"]


@dataclass(frozen=True)
class ClusterMap:
    """id → cluster, as read from ``source``; ``zero_based_lines`` when the ids are line
    numbers counted from 0 (WMT docids), so line-aligned items (ids 1..N) shift by one."""

    source: str
    mapping: Mapping[str, str]
    zero_based_lines: bool = False

    def labels_for(self, ids: Sequence[str]) -> tuple[str, ...]:
        """The cluster of each of ``ids``; an id the map does not cover is an InputError that
        names the first few."""
        get = self.mapping.get
        if self.zero_based_lines:
            labels = [get(str(int(i) - 1)) if i.isdigit() else get(i) for i in ids]
        else:
            labels = [get(i) for i in ids]
        missing = [i for i, label in zip(ids, labels, strict=True) if label is None]
        if missing:
            raise InputError(
                f"{self.source}: no cluster for {len(missing)} of {len(ids)} item(s), "
                f"e.g. {', '.join(repr(m) for m in missing[:5])}"
            )
        return tuple(label for label in labels if label is not None)


def read_cluster_map(path: str | os.PathLike[str]) -> ClusterMap:
    """The cluster map in ``path`` (see the module docstring for the formats)."""
    p, text = read_whole_text(path)
    if p.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        return ClusterMap(str(p), _json_map(str(p), text))
    rows = [(k + 1, line) for k, line in enumerate(text.splitlines()) if line.strip()]
    if not rows:
        raise InputError(f"{p}: no clusters in the file")
    sep = "\t" if any("\t" in line for _, line in rows) else "," if p.suffix == ".csv" else None
    if sep is None:
        lines = enumerate(text.splitlines(), 1)
        return ClusterMap(str(p), {str(n): line.strip() for n, line in lines})
    mapping: dict[str, str] = {}
    for lineno, line in rows:
        cells = [c.strip() for c in line.split(sep)]
        if len(cells) != 2 or not cells[0] or not cells[1]:
            raise InputError(f"{p}:{lineno}: expected 'id{sep!r}cluster', got {line[:80]!r}")
        if lineno == rows[0][0] and cells[0].lower() == "id":
            continue  # header
        if cells[0] in mapping and mapping[cells[0]] != cells[1]:
            item, before = cells[0], mapping[cells[0]]
            raise InputError(f"{p}:{lineno}: id {item!r} is in cluster {before!r} and {cells[1]!r}")
        mapping[cells[0]] = cells[1]
    return ClusterMap(str(p), mapping, zero_based_lines="0" in mapping)


def _json_map(source: str, text: str) -> dict[str, str]:
    try:
        data = strict_loads(text)
    except (StrictJSONError, ValueError) as exc:
        raise InputError(f"{source}: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise InputError(f"{source}: expected a JSON object id → cluster, got {json_type(data)}")
    out: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise InputError(
                f"{source}: the cluster of {key!r} must be a string or integer, "
                f"got {json_type(value)}"
            )
        out[str(key)] = str(value)
    return out
