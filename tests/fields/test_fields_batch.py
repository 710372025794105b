"""The batched token-F1 matrices against the single-pair matrix and the pairwise definition:
random batches with shared and repeated tokens, articles, punctuation, non-ASCII text, long
tokens, empty lists and documents wide enough to need several 64-bit words per bitset."""

from __future__ import annotations

from collections import Counter
from itertools import chain

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay._fields import _order, coverage_matrix, element_similarity_matrix, token_f1_matrices
from assay._fields._batch_tokens import popcount
from assay._fields._text import (
    ARTICLE_KEYS,
    TokenKeys,
    coverage,
    is_word_key,
    squad_tokens,
    token_f1,
    token_keys,
    tokens,
)
from assay._fields.batched import element_similarity_matrices
from assay._fields.containment import coverage_matrices
from assay._fields.free_text import token_f1_matrix

#: a small alphabet, so that tokens repeat within and across documents
WORD = st.sampled_from(
    [
        *("fee", "Fee", "FEE!", "royalty", "the", "a", "an", "An", "of", "x", "2024", "10th"),
        *("-", "...", "'s", "é", "École", "straße", "東京", "naïve", "\x80", "a\x80b"),
        *("confidential", "intellectual-property", "abcdefgh", "abcdefghi", "abcdefghij"),
        *("supercalifragilisticexpialidocious", "supercalifragilisticexpialidociouz"),
    ]
)
#: an item: a few words, sometimes one word repeated many times (beyond 8 levels)
ITEM = st.one_of(
    st.lists(WORD, max_size=8).map(" ".join),
    st.tuples(WORD, st.integers(0, 12)).map(lambda wn: " ".join([wn[0]] * wn[1])),
    st.text(max_size=12),
)
ITEMS = st.lists(ITEM, max_size=8)
PAIRS = st.lists(st.tuples(ITEMS, ITEMS), max_size=6)
#: a large alphabet: a document can hold hundreds of columns (several 64-bit words)
WIDE_ITEM = st.lists(st.integers(0, 400).map(lambda n: f"w{n}"), max_size=40).map(" ".join)
WIDE_PAIRS = st.lists(
    st.tuples(st.lists(WIDE_ITEM, max_size=8), st.lists(WIDE_ITEM, max_size=8)), max_size=6
)


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype == np.float64 and a.tobytes() == b.tobytes()


def _plain_f1(p: str, g: str) -> float:
    """The matrices' formula pair by pair: 2·overlap / (|p| + |g|), both empty → 1.0."""
    ps, gs = squad_tokens(p), squad_tokens(g)
    overlap = sum((Counter(ps) & Counter(gs)).values())
    return 2.0 * overlap / (len(ps) + len(gs)) if ps or gs else 1.0


def _check(pairs: list[tuple[list[str], list[str]]]) -> None:
    got = token_f1_matrices(pairs)
    assert len(got) == len(pairs)
    for (pred, gold), matrix in zip(pairs, got, strict=True):
        assert _same_bits(matrix, token_f1_matrix(pred, gold))
        for i, p in enumerate(pred):
            for j, g in enumerate(gold):
                assert matrix[i, j] == _plain_f1(p, g)
                assert matrix[i, j] == pytest.approx(token_f1(p, g), rel=1e-12)


@given(pairs=PAIRS)
@settings(max_examples=300, deadline=None)
def test_batch_equals_single_matrices(pairs: list[tuple[list[str], list[str]]]) -> None:
    _check(pairs)


@given(pairs=WIDE_PAIRS)
@settings(max_examples=100, deadline=None)
def test_batch_with_wide_documents(pairs: list[tuple[list[str], list[str]]]) -> None:
    # documents of different widths (1, 2, 4, 8 words per bitset) in one batch
    _check(pairs)


@given(pairs=PAIRS)
@settings(max_examples=100, deadline=None)
def test_batch_with_hash_collisions(pairs: list[tuple[list[str], list[str]]]) -> None:
    # every token hashed alike: the exact fallback sort must give the same matrices
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_order, "MIX", np.zeros(3, dtype=np.uint64))
        _check(pairs)
        for (pred, gold), matrix in zip(pairs, coverage_matrices(pairs), strict=True):
            assert _same_bits(matrix, _plain_coverage_matrix(pred, gold))


def test_documents_share_no_columns() -> None:
    # the same texts in two documents: each document's cells only see its own texts
    doc = (["fee fee royalty", "the x"], ["fee royalty", "x x"])
    other = (["royalty"], ["fee fee fee", "royalty royalty"])
    got = token_f1_matrices([doc, other, doc])
    assert _same_bits(got[0], token_f1_matrix(*doc))
    assert _same_bits(got[1], token_f1_matrix(*other))
    assert _same_bits(got[2], got[0])
    assert got[1].tolist() == [[0.0, 2 / 3]]


def test_empty_batches_and_lists() -> None:
    assert token_f1_matrices([]) == []
    got = token_f1_matrices([([], ["a b"]), (["x"], []), ([], []), (["", "the"], ["", "an a"])])
    assert [m.shape for m in got] == [(0, 1), (1, 0), (0, 0), (2, 2)]
    assert all(m.dtype == np.float64 for m in got)
    # texts without SQuAD tokens on both sides: 1.0
    assert got[3].tolist() == [[1.0, 1.0], [1.0, 1.0]]
    # a wide document with no predicted items beside a narrow one
    wide = " ".join(f"w{n}" for n in range(300))
    got = token_f1_matrices([([], [wide]), (["w1 w2"], ["w2"])])
    assert got[0].shape == (0, 1)
    assert got[1].tolist() == [[2 / 3]]


@given(texts=st.lists(ITEM, max_size=8))
@settings(max_examples=300, deadline=None)
def test_token_keys_name_the_squad_tokens(texts: list[str]) -> None:
    # the token keys without the articles' keys (what the batched F1 reads) are the keys of
    # the SQuAD tokens
    keys = token_keys(texts)
    keep = ~is_word_key(keys.first, keys.second, ARTICLE_KEYS)
    keys = TokenKeys(keys.text[keep], keys.first[keep], keys.second[keep], keys.long[keep])
    expected = [(k, t) for k, text in enumerate(texts) for t in squad_tokens(text)]
    assert keys.text.tolist() == [k for k, _ in expected]
    named = list(zip(keys.first.tolist(), keys.second.tolist(), keys.long.tolist(), strict=True))
    # equal keys ⇔ equal tokens, over every pair of tokens of the batch
    meaning: dict[tuple[int, int, int], str] = {}
    for key, (_, token) in zip(named, expected, strict=True):
        assert meaning.setdefault(key, token) == token
    assert len(meaning) == len({t for _, t in expected})


@given(st.lists(st.integers(0, 2**64 - 1), max_size=20))
def test_popcount_fallback_counts_bits(values: list[int]) -> None:
    words = np.array(values, dtype=np.uint64)
    plain = [bin(v).count("1") for v in values]
    assert popcount(words).tolist() == plain
    with pytest.MonkeyPatch.context() as mp:
        mp.delattr(np, "bitwise_count", raising=False)
        assert popcount(words).tolist() == plain


def test_batch_on_the_benchmark_documents() -> None:
    # realistic sizes: 20-50 items of 8-25 words from a 50-word vocabulary
    rng = np.random.default_rng(7)
    vocab = [f"term{n}" for n in range(50)]

    def items() -> list[str]:
        sizes = rng.integers(8, 26, size=int(rng.integers(20, 51)))
        return [" ".join(rng.choice(vocab, size=int(n))) for n in sizes]

    pairs = [(items(), items()) for _ in range(12)]
    got = token_f1_matrices(pairs)
    for (pred, gold), matrix in zip(pairs, got, strict=True):
        assert _same_bits(matrix, token_f1_matrix(pred, gold))
    assert len(set(chain.from_iterable(map(tokens, pairs[0][0])))) > 20


def _plain_coverage_matrix(pred: list[str], gold: list[str]) -> np.ndarray:
    """coverage(g, p) pair by pair, as the containment scorer defines it (an expected item
    without tokens: covered only by a prediction without tokens)."""
    out = np.zeros((len(pred), len(gold)))
    for i, p in enumerate(pred):
        for j, g in enumerate(gold):
            value = coverage(g, p)
            out[i, j] = float(not tokens(p)) if value is None else value
    return out


@given(PAIRS)
@settings(max_examples=200, deadline=None)
def test_coverage_matrices_equal_the_pairwise_definition(
    pairs: list[tuple[list[str], list[str]]],
) -> None:
    got = coverage_matrices(pairs)
    assert len(got) == len(pairs)
    for (pred, gold), matrix in zip(pairs, got, strict=True):
        assert _same_bits(matrix, _plain_coverage_matrix(pred, gold))
        assert _same_bits(matrix, coverage_matrix(pred, gold))


@given(WIDE_PAIRS)
@settings(max_examples=40, deadline=None)
def test_coverage_matrices_of_wide_documents(pairs: list[tuple[list[str], list[str]]]) -> None:
    for (pred, gold), matrix in zip(pairs, coverage_matrices(pairs), strict=True):
        assert _same_bits(matrix, _plain_coverage_matrix(pred, gold))


@given(PAIRS, st.sampled_from(["free_text", "containment", "name"]))
@settings(max_examples=80, deadline=None)
def test_batched_element_matrices_equal_each_pairs_own(
    pairs: list[tuple[list[str], list[str]]], element: str
) -> None:
    got = element_similarity_matrices(pairs, element)
    for (pred, gold), matrix in zip(pairs, got, strict=True):
        assert _same_bits(matrix, element_similarity_matrix(pred, gold, element))
