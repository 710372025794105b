"""Optimal one-to-one assignment on a similarity matrix (Hungarian algorithm, scipy).

Pairs below the threshold (and NaN) are not eligible. Among eligible pairs the assignment first
maximizes the number of matches, then their total similarity: each eligible pair weighs
``K + similarity`` with K larger than any total similarity, so the matched count (and with it
precision, recall and F1) never depends on the order of the rows or columns.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike, NDArray


@dataclass(frozen=True)
class Assignment:
    """Matched (row, column, similarity) triples, sorted by row; and the matrix's shape."""

    pairs: tuple[tuple[int, int, float], ...]
    n_rows: int
    n_cols: int

    @property
    def matched(self) -> int:
        return len(self.pairs)

    @property
    def unmatched_rows(self) -> tuple[int, ...]:
        used = {r for r, _, _ in self.pairs}
        return tuple(r for r in range(self.n_rows) if r not in used)

    @property
    def unmatched_cols(self) -> tuple[int, ...]:
        used = {c for _, c, _ in self.pairs}
        return tuple(c for c in range(self.n_cols) if c not in used)


#: scipy's compiled assignment solver, relative to the scipy package
_LSAP_MODULE = ("optimize", "_lsap")


@cache
def _solver() -> Callable[..., tuple[NDArray[np.intp], NDArray[np.intp]]]:
    """scipy's ``linear_sum_assignment``, loaded on first use (keeps CLI start-up fast).

    It is the compiled module ``scipy.optimize._lsap`` (it needs numpy only), loaded from its
    file by itself: importing it through ``scipy.optimize`` first runs that package's
    ``__init__``, which imports every optimizer (scipy.sparse, scipy.linalg, scipy.special...):
    0.6-0.7 s of CPU, a third of a 1,000-document extraction run. Where the module file is not
    found (another scipy layout), or scipy.optimize is imported anyway, the package's function.
    """
    if "scipy.optimize" not in sys.modules:
        direct = _load_lsap()
        if direct is not None:
            return direct
    from scipy.optimize import linear_sum_assignment

    return linear_sum_assignment  # type: ignore[no-any-return]


def _load_lsap() -> Callable[..., tuple[NDArray[np.intp], NDArray[np.intp]]] | None:
    """``scipy.optimize._lsap.linear_sum_assignment`` from the extension file, or None."""
    scipy_spec = importlib.util.find_spec("scipy")
    if scipy_spec is None or not scipy_spec.submodule_search_locations:
        return None
    name = "scipy." + ".".join(_LSAP_MODULE)
    for root in scipy_spec.submodule_search_locations:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = Path(root, *_LSAP_MODULE[:-1], _LSAP_MODULE[-1] + suffix)
            if not path.is_file():
                continue
            loader = importlib.machinery.ExtensionFileLoader(name, str(path))
            spec = importlib.util.spec_from_file_location(name, path, loader=loader)
            if spec is None:
                return None
            try:
                module = importlib.util.module_from_spec(spec)
                loader.exec_module(module)
            except ImportError:
                return None
            solver = getattr(module, "linear_sum_assignment", None)
            return solver if callable(solver) else None
    return None


def optimal_assignment(similarity: ArrayLike, threshold: float) -> Assignment:
    """Maximum-cardinality, then maximum-similarity matching over pairs ≥ ``threshold``.

    ``similarity`` is (rows × cols) with values in [0, 1]; rows and columns are each used at
    most once. Remaining ties are broken by scipy's deterministic order.
    """
    return optimal_assignments([similarity], threshold)[0]


def optimal_assignments(similarities: Sequence[ArrayLike], threshold: float) -> list[Assignment]:
    """``[optimal_assignment(s, threshold) for s in similarities]``, pair for pair, for many
    2-D matrices: the eligibility tests, the unique-matching shortcut and the weights of all
    of them by a fixed number of numpy calls over their concatenation, so that per matrix only
    the solver (where it is needed) and the pairs are left."""
    out: list[Assignment | None] = [None] * len(similarities)
    live: list[int] = []
    sims: list[NDArray[np.float64]] = []
    for k, matrix in enumerate(similarities):
        sim = np.asarray(matrix, dtype=np.float64)
        if sim.ndim != 2:
            raise ValueError(f"similarity must be a 2-D matrix, got shape {sim.shape}")
        if sim.size:
            live.append(k)
            sims.append(sim)
        else:
            out[k] = Assignment((), *sim.shape)
    if live:
        _assign_live(sims, threshold, live, out)
    return [a for a in out if a is not None]


def _assign_live(
    sims: list[NDArray[np.float64]], threshold: float, at: list[int], out: list[Assignment | None]
) -> None:
    """``optimal_assignment`` of each non-empty matrix ``sims[k]``, written to ``out[at[k]]``."""
    n_rows = np.array([s.shape[0] for s in sims], dtype=np.int64)
    n_cols = np.array([s.shape[1] for s in sims], dtype=np.int64)
    sizes = n_rows * n_cols
    start = np.cumsum(sizes) - sizes
    flat = np.concatenate([s.reshape(-1) for s in sims])
    ok = flat >= threshold  # False for NaN
    # the eligible entries, matrix by matrix in row-major order (np.nonzero's order)
    hit = np.flatnonzero(ok)
    owner = np.searchsorted(start, hit, side="right") - 1
    n_ok = np.bincount(owner, minlength=len(sims))
    hit_end = np.cumsum(n_ok)
    local = hit - start[owner]
    row, col = local // n_cols[owner], local % n_cols[owner]
    # every eligible pair the only one of its row and of its column: together they are the
    # unique maximum matching, so the solver would return exactly them
    row_start, col_start = np.cumsum(n_rows) - n_rows, np.cumsum(n_cols) - n_cols
    per_row = np.bincount(row_start[owner] + row, minlength=int(n_rows.sum()))
    per_col = np.bincount(col_start[owner] + col, minlength=int(n_cols.sum()))
    unique = (
        (n_ok <= np.minimum(n_rows, n_cols))
        & (np.maximum.reduceat(per_row, row_start) <= 1)
        & (np.maximum.reduceat(per_col, col_start) <= 1)
    )
    # the solver's weights: K + similarity where eligible (nan_to_num is the identity on the
    # finite entries, so one pass over all matrices equals each matrix's own)
    bonus = (np.minimum(n_rows, n_cols) + 1).astype(np.float64)
    values = flat if bool(np.isfinite(flat).all()) else np.nan_to_num(flat)
    weights = np.where(ok, np.repeat(bonus, sizes) + values, 0.0)
    for k, sim in enumerate(sims):
        n, m = sim.shape
        if not n_ok[k]:
            out[at[k]] = Assignment((), n, m)
            continue
        lo, hi = int(hit_end[k] - n_ok[k]), int(hit_end[k])
        if unique[k]:
            pairs = zip(
                row[lo:hi].tolist(), col[lo:hi].tolist(), flat[hit[lo:hi]].tolist(), strict=True
            )
            out[at[k]] = Assignment(tuple(pairs), n, m)
            continue
        first = int(start[k])
        rows, cols = _solver()(weights[first : first + n * m].reshape(n, m), maximize=True)
        keep = ok[first : first + n * m].reshape(n, m)[rows, cols]
        rows, cols = rows[keep], cols[keep]
        matched = zip(rows.tolist(), cols.tolist(), sim[rows, cols].tolist(), strict=True)
        out[at[k]] = Assignment(tuple(matched), n, m)
