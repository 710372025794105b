"""A read-only sequence that behaves like the list it stands for: equal element by element to
any sequence, pickled as a plain list.

The lazy sequences of a run (a spill file's records, _engine/spill.py; the item records of an
artifact parsed on first use, _engine/run.py) derive from it. It lives apart from both so that
reading an artifact does not import the spill machinery (and the readers it needs).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class ListLike(Sequence[T], Generic[T]):
    """Compares element by element with any sequence and pickles as a plain list (a spill file
    or an unparsed artifact does not travel to another process)."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))
