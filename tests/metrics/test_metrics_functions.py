"""Plain metric functions with a CI: against scikit-learn's definitions and sacrebleu."""

from __future__ import annotations

import math

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from assay import metrics
from assay.metrics import Estimate

labels = st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=40)


def _f1(tp: int, fp: int, fn: int) -> float:
    return 2 * tp / (2 * tp + fp + fn) if (tp + fp + fn) else math.nan


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_label_metrics_follow_their_definitions(data: st.DataObject) -> None:
    y_true = data.draw(labels)
    y_pred = data.draw(
        st.lists(st.sampled_from(["a", "b", "c"]), min_size=len(y_true), max_size=len(y_true))
    )
    acc = metrics.accuracy(y_true, y_pred, ci=False)
    assert acc.value == pytest.approx(
        sum(t == p for t, p in zip(y_true, y_pred, strict=True)) / len(y_true)
    )
    tp = sum(t == p == "a" for t, p in zip(y_true, y_pred, strict=True))
    fp = sum(p == "a" != t for t, p in zip(y_true, y_pred, strict=True))
    fn = sum(t == "a" != p for t, p in zip(y_true, y_pred, strict=True))
    if "a" in y_true or "a" in y_pred:
        got = metrics.f1(y_true, y_pred, pos_label="a", ci=False).value
        assert got == pytest.approx(_f1(tp, fp, fn), nan_ok=True)
    seen = sorted(set(y_true) | set(y_pred))
    per_class = []
    for c in seen:
        ctp = sum(t == p == c for t, p in zip(y_true, y_pred, strict=True))
        cfp = sum(p == c != t for t, p in zip(y_true, y_pred, strict=True))
        cfn = sum(t == c != p for t, p in zip(y_true, y_pred, strict=True))
        per_class.append(_f1(ctp, cfp, cfn))
    macro = metrics.f1(y_true, y_pred, average="macro", ci=False).value
    assert macro == pytest.approx(sum(per_class) / len(per_class))


def test_the_ci_contains_the_value_and_is_deterministic() -> None:
    y_true = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1] * 5
    y_pred = [1, 0, 0, 1, 0, 1, 1, 0, 1, 0] * 5
    est = metrics.f1(y_true, y_pred, seed=7, n_bootstrap=500)
    assert isinstance(est, Estimate) and est.ci is not None
    assert est.ci_lower <= est.value <= est.ci_upper  # type: ignore[operator]
    assert metrics.f1(y_true, y_pred, seed=7, n_bootstrap=500) == est
    assert float(est) == est.value and est.n == 50 and est.n_bootstrap == 500


HYPS = ["the cat sat on the mat", "a dog barked loudly", "hello world", "it is raining today"]
REFS = ["the cat sat on a mat", "the dog barked", "hello there world", "it rains today"]


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (metrics.corpus_bleu, lambda h, r: sacrebleu.corpus_bleu(h, r).score),
        (metrics.corpus_chrf, lambda h, r: sacrebleu.corpus_chrf(h, r, word_order=2).score),
        (metrics.corpus_ter, lambda h, r: sacrebleu.corpus_ter(h, r).score),
    ],
)
def test_corpus_metrics_equal_sacrebleu(ours, theirs) -> None:  # type: ignore[no-untyped-def]
    est = ours(HYPS, REFS, n_bootstrap=200)
    assert est.value == pytest.approx(theirs(HYPS, [REFS]))
    assert est.ci_lower <= est.value <= est.ci_upper
    two = ours(HYPS, [REFS, HYPS], ci=False)  # two reference streams, sacrebleu's convention
    assert two.value == pytest.approx(theirs(HYPS, [REFS, HYPS]))


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: metrics.accuracy([1, 2], [1]), ValueError, "y_true and y_pred differ in length"),
        (lambda: metrics.accuracy([], []), ValueError, "y_true is empty"),
        (lambda: metrics.accuracy("ab", "ab"), TypeError, "y_true must be a sequence"),
        (lambda: metrics.accuracy([1], [None]), TypeError, "y_pred[0] must be a label"),
        (lambda: metrics.accuracy([1], [1], alpha=1.5), ValueError, "alpha must be"),
        (lambda: metrics.accuracy([1], [1], n_bootstrap=0), ValueError, "n_bootstrap must be"),
        (lambda: metrics.accuracy([1], [1], ci="yes"), TypeError, "ci must be True or False"),
        (lambda: metrics.f1([1, 0], [1, 0], average="weighted"), ValueError, "average must be"),
        (lambda: metrics.f1([1, 0], [1, 0], pos_label="x"), ValueError, "pos_label='x'"),
        (lambda: metrics.corpus_bleu(["a"], ["a", "b"]), ValueError, "references[0] has 2"),
        (lambda: metrics.corpus_bleu([1], ["a"]), TypeError, "hypotheses[0] must be a string"),
    ],
)
def test_validation_names_the_argument(call, error, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error) as err:
        call()
    assert message in str(err.value)


def test_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        metrics.accuracy([1], [1], False)  # type: ignore[misc]
