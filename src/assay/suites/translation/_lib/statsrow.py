"""One entry's statistics row as a read-only mapping over its batch's shared column names.

Every entry of a batch sets the same 43 columns (chrF++, BLEU, TER, segments, exact match,
error, COMET): a dict each is a 128-slot hash table (1.5 KB, more than the rest of the
entry's scoring together), where the names once per batch and the values as one tuple an entry
take 0.4 KB. The engine reads a row as any mapping (``StatsTable.from_rows``: its length, its
names, its values), so the statistics table, and the artifact, are the same.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class StatsRow(Mapping[str, float]):
    """``dict(zip(columns, values))`` without the hash table: ``index`` maps each of
    ``columns`` (shared by the rows of a batch) to its position in ``values``."""

    __slots__ = ("_columns", "_index", "_values")

    def __init__(
        self, columns: tuple[str, ...], index: Mapping[str, int], values: tuple[float, ...]
    ) -> None:
        self._columns = columns
        self._index = index
        self._values = values

    def __getitem__(self, name: str) -> float:
        return self._values[self._index[name]]

    def __iter__(self) -> Iterator[str]:
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)

    def values(self) -> tuple[float, ...]:  # type: ignore[override]
        """The values in column order, as held (one C-level scan for the table's fill)."""
        return self._values

    def __repr__(self) -> str:
        return repr(dict(self))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the dict it stands for (a process pool's results travel as dicts)."""
        return (dict, (list(zip(self._columns, self._values, strict=True)),))


#: a batch's column-name tuples, each with its name → position index (shared by its rows)
Shapes = dict[tuple[str, ...], tuple[tuple[str, ...], dict[str, int]]]


def stats_row(stats: dict[str, float], shapes: Shapes) -> StatsRow:
    """``stats`` as a `StatsRow` over the names it shares with the batch's entries of the same
    columns (in ``shapes``, added there when new).

    Plain equivalent: ``stats`` itself (the engine reads either as a mapping; the table and the
    artifact are the same). Why and gain: see the module docstring (1.5 KB → 0.4 KB an entry;
    benchmarks/README.md, "`mt test` memory, fifth pass").
    """
    names = tuple(stats)
    shape = shapes.get(names)
    if shape is None:
        shape = shapes[names] = (names, {name: k for k, name in enumerate(names)})
    return StatsRow(*shape, tuple(stats.values()))
