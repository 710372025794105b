"""rapidfuzz scorers with an explicit processor, one pair at a time or as a whole matrix.

Two processors, stated explicitly so no scorer depends on a library default:

- ``prepared`` (the default): ``normalize_text`` (casefold, NFKD, Latin accents off) and then
  rapidfuzz's ``default_process`` (non-alphanumerics to spaces, trimmed). For citation strings.
- ``lowered``: trimmed and lower-cased, nothing more: bibr's evaluator compares reference titles,
  containers and first-author surnames this way (punctuation and accents count).

Scores are on rapidfuzz's 0-100 scale.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray
from rapidfuzz import fuzz, process
from rapidfuzz.utils import default_process

from assay._text import normalize_text

Scorer = Callable[..., float]
TOKEN_SORT: Scorer = fuzz.token_sort_ratio
TOKEN_SET: Scorer = fuzz.token_set_ratio
RATIO: Scorer = fuzz.ratio


@lru_cache(maxsize=131072)
def prepared(text: str) -> str:
    """What the scorers compare: ``default_process(normalize_text(text))``."""
    return str(default_process(normalize_text(text)))


def lowered(text: str) -> str:
    """What the bibr-aligned comparisons see: ``text.strip().lower()``."""
    return text.strip().lower()


def similarity(
    a: str | None, b: str | None, scorer: Scorer = TOKEN_SORT, *, lower_only: bool = False
) -> float:
    """Similarity (0-100) of two strings after the explicit processor (``lowered`` with
    ``lower_only``, else ``prepared``); 0 when either is empty."""
    process_ = lowered if lower_only else prepared
    pa, pb = process_(a or ""), process_(b or "")
    if not pa or not pb:
        return 0.0
    return float(scorer(pa, pb, processor=None))


def similarity_matrix(
    rows: Sequence[str],
    cols: Sequence[str],
    scorer: Scorer = TOKEN_SORT,
    *,
    cutoff: float = 0.0,
    lower_only: bool = False,
) -> NDArray[np.float64]:
    """The (len(rows), len(cols)) matrix of ``similarity``, computed by ``process.cdist``.

    With ``cutoff``, scores below it come back as 0 (rapidfuzz then skips work on them), for
    callers that only compare against a threshold.
    """
    if not rows or not cols:
        return np.zeros((len(rows), len(cols)))
    process_ = lowered if lower_only else prepared
    pr = [process_(r) for r in rows]
    pc = [process_(c) for c in cols]
    kwargs: dict[str, Any] = {"scorer": scorer, "processor": None, "dtype": np.float32}
    if cutoff > 0:
        kwargs["score_cutoff"] = cutoff
    matrix = np.asarray(process.cdist(pr, pc, **kwargs), dtype=np.float64)
    empty_r = np.array([not s for s in pr])
    empty_c = np.array([not s for s in pc])
    matrix[empty_r, :] = 0.0
    matrix[:, empty_c] = 0.0
    return matrix
