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
from collections.abc import Callable
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
    sim = np.asarray(similarity, dtype=np.float64)
    if sim.ndim != 2:
        raise ValueError(f"similarity must be a 2-D matrix, got shape {sim.shape}")
    n_rows, n_cols = sim.shape
    if n_rows == 0 or n_cols == 0:
        return Assignment((), n_rows, n_cols)
    ok = sim >= threshold  # False for NaN
    n_ok = int(np.count_nonzero(ok))
    if n_ok == 0:
        return Assignment((), n_rows, n_cols)
    if n_ok <= min(n_rows, n_cols):
        rows, cols = np.nonzero(ok)
        r, c = rows.tolist(), cols.tolist()
        if len(set(r)) == n_ok and len(set(c)) == n_ok:
            # every eligible pair is the only one of its row and of its column: together they
            # are the unique maximum matching, so the solver would return exactly them
            return Assignment(
                tuple(zip(r, c, sim[rows, cols].tolist(), strict=True)), n_rows, n_cols
            )
    bonus = float(min(n_rows, n_cols) + 1)
    finite = sim if np.isfinite(sim).all() else np.nan_to_num(sim)
    weights = np.where(ok, bonus + finite, 0.0)
    rows, cols = _solver()(weights, maximize=True)
    keep = ok[rows, cols]
    rows, cols = rows[keep], cols[keep]
    pairs = tuple(zip(rows.tolist(), cols.tolist(), sim[rows, cols].tolist(), strict=True))
    return Assignment(pairs, n_rows, n_cols)
