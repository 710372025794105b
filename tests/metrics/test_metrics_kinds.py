"""The metric kinds against their definitions: hand-computable sums, hypothesis sums, broadcasting.

Every kind maps sums of shape (..., k) to scores of shape (...); it must give elementwise the
same answer on a (B, k) or (B1, B2, k) stack as on each row alone, and NaN where the definition
divides 0 by 0.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from assay.errors import UsageError
from assay.metrics import (
    MetricSpec,
    get_kind,
    kind_info,
    known_kinds,
    register_kind,
    safe_divide,
)

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)

# small non-negative integer counts: the sums a StatsTable of counts produces
_counts = st.integers(min_value=0, max_value=50).map(float)


def _sum_arrays(k: int, max_lead: int = 2) -> st.SearchStrategy[np.ndarray]:
    """Arrays of shape (*lead, k) of non-negative integer-valued sums, 0 to ``max_lead`` axes."""
    shapes = hnp.array_shapes(min_dims=0, max_dims=max_lead, min_side=1, max_side=4).map(
        lambda lead: (*lead, k)
    )
    return shapes.flatmap(lambda shape: hnp.arrays(np.float64, shape, elements=_counts))


def _div(a: float, b: float) -> float:
    return a / b if b != 0 else math.nan


# ---------------------------------------------------------------- reference definitions (scalars)


def ref_mean(v: float, n: float) -> float:
    return _div(v, n)


def ref_ratio(num: float, den: float) -> float:
    return _div(num, den)


def ref_precision(tp: float, fp: float) -> float:
    return _div(tp, tp + fp)


def ref_recall(tp: float, fn: float) -> float:
    return _div(tp, tp + fn)


def ref_fbeta(tp: float, fp: float, fn: float, beta: float = 1.0) -> float:
    """Through precision and recall: (1+β²)PR / (β²P + R); 0 when tp = 0 but something was
    predicted or expected; NaN when there is nothing at all."""
    if tp + fp + fn == 0:
        return math.nan
    if tp == 0:
        return 0.0
    p, r = tp / (tp + fp), tp / (tp + fn)
    b2 = beta * beta
    return (1 + b2) * p * r / (b2 * p + r)


def ref_macro(row: list[float]) -> float:
    per_class = [c / n for c, n in zip(row[0::2], row[1::2], strict=True) if n > 0]
    return sum(per_class) / len(per_class) if per_class else math.nan


REFERENCES = {
    "mean": (2, lambda row: ref_mean(*row)),
    "ratio": (2, lambda row: ref_ratio(*row)),
    "precision": (2, lambda row: ref_precision(*row)),
    "recall": (2, lambda row: ref_recall(*row)),
    "fbeta": (3, lambda row: ref_fbeta(*row)),
}


def assert_same(actual: float, expected: float, rel: float = 1e-12) -> None:
    if math.isnan(expected):
        assert math.isnan(actual), f"expected NaN, got {actual}"
    else:
        assert actual == pytest.approx(expected, rel=rel, abs=1e-15)


# ---------------------------------------------------------------- hand-computed values


@pytest.mark.parametrize(
    ("kind", "sums", "expected"),
    [
        ("mean", [3.0, 4.0], 0.75),
        ("mean", [2.5, 5.0], 0.5),
        ("mean", [0.0, 0.0], math.nan),
        ("mean", [0.0, 3.0], 0.0),
        ("ratio", [7.0, 10.0], 0.7),
        ("ratio", [0.0, 0.0], math.nan),
        ("ratio", [5.0, 5.0], 1.0),
        ("precision", [3.0, 1.0], 0.75),
        ("precision", [0.0, 4.0], 0.0),
        ("precision", [0.0, 0.0], math.nan),
        ("recall", [3.0, 2.0], 0.6),
        ("recall", [0.0, 0.0], math.nan),
        ("fbeta", [3.0, 1.0, 2.0], 6.0 / 9.0),  # 2tp / (2tp + fp + fn)
        ("fbeta", [0.0, 2.0, 3.0], 0.0),
        ("fbeta", [0.0, 0.0, 0.0], math.nan),
        ("fbeta", [4.0, 0.0, 0.0], 1.0),
        ("macro", [1.0, 2.0, 3.0, 3.0], 0.75),  # (1/2 + 3/3) / 2
        ("macro", [1.0, 2.0, 0.0, 0.0, 2.0, 4.0], 0.5),  # empty middle class skipped
        ("macro", [0.0, 0.0, 0.0, 0.0], math.nan),  # no class present
        ("macro", [0.0, 5.0], 0.0),
    ],
)
def test_kind_hand_computed(kind: str, sums: list[float], expected: float) -> None:
    assert_same(float(get_kind(kind)(np.asarray(sums))), expected)


@pytest.mark.parametrize(
    ("tp", "fp", "fn", "expected"),
    [
        # F2 = 5tp / (5tp + 4fn + fp)
        (3.0, 1.0, 2.0, 15.0 / 24.0),
        (1.0, 0.0, 3.0, 5.0 / 17.0),
        (1.0, 3.0, 0.0, 5.0 / 8.0),
    ],
)
def test_f2_hand_computed(tp: float, fp: float, fn: float, expected: float) -> None:
    got = float(get_kind("fbeta")(np.array([tp, fp, fn]), beta=2.0))
    assert got == pytest.approx(expected, rel=1e-14)
    p, r = tp / (tp + fp), tp / (tp + fn)
    assert got == pytest.approx(5 * p * r / (4 * p + r), rel=1e-14)


def test_f2_weighs_recall_more_than_precision() -> None:
    fbeta = get_kind("fbeta")
    high_recall = np.array([8.0, 6.0, 1.0])  # P = 8/14, R = 8/9
    high_precision = np.array([8.0, 1.0, 6.0])  # P = 8/9,  R = 8/14
    assert float(fbeta(high_recall, beta=2.0)) > float(fbeta(high_precision, beta=2.0))
    assert float(fbeta(high_recall, beta=1.0)) == float(fbeta(high_precision, beta=1.0))
    assert float(fbeta(high_recall, beta=0.5)) < float(fbeta(high_precision, beta=0.5))


# -------------------------------------------------------- hypothesis: definition, broadcasting


def _check_against_reference(kind: str, sums: np.ndarray, ref, **params: float) -> None:
    got = np.asarray(get_kind(kind)(sums, **params))
    assert got.shape == sums.shape[:-1]
    assert got.dtype == np.float64
    flat_sums = sums.reshape(-1, sums.shape[-1])
    flat_got = got.reshape(-1)
    for row, value in zip(flat_sums, flat_got, strict=True):
        assert_same(float(value), ref(row.tolist()))
        # the same row alone gives exactly the same number as inside the stack
        alone = float(get_kind(kind)(row, **params))
        assert (math.isnan(alone) and math.isnan(value)) or alone == value


@pytest.mark.parametrize("kind", sorted(REFERENCES))
@SETTINGS
@given(data=st.data())
def test_kind_matches_definition_and_vectorizes(kind: str, data: st.DataObject) -> None:
    k, ref = REFERENCES[kind]
    sums = data.draw(_sum_arrays(k))
    _check_against_reference(kind, sums, ref)


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0, 3.0])
@SETTINGS
@given(sums=_sum_arrays(3))
def test_fbeta_matches_definition_for_beta(beta: float, sums: np.ndarray) -> None:
    _check_against_reference("fbeta", sums, lambda row: ref_fbeta(*row, beta=beta), beta=beta)


@st.composite
def _macro_sums(draw: st.DrawFn) -> np.ndarray:
    """(..., 2C) sums of (correct[c], count[c]) with 0 <= correct <= count, some classes empty."""
    n_classes = draw(st.integers(1, 5))
    lead = draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=4))
    count = draw(hnp.arrays(np.int64, (*lead, n_classes), elements=st.integers(0, 6)))
    frac = draw(hnp.arrays(np.float64, count.shape, elements=st.floats(0, 1)))
    correct = np.floor(frac * count)
    out = np.empty((*lead, 2 * n_classes))
    out[..., 0::2] = correct
    out[..., 1::2] = count
    return out


@SETTINGS
@given(sums=_macro_sums())
def test_macro_matches_definition_and_vectorizes(sums: np.ndarray) -> None:
    _check_against_reference("macro", sums, ref_macro)


def test_macro_skips_only_classes_with_count_zero() -> None:
    macro = get_kind("macro")
    # class 2 has count 0 -> skipped; class 3 has count > 0 and 0 correct -> counts as 0
    sums = np.array([2.0, 2.0, 0.0, 0.0, 0.0, 4.0])
    assert float(macro(sums)) == pytest.approx(0.5)
    # a (B, k) stack where a class disappears in some rows (as in a bootstrap resample)
    stack = np.array(
        [
            [1.0, 1.0, 1.0, 2.0],  # (1 + 0.5) / 2
            [0.0, 0.0, 1.0, 2.0],  # class 1 absent: 0.5
            [0.0, 0.0, 0.0, 0.0],  # nothing: NaN
        ]
    )
    got = macro(stack)
    np.testing.assert_allclose(got[:2], [0.75, 0.5])
    assert math.isnan(got[2])


def test_macro_rejects_odd_column_count() -> None:
    with pytest.raises(UsageError):
        get_kind("macro")(np.ones(3))


@pytest.mark.parametrize("kind", ["mean", "ratio", "precision", "recall", "fbeta", "macro"])
def test_all_zero_sums_are_nan_in_any_shape(kind: str) -> None:
    k = 3 if kind == "fbeta" else 2
    for shape in [(k,), (5, k), (2, 3, k)]:
        got = np.asarray(get_kind(kind)(np.zeros(shape)))
        assert got.shape == shape[:-1]
        assert np.isnan(got).all()


@pytest.mark.parametrize("kind", ["mean", "ratio", "precision", "recall", "fbeta", "macro"])
def test_kinds_do_not_warn_on_zero_division(kind: str) -> None:
    k = 3 if kind == "fbeta" else 2
    with np.errstate(all="raise"):  # a 0/0 computed by numpy would raise here
        get_kind(kind)(np.zeros((4, k)))


def test_safe_divide_broadcasts_and_gives_nan_for_zero_denominator() -> None:
    got = safe_divide(np.array([[1.0], [2.0]]), np.array([0.0, 4.0]))
    assert got.shape == (2, 2)
    assert math.isnan(got[0, 0]) and math.isnan(got[1, 0])
    np.testing.assert_array_equal(got[:, 1], [0.25, 0.5])
    # 0 / 0 and x / 0 are both NaN (undefined), never inf
    assert math.isnan(float(safe_divide(np.float64(3.0), np.float64(0.0))))


def test_builtin_kinds_are_registered() -> None:
    assert {"mean", "ratio", "precision", "recall", "fbeta", "macro"} <= set(known_kinds())


def test_unknown_kind_raises_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown metric kind"):
        get_kind("no_such_kind_in_assay_tests")


def test_register_kind_plugs_into_metric_spec() -> None:
    @register_kind("test_metrics_kinds_max_share")
    def max_share(sums: np.ndarray, /, scale: float = 1.0) -> np.ndarray:
        return scale * safe_divide(sums[..., 0], sums[..., 0] + sums[..., 1])

    assert "test_metrics_kinds_max_share" in known_kinds()
    assert get_kind("test_metrics_kinds_max_share") is max_share
    spec = MetricSpec("share", "test_metrics_kinds_max_share", ("a", "b"), params={"scale": 2.0})
    np.testing.assert_allclose(spec.finalize(np.array([[1.0, 3.0], [2.0, 2.0]])), [0.5, 1.0])

    # re-registering a name replaces it
    @register_kind("test_metrics_kinds_max_share")
    def replaced(sums: np.ndarray, /, scale: float = 1.0) -> np.ndarray:
        return np.zeros(sums.shape[:-1])

    assert get_kind("test_metrics_kinds_max_share") is replaced
    assert float(spec.finalize(np.array([1.0, 3.0]))) == 0.0


def test_sacrebleus_kinds_are_built_in_and_imported_on_demand() -> None:
    """The corpus kinds are known by name without importing their module; asking for one
    imports it (in a fresh interpreter: this one may have it already)."""
    import json
    import subprocess
    import sys

    code = (
        "import json, sys\n"
        "from assay.metrics.kinds import get_kind, is_registered, known_kinds\n"
        "before = 'assay.metrics.corpus.kinds' in sys.modules\n"
        "names = known_kinds()\n"
        "known = is_registered('sacrebleu_bleu')\n"
        "fn = get_kind('sacrebleu_bleu')\n"
        "print(json.dumps([before, 'sacrebleu_ter' in names, known, fn.__module__,"
        " 'assay._engine.registry' in sys.modules]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [
        False,
        True,
        True,
        "assay.metrics.corpus.kinds",
        True,  # `import assay` hands the registry its table; metrics never imports it
    ]


def test_register_kind_records_its_declarations() -> None:
    def rows(rng: np.random.Generator, n: int) -> np.ndarray:
        return np.ones((n, 1))

    @register_kind(
        "test_metrics_kinds_declared",
        lower=0.0,
        upper=math.inf,
        higher_is_better=False,
        sample=rows,
    )
    def declared(sums: np.ndarray, /) -> np.ndarray:
        return np.asarray(sums[..., 0])

    kind = kind_info("test_metrics_kinds_declared")
    assert (kind.function, kind.lower, kind.upper, kind.higher_is_better, kind.sample) == (
        declared,
        0.0,
        math.inf,
        False,
        rows,
    )
    assert kind.has_range and not kind.is_proportion
    np.testing.assert_array_equal(
        kind.outside(np.array([0.0, np.nan, -1.0, np.inf])), [-1.0, np.inf]
    )
    undeclared = kind_info("mean")
    assert undeclared.higher_is_better is None  # a mean of errors is a mean too: specs say
