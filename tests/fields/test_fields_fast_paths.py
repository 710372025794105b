"""The fast paths of the field scorers against plain definitions written here: token counts,
multiset overlap, ASCII tokenization, character histograms, the similarity matrices, the
partial-GT role-word rule and the optimal assignment's pair list."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from rapidfuzz import fuzz
from rapidfuzz.distance import Indel, JaroWinkler

from assay._fields import (
    DEFAULT_FIELD_SETTINGS,
    FieldSettings,
    _text,
    name_similarity_matrix,
)
from assay._fields._text import (
    STOPWORDS,
    content_tokens,
    multiset_overlap,
    squad_tokens,
    token_columns,
    token_count_matrix,
    token_f1,
    tokens,
)
from assay._fields.entity_list import _instantiated
from assay._fields.free_text import token_f1_matrix
from assay._fields.names import (
    DOMAIN_LABELS,
    GENERIC_NAME_WORDS,
    NON_EVIDENCE_TOKENS,
    defined_terms,
    normalized_name,
)
from assay._matching import optimal_assignment, optimal_assignments
from assay._text import word_tokens

WORD = st.sampled_from(
    [
        *("acme", "inc", "llc", "the", "of", "a", "an", "supply", "agreement", "seller"),
        *("party", "shall", "pay", "royalty", "royalties", "co", "corp", "2024", "10th"),
        *("é", "straße"),
    ]
)
PHRASE = st.lists(WORD, max_size=8).map(" ".join)
#: any text, including punctuation, accents, other scripts and odd whitespace
ANY_TEXT = st.text(max_size=40)
ASCII_TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=127), max_size=60)


@given(text=st.one_of(ASCII_TEXT, ANY_TEXT))
@settings(max_examples=300, deadline=None)
def test_tokens_equal_word_tokens(text: str) -> None:
    # the ASCII path (translate + split) is the same tokenization as assay._text's
    assert list(tokens(text)) == word_tokens(text)


@given(lists=st.lists(st.lists(WORD, max_size=6), max_size=6))
@settings(max_examples=200, deadline=None)
def test_token_columns_are_counts(lists: list[list[str]]) -> None:
    counts, vocab = token_columns(lists)
    assert counts.shape[0] == len(lists)
    assert len(vocab) == len(set(vocab))
    for row, toks in zip(counts, lists, strict=True):
        plain = Counter(toks)
        assert {t: int(c) for t, c in zip(vocab, row, strict=False) if c} == dict(plain)
        assert int(row.sum()) == len(toks)
    assert np.array_equal(token_count_matrix(lists), counts)


@given(
    a=st.lists(st.lists(WORD, max_size=8), min_size=1, max_size=5),
    b=st.lists(st.lists(WORD, max_size=8), min_size=1, max_size=5),
)
@settings(max_examples=200, deadline=None)
def test_multiset_overlap_is_sum_of_minimum_counts(a: list[list[str]], b: list[list[str]]) -> None:
    counts = token_count_matrix([*a, *b])
    overlap = multiset_overlap(counts[: len(a)], counts[len(a) :])
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            assert overlap[i, j] == sum((Counter(x) & Counter(y)).values())
    with pytest.MonkeyPatch.context() as mp:
        # the direct-minimum path for repeated tokens, one repeated token per block
        mp.setattr(_text, "_MAX_LEVELS", 0)
        mp.setattr(_text, "_OVERLAP_BLOCK", 1)
        assert np.array_equal(multiset_overlap(counts[: len(a)], counts[len(a) :]), overlap)


@given(pred=st.lists(PHRASE, max_size=6), gold=st.lists(PHRASE, max_size=6))
@settings(max_examples=200, deadline=None)
def test_token_f1_matrix_equals_its_definition(pred: list[str], gold: list[str]) -> None:
    matrix = token_f1_matrix(pred, gold)
    assert matrix.shape == (len(pred), len(gold))
    for i, p in enumerate(pred):
        for j, g in enumerate(gold):
            # the matrix's formula, 2·overlap / (|p| + |g|), bit for bit
            ps, gs = squad_tokens(p), squad_tokens(g)
            overlap = sum((Counter(ps) & Counter(gs)).values())
            plain = 2.0 * overlap / (len(ps) + len(gs)) if ps or gs else 1.0
            assert matrix[i, j] == plain
            # and the scalar scorer's, bit for bit (the same formula)
            assert matrix[i, j] == token_f1(p, g)


def test_token_f1_and_its_matrix_decide_alike_on_the_match_threshold() -> None:
    # 9 shared tokens of 13 and 17: F1 = 18 / 30 = 0.6 exactly
    shared = " ".join(f"w{k}" for k in range(9))
    pred = shared + " " + " ".join(f"p{k}" for k in range(4))
    gold = shared + " " + " ".join(f"g{k}" for k in range(8))
    threshold = DEFAULT_FIELD_SETTINGS.bipartite_match_threshold
    matrix = token_f1_matrix([pred], [gold])[0, 0]
    assert matrix == threshold
    assert (token_f1(pred, gold) >= threshold) == (matrix >= threshold)


def _plain_token_f1(pred: str, gold: str) -> float:
    """Token F1 by its definition: Counter overlap, then 2·overlap / (|p| + |g|) (= 2PR/(P+R)
    in exact arithmetic)."""
    p, g = squad_tokens(pred), squad_tokens(gold)
    if not p or not g:
        return float(p == g)
    overlap = sum((Counter(p) & Counter(g)).values())
    return 2.0 * overlap / (len(p) + len(g))


def _squad_token_f1(pred: str, gold: str) -> float:
    """SQuAD's token F1 as its reference computes it: Counter overlap, then 2PR / (P + R)."""
    p, g = squad_tokens(pred), squad_tokens(gold)
    if not p or not g:
        return float(p == g)
    overlap = sum((Counter(p) & Counter(g)).values())
    if overlap == 0:
        return 0.0
    precision, recall = overlap / len(p), overlap / len(g)
    return 2 * precision * recall / (precision + recall)


@given(pred=PHRASE, gold=PHRASE)
@settings(max_examples=300, deadline=None)
def test_token_f1_is_squads_within_an_ulp(pred: str, gold: str) -> None:
    """The correctly rounded ratio against SQuAD's float arithmetic: at most one ulp apart."""
    ours, squad = token_f1(pred, gold), _squad_token_f1(pred, gold)
    assert abs(ours - squad) <= math.ulp(max(ours, squad))


@given(pred=PHRASE, gold=PHRASE, same=st.sampled_from(["no", "tokens", "text"]))
@settings(max_examples=400, deadline=None)
def test_token_f1_equals_its_definition_bit_for_bit(pred: str, gold: str, same: str) -> None:
    # the shortcuts: equal token sequences written differently, and the very same text (1.0
    # without tokenizing); other pairs in a third of the cases
    gold = {"no": gold, "tokens": pred.upper() + " .", "text": pred}[same]
    assert token_f1(pred, gold) == _plain_token_f1(pred, gold)


def _plain_non_evidence(toks: set[str]) -> set[str]:
    """A name's tokens that are no evidence, by the definition (names' module docstring)."""
    fixed = toks & NON_EVIDENCE_TOKENS
    weak = {t for t in toks - fixed if len(t) <= 2 or t in DOMAIN_LABELS or t in GENERIC_NAME_WORDS}
    return fixed | weak if toks - fixed - weak else fixed


def _plain_name_similarity(pred: str, gold: str) -> float:
    """The rule, pair by pair, with rapidfuzz called directly."""
    p, g = normalized_name(pred), normalized_name(gold)
    if not p or not g:
        return float(p == g)
    if p in defined_terms(gold) or g in defined_terms(pred):
        return 1.0
    ptoks, gtoks = set(p.split()), set(g.split())
    if not (ptoks & gtoks) - (_plain_non_evidence(ptoks) & _plain_non_evidence(gtoks)):
        # only suffixes / stopwords / role words / weak tokens shared: the ratio of what each
        # side has alone
        only_p, only_g = " ".join(sorted(ptoks - gtoks)), " ".join(sorted(gtoks - ptoks))
        return float(Indel.normalized_similarity(only_p, only_g))
    if gtoks <= ptoks:
        return 1.0
    score = fuzz.token_set_ratio(p, g, processor=None) / 100.0
    return max(score, JaroWinkler.normalized_similarity(p, g, processor=None))


@given(pred=st.lists(PHRASE, max_size=6), gold=st.lists(PHRASE, max_size=6))
@settings(max_examples=200, deadline=None)
def test_name_matrix_equals_the_pairwise_rule(pred: list[str], gold: list[str]) -> None:
    matrix = name_similarity_matrix(pred, gold)
    assert matrix.shape == (len(pred), len(gold))
    for i, p in enumerate(pred):
        for j, g in enumerate(gold):
            # bit for bit (rapidfuzz's ratios in float64, names.name_similarity_matrices)
            assert matrix[i, j] == _plain_name_similarity(p, g)


def _plain_instantiated_roles(pred: list[str], gold: list[str], s: FieldSettings) -> set[int]:
    roles = {w.lower() for w in s.role_words}
    return {
        j
        for j, label in enumerate(gold)
        if pred and content_tokens(label) and set(content_tokens(label)) <= roles
    }


@given(
    pred=st.lists(PHRASE, max_size=4),
    gold=st.lists(
        st.lists(
            st.sampled_from(["the", "seller", "buyer", "of", "a", "acme", "party"]), max_size=3
        ).map(" ".join),
        max_size=6,
    ),
)
@settings(max_examples=200, deadline=None)
def test_role_word_rule_equals_its_definition(pred: list[str], gold: list[str]) -> None:
    s = DEFAULT_FIELD_SETTINGS.model_copy(
        update={"role_words": ["Seller", "Buyer", "Party"], "contained_label_min_tokens": 99}
    )
    # no quotes and no contained labels here: every rule that fires is the role-word rule
    found = _instantiated(pred, gold, range(len(gold)), s)
    assert {rule for _, rule in found} <= {"role-word label"}
    assert {j for j, _ in found} == _plain_instantiated_roles(pred, gold, s)
    assert "the" in STOPWORDS  # the rule ignores stopwords ("the Seller" is a role label)


def _plain_contained(pred: list[str], gold: list[str], lo: int, hi: int) -> set[int]:
    """Labels of lo..hi tokens found, token for token and in order, inside one item."""
    found = set()
    for j, label in enumerate(gold):
        want, n = list(tokens(label)), len(tokens(label))
        if lo <= n <= hi and any(
            list(tokens(p))[k : k + n] == want for p in pred for k in range(len(tokens(p)))
        ):
            found.add(j)
    return found


@given(
    pred=st.lists(PHRASE, max_size=5),
    gold=st.lists(
        st.one_of(PHRASE, st.lists(WORD, min_size=3, max_size=4).map(" ".join)), max_size=6
    ),
)
@settings(max_examples=300, deadline=None)
def test_contained_label_rule_equals_its_definition(pred: list[str], gold: list[str]) -> None:
    # a label equal to a whole item takes the set lookup, any other the substring search
    gold = gold + pred[:2]
    found = _instantiated(pred, gold, range(len(gold)), DEFAULT_FIELD_SETTINGS)
    lo = DEFAULT_FIELD_SETTINGS.contained_label_min_tokens
    hi = DEFAULT_FIELD_SETTINGS.contained_label_max_tokens
    assert {j for j, rule in found if rule == "contained label"} == _plain_contained(
        pred, gold, lo, hi
    )


def _plain_pairs(sim: np.ndarray, threshold: float) -> tuple[tuple[int, int, float], ...]:
    """The pair list as it was built before the fast path: scipy on nan_to_num weights."""
    from scipy.optimize import linear_sum_assignment

    ok = sim >= threshold
    if sim.size == 0 or not ok.any():
        return ()
    bonus = float(min(sim.shape) + 1)
    rows, cols = linear_sum_assignment(np.where(ok, bonus + np.nan_to_num(sim), 0.0), maximize=True)
    return tuple(
        (int(r), int(c), float(sim[r, c])) for r, c in zip(rows, cols, strict=True) if ok[r, c]
    )


@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 6), st.integers(1, 6)),
        elements=st.one_of(st.floats(0, 1), st.just(np.nan)),
    )
)
@settings(max_examples=200, deadline=None)
def test_assignment_pairs_equal_the_plain_construction(sim: np.ndarray) -> None:
    assert optimal_assignment(sim, 0.6).pairs == _plain_pairs(sim, 0.6)


def test_assignment_with_infinite_similarity() -> None:
    sim = np.array([[np.inf, 0.7], [0.8, np.nan]])
    assert optimal_assignment(sim, 0.6).pairs == _plain_pairs(sim, 0.6)
    # infinite and NaN entries in one matrix of a batch leave the others' weights alone
    other = np.array([[0.9, 0.9], [0.9, 0.61]])
    got = optimal_assignments([other, sim, other], 0.6)
    assert [a.pairs for a in got] == [_plain_pairs(m, 0.6) for m in (other, sim, other)]


MATRIX = arrays(
    np.float64,
    st.tuples(st.integers(0, 6), st.integers(0, 6)),
    # ties (0.6, 1.0 repeated) as the kernels give them, and NaN
    elements=st.one_of(st.floats(0, 1), st.sampled_from([0.6, 1.0, 0.0]), st.just(np.nan)),
)


@given(st.lists(MATRIX, max_size=8), st.sampled_from([0.6, 0.0, 1.0]))
@settings(max_examples=300, deadline=None)
def test_batched_assignments_equal_the_plain_construction(
    sims: list[np.ndarray], threshold: float
) -> None:
    got = optimal_assignments(sims, threshold)
    assert len(got) == len(sims)
    for sim, assignment in zip(sims, got, strict=True):
        assert assignment.pairs == _plain_pairs(sim, threshold)
        assert (assignment.n_rows, assignment.n_cols) == sim.shape
