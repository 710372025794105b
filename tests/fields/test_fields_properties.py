"""Property tests for every scorer: bounds, symmetry where it holds, order independence for
lists, and the vectorized matrices equal to the scalar scorers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from assay._fields import (
    FIELD_SCORERS,
    coverage_matrix,
    is_null_expectation,
    name_similarity_matrix,
    score_containment_field,
    score_entity_list,
    score_free_text_field,
    score_name_field,
    token_f1_matrix,
)
from assay._fields._text import tokens

WORDS = st.sampled_from(
    [
        "acme",
        "global",
        "inc",
        "llc",
        "agreement",
        "franchise",
        "the",
        "of",
        "texas",
        "march",
        "2024",
        "3",
        "$",
        "250,000",
        "party",
        "consultant",
        "royalty",
        "shall",
        "pay",
        "license",
        "grant",
        "10th",
        "day",
        "january",
        "1/2/2003",
        "years",
        "months",
    ]
)
TEXT = st.lists(WORDS, min_size=0, max_size=8).map(" ".join)
VALUE = st.one_of(st.none(), TEXT, st.integers(-10, 10**6), st.floats(allow_nan=False, width=32))


@pytest.mark.parametrize("kind", sorted(FIELD_SCORERS))
@given(pred=VALUE, gold=VALUE)
@settings(max_examples=60, deadline=None)
def test_scores_are_in_unit_interval(kind: str, pred: object, gold: object) -> None:
    result = FIELD_SCORERS[kind](pred, gold)  # type: ignore[call-arg]
    assert 0.0 <= result.score <= 1.0
    assert result.reason


@pytest.mark.parametrize("kind", sorted(FIELD_SCORERS))
@given(value=TEXT.filter(lambda t: t.strip() != ""))
@settings(max_examples=40, deadline=None)
def test_identity_scores_high(kind: str, value: str) -> None:
    if kind == "date" and is_null_expectation(value):
        return  # a label-only expected date ("agreement date") wants no date at all
    result = FIELD_SCORERS[kind](value, value)  # type: ignore[call-arg]
    # a bare year (or a date without its day) never earns full credit, even against itself
    assert result.score >= (0.33 if kind == "date" else 1.0) - 1e-9


@given(a=TEXT, b=TEXT)
@settings(max_examples=100, deadline=None)
def test_free_text_f1_is_symmetric(a: str, b: str) -> None:
    if a.strip() and b.strip():
        assert score_free_text_field(a, b).score == pytest.approx(score_free_text_field(b, a).score)


@given(items=st.lists(TEXT, min_size=1, max_size=6), gold=st.lists(TEXT, min_size=1, max_size=6))
@settings(max_examples=60, deadline=None)
def test_matrices_equal_scalar_scorers(items: list[str], gold: list[str]) -> None:
    pred = [p for p in items if p.strip()] or ["x"]
    exp = [g for g in gold if g.strip()] or ["y"]
    names = name_similarity_matrix(pred, exp)
    f1 = token_f1_matrix(pred, exp)
    cov = coverage_matrix(pred, exp)
    for i, p in enumerate(pred):
        for j, g in enumerate(exp):
            assert names[i, j] == score_name_field(p, g).score
            assert f1[i, j] == score_free_text_field(p, g).score
            assert cov[i, j] == pytest.approx(score_containment_field(p, g).score)


@given(a=TEXT, b=TEXT)
@settings(max_examples=100, deadline=None)
def test_disjoint_token_set_ratio_is_indel_of_sorted_tokens(a: str, b: str) -> None:
    # the sorted-token strings name_similarity_matrices compares for disjoint pairs
    sa, sb = (" ".join(sorted(set(tokens(x)))) for x in (a, b))
    if sa and sb and not set(sa.split()) & set(sb.split()):
        assert fuzz.token_set_ratio(sa, sb, processor=None) / 100 == pytest.approx(
            Indel.normalized_similarity(sa, sb)
        )


@given(
    pred=st.lists(TEXT, max_size=7),
    gold=st.lists(TEXT, max_size=7),
    seed=st.integers(0, 2**16),
    partial=st.booleans(),
    element=st.sampled_from(["name", "free_text", "containment"]),
)
@settings(max_examples=80, deadline=None)
def test_entity_list_is_order_independent(
    pred: list[str], gold: list[str], seed: int, partial: bool, element: str
) -> None:
    rng = np.random.default_rng(seed)
    a = score_entity_list(pred, gold, element=element, partial_gt=partial)
    b = score_entity_list(
        list(rng.permutation(np.array(pred, dtype=object))),
        list(rng.permutation(np.array(gold, dtype=object))),
        element=element,
        partial_gt=partial,
    )
    assert a.score == pytest.approx(b.score)
    assert a.matched == b.matched
    assert 0.0 <= a.score <= 1.0
    for value in (a.precision, a.recall, a.f1):
        assert value is None or 0.0 <= value <= 1.0


@given(items=st.lists(TEXT.filter(lambda t: t.strip() != ""), min_size=1, max_size=6))
@settings(max_examples=40, deadline=None)
def test_a_list_against_itself_scores_one(items: list[str]) -> None:
    assert score_entity_list(items, items, element="free_text").score == pytest.approx(1.0)
