"""Seed 001's Python API and its required tests: determinism, identical → 1.0, clearly better
→ ≈ 0, mismatched ids, empty input; entry rules; fast path = generic path."""

from __future__ import annotations

from typing import Any

import pytest
from sacrebleu.metrics import BLEU, CHRF

from assay.metrics.spec import MetricSpec
from assay.suites.translation import (
    EntryMismatchError,
    SignificanceResult,
    corpus_bleu,
    corpus_chrf,
    corpus_ter,
    exact_match_rate,
    paired_bootstrap,
)

REFS = [
    "The cat sat on the mat.",
    "A quick brown fox jumps over the lazy dog.",
    "It is raining in the city today.",
    "We will meet at noon near the station.",
    "The report was published on Monday.",
    "She plays the piano every evening.",
] * 4


def entries(preds: list[str], **extra: Any) -> list[dict[str, Any]]:
    return [
        {"id": f"e{i}", "source": "", "expected": r, "predicted": p, "error": None, **extra}
        for i, (r, p) in enumerate(zip(REFS, preds, strict=True))
    ]


GOOD = entries(list(REFS))
BAD = entries(["Nothing to see here."] * len(REFS))
MIXED = entries([r if i % 3 else "Something else entirely." for i, r in enumerate(REFS)])


def test_builtins_equal_sacrebleu_under_the_entry_rules() -> None:
    rows = [
        *MIXED[:5],
        {"id": "blank-ref", "expected": "  ", "predicted": "ignored"},
        {"id": "blank-pred", "expected": "Hello there.", "predicted": ""},
        {"id": "err", "expected": "Thanks.", "predicted": None, "error": "timeout"},
    ]
    hyps = [r["predicted"] for r in MIXED[:5]] + ["EMPTY", "EMPTY"]
    refs = [r["expected"] for r in MIXED[:5]] + ["Hello there.", "Thanks."]
    assert corpus_chrf(rows) == pytest.approx(CHRF(word_order=2).corpus_score(hyps, [refs]).score)
    assert corpus_bleu(rows) == pytest.approx(BLEU().corpus_score(hyps, [refs]).score)
    assert corpus_ter(rows) >= 0
    # the error entry is left out; "blank-ref" is counted (recomputed: no reference → no match)
    expected = sum(r["predicted"] == r["expected"] for r in MIXED[:5]) / 7
    assert exact_match_rate(rows) == pytest.approx(expected)


def test_exact_match_rate_reads_the_report_flag_and_is_zero_without_entries() -> None:
    rows = [{"id": "a", "expected": "x", "predicted": "y", "exact_match": True}]
    assert exact_match_rate(rows) == 1.0
    assert exact_match_rate([{"id": "a", "expected": "x", "predicted": "x", "error": "e"}]) == 0.0


@pytest.mark.parametrize("metric_fn", [corpus_chrf, corpus_bleu, exact_match_rate])
def test_deterministic_with_a_seed(metric_fn: Any) -> None:
    one = paired_bootstrap(MIXED, BAD, metric_fn, n_bootstrap=200, seed=7)
    two = paired_bootstrap(MIXED, BAD, metric_fn, n_bootstrap=200, seed=7)
    assert one == two
    assert isinstance(one, SignificanceResult)
    # fewer than 50 entries: the dispatch's randomization test decides (R = 10,000)
    assert one.seed == 7 and one.n_units == len(MIXED)
    assert (one.method, one.n_bootstrap) == ("approximate_randomization", 10_000)


def test_five_segments_can_never_be_significant() -> None:
    """Seed 001's API used to return p = 0.0 on 5 segments; the exact test's floor is 2/2^5."""
    for fn in (corpus_chrf, lambda e: corpus_chrf(e)):
        result = paired_bootstrap(GOOD[:5], BAD[:5], fn)
        assert result.method == "exact_sign_flip" and result.p_value == pytest.approx(0.0625)
        assert not result.significant and not result.can_reject and result.winner is None


@pytest.mark.parametrize("metric_fn", [corpus_chrf, corpus_bleu, exact_match_rate])
def test_identical_results_give_p_one(metric_fn: Any) -> None:
    result = paired_bootstrap(MIXED, [dict(e) for e in MIXED], metric_fn)
    assert result.p_value == 1.0
    assert result.delta == 0.0 and not result.significant and result.winner is None


@pytest.mark.parametrize("metric_fn", [corpus_chrf, corpus_bleu, exact_match_rate])
def test_clearly_better_gives_p_near_zero(metric_fn: Any) -> None:
    result = paired_bootstrap(GOOD, BAD, metric_fn, metric_name="m")
    assert result.p_value < 0.01
    assert result.significant and result.winner == "A"
    assert result.metric_name == "m"
    assert result.ci_lower is not None and result.ci_lower > 0


def test_mismatched_ids_and_lengths_raise_value_error() -> None:
    other = [{**e, "id": f"x{i}"} for i, e in enumerate(BAD)]
    with pytest.raises(ValueError, match="ids"):
        paired_bootstrap(GOOD, other, corpus_chrf)
    with pytest.raises(ValueError, match="length"):
        paired_bootstrap(GOOD, BAD[:-1], corpus_chrf)
    with pytest.raises(EntryMismatchError):
        paired_bootstrap([], [], corpus_chrf)


def test_same_ids_in_another_order_are_aligned() -> None:
    a = paired_bootstrap(MIXED, BAD, corpus_chrf, n_bootstrap=100)
    b = paired_bootstrap(MIXED, list(reversed(BAD)), corpus_chrf, n_bootstrap=100)
    assert a == b


def test_fast_path_equals_generic_path() -> None:
    small_a, small_b = MIXED[:8], BAD[:8]
    for fn in (corpus_chrf, exact_match_rate):
        fast = paired_bootstrap(small_a, small_b, fn, n_bootstrap=60, metric_name="m")
        slow = paired_bootstrap(
            small_a, small_b, lambda e, fn=fn: fn(e), n_bootstrap=60, metric_name="m"
        )
        assert slow.method == fast.method == "exact_sign_flip"  # 8 entries: every swap
        assert fast.p_value == pytest.approx(slow.p_value, abs=1e-12)
        assert fast.delta == pytest.approx(slow.delta, abs=1e-9)
        assert fast.ci_lower == pytest.approx(slow.ci_lower, abs=1e-9)
        assert fast.ci_upper == pytest.approx(slow.ci_upper, abs=1e-9)


def test_a_metric_spec_takes_the_fast_path() -> None:
    spec = MetricSpec("exact", "rate_or_zero", ("exact_match", "exact_match#n"))
    result = paired_bootstrap(GOOD, BAD, spec)
    assert result.metric_name == "exact" and result.method == "approximate_randomization"
    assert result.delta == 1.0
