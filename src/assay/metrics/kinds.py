"""The metric kinds: vectorized maps from column sums ``(..., k)`` to scores ``(...)``.

Each kind reads like its definition; undefined values (0/0) are NaN and become null upstream.
A kind is registered with what the common checks (``assay.suite.check_kinds``) hold it to:

- its range, ``lower`` to ``upper`` (``math.inf`` for no bound): every defined value of the
  kind lies there when its statistics are what the kind is for. The rates (``mean``,
  ``ratio``, ``precision`` …) lie in [0, 1], corpus BLEU and chrF in [0, 100], TER in
  [0, ∞);
- its direction, ``higher_is_better``: True or False where the kind fixes it (TER: lower is
  better), None where each MetricSpec says (a mean of errors is a mean too);
- ``sample(rng, n)``: n items' valid statistics rows, shape (n, k), the example data the
  checks draw.

The built-in kinds are registered here; sacrebleu's corpus kinds
(:mod:`assay.metrics.corpus.kinds`) are built-in too, imported the first time one is asked for.
A suite registers its own kinds with :func:`register_kind` when its module is imported; the
engine imports a run's suite before it finalizes the run's specs (``assay._engine.registry``).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from assay.errors import UsageError

FloatArray = NDArray[np.float64]


#: ``fn(sums, **params) -> scores``: sums has shape (..., k), scores shape (...)
KindFunction = Callable[..., FloatArray]
#: ``sample(rng, n) -> rows``: n items' valid statistics, shape (n, k), for the common checks
#: (the generator's type named as a string: reading ``np.random`` imports numpy's random module)
Sample = Callable[["np.random.Generator", int], FloatArray]


class Kind:
    """A registered metric kind: its function and what is declared about its values (read-only
    by convention; a plain class, not a dataclass, whose generated methods would cost ~1 ms of
    every start-up)."""

    __slots__ = ("function", "higher_is_better", "lower", "name", "sample", "upper")

    def __init__(
        self,
        name: str,
        function: KindFunction,
        lower: float | None = None,
        upper: float | None = None,
        higher_is_better: bool | None = None,
        sample: Sample | None = None,
    ) -> None:
        self.name = name
        self.function = function
        #: the range of its defined values; None when the kind was registered without one
        self.lower = lower
        self.upper = upper
        #: True or False where the kind fixes the direction; None where each spec says
        self.higher_is_better = higher_is_better
        #: valid example statistics for the common checks; None when none were declared
        self.sample = sample

    def __repr__(self) -> str:
        return (
            f"Kind({self.name!r}, lower={self.lower}, upper={self.upper}, "
            f"higher_is_better={self.higher_is_better})"
        )

    @property
    def has_range(self) -> bool:
        return self.lower is not None and self.upper is not None

    @property
    def is_proportion(self) -> bool:
        """Values in [0, 1]: the registry's unit ``proportion``."""
        return self.lower == 0.0 and self.upper == 1.0

    def outside(self, values: FloatArray) -> FloatArray:
        """The defined values among ``values`` that lie outside the declared range."""
        values = np.asarray(values, dtype=np.float64).reshape(-1)
        lower = -math.inf if self.lower is None else self.lower
        upper = math.inf if self.upper is None else self.upper
        defined = values[~np.isnan(values)]
        out: FloatArray = defined[(defined < lower) | (defined > upper) | np.isinf(defined)]
        return out


_KINDS: dict[str, Kind] = {}

#: built-in kinds defined in another module of assay.metrics, imported on first use (a run
#: that computes no BLEU imports none of them): name → (module, function, sample, lower,
#: upper, higher_is_better)
_CORPUS = "assay.metrics.corpus.kinds"
_ON_DEMAND: dict[str, tuple[str, str, str, float, float, bool | None]] = {
    "sacrebleu_bleu": (_CORPUS, "bleu_kind", "bleu_sample", 0.0, 100.0, True),
    "sacrebleu_chrf": (_CORPUS, "chrf_kind", "chrf_sample", 0.0, 100.0, True),
    "sacrebleu_ter": (_CORPUS, "ter_kind", "ter_sample", 0.0, math.inf, False),
    "rate_or_zero": (_CORPUS, "rate_or_zero_kind", "rate_sample", 0.0, 1.0, None),
}


def register_kind(
    name: str,
    *,
    lower: float | None = None,
    upper: float | None = None,
    higher_is_better: bool | None = None,
    sample: Sample | None = None,
) -> Callable[[KindFunction], KindFunction]:
    """Register ``fn(sums, **params)`` under ``name``; re-registering the same name replaces it.

    ``lower`` and ``upper`` declare the range of the kind's defined values (``math.inf`` for
    no bound), ``higher_is_better`` its direction (None: each spec says), ``sample(rng, n)``
    valid statistics of n items; ``assay.suite.check_kinds`` checks the kind against them.
    """

    def decorate(fn: KindFunction) -> KindFunction:
        _KINDS[name] = Kind(name, fn, lower, upper, higher_is_better, sample)
        return fn

    return decorate


def kind_info(name: str) -> Kind:
    """The registered kind ``name``, with its declarations; an unknown name is a UsageError
    listing the known ones."""
    kind = _KINDS.get(name)
    if kind is None and name in _ON_DEMAND:
        kind = _load_on_demand(name)
    if kind is None:
        raise UsageError(f"unknown metric kind {name!r}; known: {known_kinds()}")
    return kind


def get_kind(name: str) -> KindFunction:
    """The function of kind ``name`` (see :func:`kind_info`)."""
    return kind_info(name).function


def is_registered(name: str) -> bool:
    """True when ``name`` is a kind assay knows now (a built-in, or registered already)."""
    return name in _KINDS or name in _ON_DEMAND


def registered_kinds() -> dict[str, Kind]:
    """Every kind by name, the built-in ones imported on demand included."""
    for name in _ON_DEMAND:
        if name not in _KINDS:
            _load_on_demand(name)
    return dict(sorted(_KINDS.items()))


def known_kinds() -> list[str]:
    return sorted({*_KINDS, *_ON_DEMAND})


def proportion_kinds() -> frozenset[str]:
    """The kinds whose declared range is [0, 1]."""
    return frozenset(name for name, kind in registered_kinds().items() if kind.is_proportion)


def _load_on_demand(name: str) -> Kind:
    module_name, function, sample, lower, upper, higher = _ON_DEMAND[name]
    module = importlib.import_module(module_name)
    kind = Kind(name, getattr(module, function), lower, upper, higher, getattr(module, sample))
    return _KINDS.setdefault(name, kind)


def safe_divide(num: FloatArray, den: FloatArray) -> FloatArray:
    """num / den elementwise, NaN where den == 0."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.full(np.broadcast(num, den).shape, np.nan)
    np.divide(num, den, out=out, where=den != 0)
    return out


# ---------------------------------------------------------------- example statistics


def _counts(rng: np.random.Generator, n: int, k: int) -> FloatArray:
    """n rows of k small counts (0 to 3): tp, fp, fn and their like."""
    return rng.integers(0, 4, size=(n, k)).astype(np.float64)


def _scores_sample(rng: np.random.Generator, n: int) -> FloatArray:
    """Per item (v, 1) with a score v in [0, 1], or (0, 0) where it is undefined."""
    defined = rng.random(n) < 0.8
    return np.column_stack([np.where(defined, rng.random(n), 0.0), defined.astype(np.float64)])


def _rates_sample(rng: np.random.Generator, n: int) -> FloatArray:
    """Per item (num, den) with 0 <= num <= den <= 3: correct fields of the present ones."""
    den = rng.integers(0, 4, size=n)
    num = np.floor(rng.random(n) * (den + 1))
    return np.column_stack([num, den]).astype(np.float64)


def _pairs_sample(rng: np.random.Generator, n: int) -> FloatArray:
    return _counts(rng, n, 2)


def _triples_sample(rng: np.random.Generator, n: int) -> FloatArray:
    return _counts(rng, n, 3)


def _classes_sample(rng: np.random.Generator, n: int, per_class: int) -> FloatArray:
    """Single-label items over 3 classes: gold g and prediction p drawn per item. With
    ``per_class`` 2: (correct[c], count[c]) of g; with 3: (tp[c], fp[c], fn[c])."""
    classes = 3
    gold = rng.integers(0, classes, size=n)
    pred = np.where(rng.random(n) < 0.6, gold, rng.integers(0, classes, size=n))
    rows = np.zeros((n, classes, per_class))
    items = np.arange(n)
    hit = (gold == pred).astype(np.float64)
    if per_class == 2:
        rows[items, gold, 0] = hit
        rows[items, gold, 1] = 1.0
    else:
        rows[items, gold, 0] = hit
        rows[items, pred, 1] += 1.0 - hit
        rows[items, gold, 2] += 1.0 - hit
    return rows.reshape(n, classes * per_class)


def _macro_sample(rng: np.random.Generator, n: int) -> FloatArray:
    return _classes_sample(rng, n, 2)


def _macro_fbeta_sample(rng: np.random.Generator, n: int) -> FloatArray:
    return _classes_sample(rng, n, 3)


# ---------------------------------------------------------------- the built-in kinds


@register_kind("mean", lower=0.0, upper=1.0, sample=_scores_sample)
def mean_kind(sums: FloatArray, /) -> FloatArray:
    """Mean of a per-item score over items where it is defined: Σv / Σ[v defined] (in [0, 1]
    for scores in [0, 1]: a rate)."""
    return safe_divide(sums[..., 0], sums[..., 1])


@register_kind("ratio", lower=0.0, upper=1.0, sample=_rates_sample)
def ratio_kind(sums: FloatArray, /) -> FloatArray:
    """Micro ratio: Σnum / Σden (accuracy, recall over pooled counts; in [0, 1] for
    0 <= num <= den: a rate)."""
    return safe_divide(sums[..., 0], sums[..., 1])


@register_kind("precision", lower=0.0, upper=1.0, higher_is_better=True, sample=_pairs_sample)
def precision_kind(sums: FloatArray, /) -> FloatArray:
    """Precision over pooled counts: tp / (tp + fp)."""
    return safe_divide(sums[..., 0], sums[..., 0] + sums[..., 1])


@register_kind("recall", lower=0.0, upper=1.0, higher_is_better=True, sample=_pairs_sample)
def recall_kind(sums: FloatArray, /) -> FloatArray:
    """Recall over pooled counts: tp / (tp + fn)."""
    return safe_divide(sums[..., 0], sums[..., 0] + sums[..., 1])


@register_kind("fbeta", lower=0.0, upper=1.0, higher_is_better=True, sample=_triples_sample)
def fbeta_kind(sums: FloatArray, /, beta: float = 1.0) -> FloatArray:
    """F-beta over pooled counts (tp, fp, fn): (1+β²)tp / ((1+β²)tp + β²fn + fp)."""
    tp, fp, fn = sums[..., 0], sums[..., 1], sums[..., 2]
    b2 = float(beta) ** 2
    return safe_divide((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)


@register_kind("macro", lower=0.0, upper=1.0, higher_is_better=True, sample=_macro_sample)
def macro_kind(sums: FloatArray, /) -> FloatArray:
    """Macro average: mean over classes with count > 0 of correct[c] / count[c].

    Columns come in pairs (correct[c], count[c]); a class absent from a resample is skipped.
    """
    if sums.shape[-1] % 2:
        raise UsageError("macro kind needs (correct, count) column pairs")
    correct = sums[..., 0::2]
    count = sums[..., 1::2]
    per_class = safe_divide(correct, count)
    present = count > 0
    n_present = present.sum(axis=-1)
    total = np.where(present, per_class, 0.0).sum(axis=-1)
    return safe_divide(total, n_present.astype(np.float64))


@register_kind(
    "macro_fbeta", lower=0.0, upper=1.0, higher_is_better=True, sample=_macro_fbeta_sample
)
def macro_fbeta_kind(sums: FloatArray, /, beta: float = 1.0) -> FloatArray:
    """Macro F-beta: the mean over classes seen (tp + fp + fn > 0) of each class's F-beta from
    its (tp, fp, fn) column triple, (1+β²)tp / ((1+β²)tp + β²fn + fp). Used by
    ``f1(average="macro")`` (metrics/functions.py); registered here with the other built-in
    kinds, so it is known without importing the metric functions."""
    tp, fp, fn = sums[..., 0::3], sums[..., 1::3], sums[..., 2::3]
    b2 = float(beta) ** 2
    per_class = safe_divide((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)
    seen = (tp + fp + fn) > 0
    total = np.where(seen, np.nan_to_num(per_class), 0.0).sum(axis=-1)
    return safe_divide(total, seen.sum(axis=-1).astype(np.float64))
