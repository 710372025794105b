"""Plain metric functions with a confidence interval, in scikit-learn's style.

``accuracy(y_true, y_pred)``, ``precision``, ``recall``, ``f1`` and ``corpus_bleu(hypotheses,
references)``, ``corpus_chrf``, ``corpus_ter``: positional data, keyword-only options, and
validation that names the argument at fault. Each returns an :class:`Estimate` (a float with
its percentile-bootstrap CI) computed by the engine ``assay score`` uses: the items' sufficient
statistics in a :class:`StatsTable`, the metric as a :class:`MetricSpec` over its column sums,
the CI by ``assay._engine.scorecard.aggregate`` — so a function and a scored run never disagree.

The corpus metrics are sacrebleu's (BLEU, chrF, TER with sacrebleu's defaults) on its own
per-segment statistics, through the translation suite's extraction.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from assay.metrics.kinds import FloatArray
from assay.metrics.spec import MetricSpec, fbeta_metric, precision_metric, ratio_metric
from assay.metrics.spec import recall_metric as _recall_spec
from assay.metrics.table import StatsTable

DEFAULT_N_BOOTSTRAP = 1000
DEFAULT_SEED = 12345
DEFAULT_ALPHA = 0.05


@dataclass(frozen=True)
class Estimate:
    """A metric's value on ``n`` items and, with ``ci``, its percentile-bootstrap interval at
    level 1 − ``alpha`` (``n_bootstrap`` resamples drawn with ``seed``). ``float(e)`` is the
    value; ``value`` is NaN where the metric is undefined (e.g. precision with no positive)."""

    name: str
    value: float
    ci_lower: float | None
    ci_upper: float | None
    n: int
    alpha: float
    n_bootstrap: int | None
    seed: int

    def __float__(self) -> float:
        return self.value

    @property
    def ci(self) -> tuple[float, float] | None:
        if self.ci_lower is None or self.ci_upper is None:
            return None
        return (self.ci_lower, self.ci_upper)


# --------------------------------------------------------------------------- validation


def _sequence(value: Any, name: str) -> list[Any]:
    """``value`` as a list; a string, a mapping or a non-sequence is a TypeError naming it."""
    if isinstance(value, str | bytes | dict):
        raise TypeError(f"{name} must be a sequence of values, not {type(value).__name__}")
    if hasattr(value, "tolist"):  # numpy arrays, pandas Series
        value = value.tolist()
    try:
        return list(value)
    except TypeError:
        raise TypeError(f"{name} must be a sequence, not {type(value).__name__}") from None


def _paired(a: Any, b: Any, names: tuple[str, str]) -> tuple[list[Any], list[Any]]:
    first, second = _sequence(a, names[0]), _sequence(b, names[1])
    if not first:
        raise ValueError(f"{names[0]} is empty: a metric needs at least one item")
    if len(first) != len(second):
        raise ValueError(
            f"{names[0]} and {names[1]} differ in length ({len(first)} and {len(second)})"
        )
    return first, second


def _labels(values: list[Any], name: str) -> list[Hashable]:
    for i, v in enumerate(values):
        if not isinstance(v, Hashable) or v is None:
            raise TypeError(f"{name}[{i}] must be a label (hashable, not None), got {v!r}")
    return values


def _options(ci: Any, n_bootstrap: Any, seed: Any, alpha: Any) -> None:
    if not isinstance(ci, bool):
        raise TypeError(f"ci must be True or False, not {ci!r}")
    if isinstance(n_bootstrap, bool) or not isinstance(n_bootstrap, int) or n_bootstrap < 1:
        raise ValueError(f"n_bootstrap must be an integer >= 1, not {n_bootstrap!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an integer, not {seed!r}")
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0 < alpha < 1:
        raise ValueError(f"alpha must be a number in (0, 1), not {alpha!r}")


# --------------------------------------------------------------------------- the engine


def _estimate(
    table: StatsTable, spec: MetricSpec, *, ci: bool, n_bootstrap: int, seed: int, alpha: float
) -> Estimate:
    from assay._engine.scorecard import aggregate

    result = aggregate(table, [spec], ci=ci, n_bootstrap=n_bootstrap, seed=seed, alpha=alpha)[
        spec.name
    ]
    return Estimate(
        name=spec.name,
        value=float("nan") if result.value is None else float(result.value),
        ci_lower=result.ci_lower,
        ci_upper=result.ci_upper,
        n=len(table),
        alpha=alpha,
        n_bootstrap=n_bootstrap if ci else None,
        seed=seed,
    )


def _table(columns: Sequence[str], rows: FloatArray) -> StatsTable:
    ids = tuple(str(i) for i in range(rows.shape[0]))
    return StatsTable(ids, tuple(columns), rows)


def _confusion_columns(
    y_true: list[Hashable], y_pred: list[Hashable], label: Hashable
) -> FloatArray:
    """Per item (tp, fp, fn) for ``label`` as the positive class."""
    t = np.fromiter((y == label for y in y_true), dtype=np.float64, count=len(y_true))
    p = np.fromiter((y == label for y in y_pred), dtype=np.float64, count=len(y_pred))
    return np.column_stack([t * p, (1 - t) * p, t * (1 - p)])


# --------------------------------------------------------------------------- label metrics


def accuracy(
    y_true: Sequence[Hashable],
    y_pred: Sequence[Hashable],
    *,
    ci: bool = True,
    n_bootstrap: int = DEFAULT_N_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
) -> Estimate:
    """Share of items whose predicted label equals the true one: Σ[y_pred = y_true] / N."""
    truth, pred = _paired(y_true, y_pred, ("y_true", "y_pred"))
    _labels(truth, "y_true")
    _labels(pred, "y_pred")
    _options(ci, n_bootstrap, seed, alpha)
    correct = np.fromiter((t == p for t, p in zip(truth, pred, strict=True)), dtype=np.float64)
    table = _table(("correct", "items"), np.column_stack([correct, np.ones_like(correct)]))
    spec = ratio_metric("accuracy", "correct", "items")
    return _estimate(table, spec, ci=ci, n_bootstrap=n_bootstrap, seed=seed, alpha=alpha)


def _binary(
    name: str,
    y_true: Sequence[Hashable],
    y_pred: Sequence[Hashable],
    *,
    pos_label: Hashable,
    average: str,
    ci: bool,
    n_bootstrap: int,
    seed: int,
    alpha: float,
    beta: float = 1.0,
) -> Estimate:
    truth, pred = _paired(y_true, y_pred, ("y_true", "y_pred"))
    _labels(truth, "y_true")
    _labels(pred, "y_pred")
    _options(ci, n_bootstrap, seed, alpha)
    if average not in ("binary", "macro"):
        raise ValueError(f"average must be 'binary' or 'macro', not {average!r}")
    if average == "macro":
        if name != "f1":
            raise ValueError(f"average='macro' is available for f1 only, not {name}")
        classes = sorted(set(truth) | set(pred), key=repr)
        blocks = [_confusion_columns(truth, pred, c) for c in classes]
        columns = [f"{col}[{i}]" for i in range(len(classes)) for col in ("tp", "fp", "fn")]
        table = _table(columns, np.hstack(blocks))
        spec = MetricSpec("macro_f1", "macro_fbeta", tuple(columns), params={"beta": beta})
    else:
        if pos_label not in set(truth) | set(pred):
            raise ValueError(f"pos_label={pos_label!r} is not a label of y_true or y_pred")
        table = _table(("tp", "fp", "fn"), _confusion_columns(truth, pred, pos_label))
        spec = {
            "precision": precision_metric("precision", "tp", "fp"),
            "recall": _recall_spec("recall", "tp", "fn"),
            "f1": fbeta_metric("f1", "tp", "fp", "fn", beta=beta),
        }[name]
    return _estimate(table, spec, ci=ci, n_bootstrap=n_bootstrap, seed=seed, alpha=alpha)


def precision(
    y_true: Sequence[Hashable],
    y_pred: Sequence[Hashable],
    *,
    pos_label: Hashable = 1,
    ci: bool = True,
    n_bootstrap: int = DEFAULT_N_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
) -> Estimate:
    """Precision of ``pos_label``: tp / (tp + fp) (NaN when nothing is predicted positive)."""
    return _binary(
        "precision", y_true, y_pred, pos_label=pos_label, average="binary",
        ci=ci, n_bootstrap=n_bootstrap, seed=seed, alpha=alpha,
    )  # fmt: skip


def recall(
    y_true: Sequence[Hashable],
    y_pred: Sequence[Hashable],
    *,
    pos_label: Hashable = 1,
    ci: bool = True,
    n_bootstrap: int = DEFAULT_N_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
) -> Estimate:
    """Recall of ``pos_label``: tp / (tp + fn) (NaN when no item is truly positive)."""
    return _binary(
        "recall", y_true, y_pred, pos_label=pos_label, average="binary",
        ci=ci, n_bootstrap=n_bootstrap, seed=seed, alpha=alpha,
    )  # fmt: skip


def f1(
    y_true: Sequence[Hashable],
    y_pred: Sequence[Hashable],
    *,
    pos_label: Hashable = 1,
    average: str = "binary",
    ci: bool = True,
    n_bootstrap: int = DEFAULT_N_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
) -> Estimate:
    """F1 of ``pos_label``, 2tp / (2tp + fp + fn); ``average="macro"``: the mean of every
    label's F1 over the labels seen in ``y_true`` or ``y_pred``."""
    return _binary(
        "f1", y_true, y_pred, pos_label=pos_label, average=average,
        ci=ci, n_bootstrap=n_bootstrap, seed=seed, alpha=alpha,
    )  # fmt: skip


# --------------------------------------------------------------------------- corpus metrics


def _corpus(
    key: str,
    hypotheses: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    *,
    ci: bool,
    n_bootstrap: int,
    seed: int,
    alpha: float,
    options: dict[str, Any],
) -> Estimate:
    hyps = _sequence(hypotheses, "hypotheses")
    if not hyps:
        raise ValueError("hypotheses is empty: a metric needs at least one segment")
    for i, h in enumerate(hyps):
        if not isinstance(h, str):
            raise TypeError(f"hypotheses[{i}] must be a string, got {type(h).__name__}")
    refs = _sequence(references, "references")
    # sacrebleu's convention: a list of reference streams, or one stream of strings
    streams = [refs] if refs and all(isinstance(r, str) for r in refs) else refs
    per_segment: list[list[str]] = [[] for _ in hyps]
    for k, stream in enumerate(streams):
        stream = _sequence(stream, f"references[{k}]")
        if len(stream) != len(hyps):
            raise ValueError(
                f"references[{k}] has {len(stream)} segments, hypotheses has {len(hyps)}"
            )
        for i, r in enumerate(stream):
            if not isinstance(r, str):
                raise TypeError(f"references[{k}][{i}] must be a string")
            per_segment[i].append(r)
    _options(ci, n_bootstrap, seed, alpha)
    from assay.metrics.corpus import sufficient

    factories: dict[str, Callable[..., sufficient.CorpusMetric]] = {
        "bleu": sufficient.bleu_metric,
        "chrf": sufficient.chrf_metric,
        "ter": sufficient.ter_metric,
    }
    factory = factories[key]
    metric = factory(**options)
    stats = metric.extract(hyps, per_segment)
    has_ref = np.asarray([[1.0 if refs_i else 0.0] for refs_i in per_segment])
    table = _table((*metric.columns, sufficient.SEGMENTS_COLUMN), np.hstack([stats, has_ref]))
    spec = metric.spec(metric.signature(len(streams)))
    return _estimate(table, spec, ci=ci, n_bootstrap=n_bootstrap, seed=seed, alpha=alpha)


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    ci: bool = True,
    n_bootstrap: int = DEFAULT_N_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
) -> Estimate:
    """sacrebleu's corpus BLEU (0–100): brevity penalty × geometric mean of the 1–4-gram
    precisions over the pooled counts. ``references``: one string per segment, or a list of
    reference streams as in ``sacrebleu.corpus_bleu``."""
    return _corpus(
        "bleu", hypotheses, references, ci=ci, n_bootstrap=n_bootstrap, seed=seed, alpha=alpha,
        options={"tokenize": tokenize, "lowercase": lowercase},
    )  # fmt: skip


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    *,
    word_order: int = 2,
    ci: bool = True,
    n_bootstrap: int = DEFAULT_N_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
) -> Estimate:
    """sacrebleu's corpus chrF (0–100) over pooled character (and, for ``word_order`` 2,
    chrF++, word) n-gram counts, β = 2."""
    if isinstance(word_order, bool) or not isinstance(word_order, int) or word_order < 0:
        raise ValueError(f"word_order must be an integer >= 0, not {word_order!r}")
    return _corpus(
        "chrf", hypotheses, references, ci=ci, n_bootstrap=n_bootstrap, seed=seed, alpha=alpha,
        options={"word_order": word_order},
    )  # fmt: skip


def corpus_ter(
    hypotheses: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    *,
    ci: bool = True,
    n_bootstrap: int = DEFAULT_N_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
) -> Estimate:
    """sacrebleu's corpus TER (lower is better): Σ edits / Σ average reference length × 100."""
    return _corpus(
        "ter", hypotheses, references, ci=ci, n_bootstrap=n_bootstrap, seed=seed, alpha=alpha,
        options={},
    )  # fmt: skip
