"""Globally greedy bipartite matching over a score matrix.

The pair with the highest score is matched first, then the best pair among the rows and
columns still free, and so on; ties go to the lower row, then the lower column, so the result
never depends on anything but the matrix. This is the matching the paper-metadata suite's
seed asks for (authors, references); it is not optimal, by design.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["Match", "greedy_match"]


@dataclass(frozen=True)
class Match:
    """One matched pair: ``row`` of the score matrix, ``col`` of it and their ``score``."""

    row: int
    col: int
    score: float


def greedy_match(scores: ArrayLike, *, min_score: float = 0.0) -> list[Match]:
    """Match rows to columns greedily by descending score; a pair needs ``score > min_score``.

    Pairs are visited in the order (−score, row, col); a pair is taken when both its row and
    its column are still free. Returns the matches sorted by row. An empty matrix (either
    dimension 0) has no matches. NaN scores never match.
    """
    matrix = np.asarray(scores, dtype=np.float64)
    if matrix.ndim != 2:
        raise ValueError(f"score matrix must be 2-D, got shape {matrix.shape}")
    n_rows, n_cols = matrix.shape
    if n_rows == 0 or n_cols == 0:
        return []
    flat = np.nan_to_num(matrix, nan=-np.inf).ravel()
    candidates = np.flatnonzero(flat > min_score)
    if candidates.size == 0:
        return []
    # stable sort on −score keeps the row-major (row, col) order among equal scores
    order = candidates[np.argsort(-flat[candidates], kind="stable")]
    row_free = np.ones(n_rows, dtype=bool)
    col_free = np.ones(n_cols, dtype=bool)
    matches: list[Match] = []
    limit = min(n_rows, n_cols)
    for index in order.tolist():
        r, c = divmod(index, n_cols)
        if row_free[r] and col_free[c]:
            row_free[r] = col_free[c] = False
            matches.append(Match(r, c, float(flat[index])))
            if len(matches) == limit:
                break
    matches.sort(key=lambda m: m.row)
    return matches
