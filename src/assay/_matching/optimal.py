"""Optimal one-to-one assignment on a similarity matrix (Hungarian algorithm, scipy).

Pairs below the threshold (and NaN) are not eligible. Among eligible pairs the assignment first
maximizes the number of matches, then their total similarity: each eligible pair weighs
``K + similarity`` with K larger than any total similarity, so the matched count (and with it
precision, recall and F1) never depends on the order of the rows or columns.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import compress
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
    0.6-0.7 s of CPU, a third of a 1,000-document extraction run's fixed cost (issue 21's
    first pass). Where the module file is not found (another scipy layout), or scipy.optimize
    is imported anyway, the package's function (the same function:
    ``test_the_solver_is_scipys_loaded_without_scipy_optimize``).
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
    2-D matrices (all checked to be 2-D before any is solved).

    Each matrix is assigned on its own (``_assign``), not by passes over the whole batch's
    concatenation as before (1,944 of the benchmark's 2,000 matrices need the solver
    anyway): 0.6x the CPU in a replay of 1,000 extraction documents, but equal work in the
    CLI, whose ``mallopt`` settings keep freed memory (13.590 G instructions against 13.606 G,
    callgrind). Kept as the simpler code, not as a speed-up (commit ef64962)."""
    sims = [np.asarray(matrix, dtype=np.float64) for matrix in similarities]
    for sim in sims:
        if sim.ndim != 2:
            raise ValueError(f"similarity must be a 2-D matrix, got shape {sim.shape}")
    return [_assign(sim, threshold) for sim in sims]


def _assign(sim: NDArray[np.float64], threshold: float) -> Assignment:
    """``optimal_assignment`` of one 2-D matrix, with a fixed handful of numpy calls on arrays
    of the matrix's size (small arrays: no large temporaries, no per-element Python).

    Eligible: ``sim ≥ threshold`` (never NaN). The solver maximizes ``K + sim`` over eligible
    pairs and 0 elsewhere, K = min(n, m) + 1 (an infinite similarity as ``nan_to_num``
    makes it); the eligible pairs of its answer are the matching. When every
    eligible pair is the only one of its row and of its column they are the unique maximum
    matching, which the solver would return: they are taken directly, in row-major order.

    Twins: ``_plain_assignment_pairs`` (the weights and the solver, no shortcut) and a brute
    force of the maximum count, in tests/fields/test_fields_optimal_assignment.py; the
    shortcut against the solver in ``test_assignment_of_isolated_pairs_equals_the_solver``.
    """
    n, m = sim.shape
    if not sim.size:
        return Assignment((), n, m)
    ok = sim >= threshold  # False for NaN
    n_ok = int(np.count_nonzero(ok))
    if not n_ok:
        return Assignment((), n, m)
    if n_ok <= min(n, m) and ok.sum(axis=0).max() <= 1 and ok.sum(axis=1).max() <= 1:
        rows, cols = np.nonzero(ok)
        matched = sim[rows, cols]
        return Assignment(
            tuple(zip(rows.tolist(), cols.tolist(), matched.tolist(), strict=True)), n, m
        )
    bonus = float(min(n, m) + 1)
    weights = np.where(ok, sim + bonus, 0.0)
    if weights.max() == math.inf or threshold == -math.inf:
        # an infinite eligible similarity (-inf is eligible only at a threshold of -inf, NaN
        # never): weighed as nan_to_num makes it
        weights = np.where(ok, np.nan_to_num(sim) + bonus, 0.0)
    rows, cols = _solver()(weights, maximize=True)
    # the solver's pairs that are eligible, in its (row) order
    matched = sim[rows, cols]
    keep = (matched >= threshold).tolist()
    pairs = compress(zip(rows.tolist(), cols.tolist(), matched.tolist(), strict=True), keep)
    return Assignment(tuple(pairs), n, m)
