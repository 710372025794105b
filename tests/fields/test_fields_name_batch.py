"""name_similarity_matrices: the matrices of many list pairs at once equal each pair's own, and
the scalar rule bit for bit (issue 34: rapidfuzz's ratios in float64, its scalar Jaro–Winkler,
its token-set ratio's own arithmetic for the length terms)."""

from __future__ import annotations

import ast
import csv
import random
from itertools import chain

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay._fields.names as names
from assay._fields import DEFAULT_FIELD_SETTINGS, _order
from assay._fields._text import key_pairs, tokens
from assay._fields.names import (
    NON_EVIDENCE_TOKENS,
    defined_terms,
    name_similarity,
    name_similarity_matrices,
    name_similarity_matrix,
    non_evidence_tokens,
    normalized_name,
)
from assay._fields.suffixes import collapse_dotted_suffixes
from tests.conftest import SHARED

WORDS = ["acme", "Acme", "ACME,", "inc", "Inc.", "bel", "cor", "the", "é", "ß", "x1", "", "  "]
NAME = st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join) | st.text(max_size=12)
LISTS = st.lists(NAME, max_size=5)
BATCH = st.lists(st.tuples(LISTS, LISTS), max_size=6)

CUAD = SHARED / "data" / "legal" / "cuad" / "master_clauses.csv"


@given(BATCH)
@settings(max_examples=150, deadline=None)
def test_batch_equals_each_list_pair(batch: list[tuple[list[str], list[str]]]) -> None:
    got = name_similarity_matrices(batch)
    assert len(got) == len(batch)
    for (pred, gold), matrix in zip(batch, got, strict=True):
        alone = name_similarity_matrix(pred, gold)
        assert matrix.shape == alone.shape == (len(pred), len(gold))
        assert matrix.dtype == np.float64
        assert np.array_equal(matrix, alone)
        for i, p in enumerate(pred):
            for j, g in enumerate(gold):
                # the scalar rule, bit for bit
                assert matrix[i, j] == name_similarity(p, g)[0]


def test_list_pairs_share_no_tokens_across_the_batch() -> None:
    # the same strings in another list pair must not count as shared tokens here
    batch = [(["Acme Inc"], ["Globex LLC"]), (["Globex LLC"], ["Acme Inc"])]
    first, second = name_similarity_matrices(batch)
    assert first[0, 0] == name_similarity_matrix(["Acme Inc"], ["Globex LLC"])[0, 0] < 0.6
    assert second[0, 0] == first[0, 0]
    together = name_similarity_matrices([(["Acme Inc"], ["Acme Inc"]), (["x"], ["y"])])
    assert together[0][0, 0] == 1.0 and together[1][0, 0] == 0.0


@given(
    st.lists(st.integers(0, 6), max_size=30),
    st.lists(st.integers(0, 6), max_size=30),
)
@settings(max_examples=200, deadline=None)
def test_key_pairs_is_the_join_on_equal_keys(left: list[int], right: list[int]) -> None:
    i, j = key_pairs(np.array(left, dtype=np.int64), np.array(right, dtype=np.int64), 7)
    want = [(a, b) for a, x in enumerate(left) for b, y in enumerate(right) if x == y]
    assert list(zip(i.tolist(), j.tolist(), strict=True)) == want
    assert i.dtype == j.dtype == np.int64


def test_empty_lists_and_batches() -> None:
    assert name_similarity_matrices([]) == []
    shapes = [m.shape for m in name_similarity_matrices([([], ["a"]), (["a"], []), ([], [])])]
    assert shapes == [(0, 1), (1, 0), (0, 0)]
    blank = name_similarity_matrices([(["", "Acme"], ["  ", "acme"])])[0]
    assert blank.tolist() == [[1.0, 0.0], [0.0, 1.0]]


NON_EVIDENCE_WORDS = ["inc", "llc", "the", "of", "party", "buyer", "corp", "company", "acme", "x"]
TOKENS = st.lists(st.sampled_from(NON_EVIDENCE_WORDS), max_size=5).map(
    lambda ws: tuple(sorted(set(ws)))
)


@given(
    st.lists(TOKENS, min_size=1, max_size=6),
    st.lists(TOKENS, min_size=1, max_size=6),
    st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=20),
    st.sampled_from([names._MASK_BITS, 3, 0]),
)
@settings(max_examples=200, deadline=None)
def test_difference_ratios_equal_the_scalar_ratio(
    ptoks: list[tuple[str, ...]],
    gtoks: list[tuple[str, ...]],
    pairs: list[tuple[int, int]],
    mask_bits: int,
) -> None:
    # pairs sharing only non-evidence tokens (the only ones the batch passes)
    def weak_pair(p: tuple[str, ...], g: tuple[str, ...]) -> bool:
        shared = set(p) & set(g)
        return not shared - (non_evidence_tokens(p) & non_evidence_tokens(g))

    chosen = [
        (a % len(ptoks), b % len(gtoks))
        for a, b in pairs
        if weak_pair(ptoks[a % len(ptoks)], gtoks[b % len(gtoks)])
    ]
    rows = np.array([a for a, _ in chosen], dtype=np.int64)
    cols = np.array([b for _, b in chosen], dtype=np.int64)
    original = names._MASK_BITS
    names._MASK_BITS = mask_bits  # 0 and 3: the pairwise fallback for wide masks
    try:
        got = names._difference_ratios(ptoks, gtoks, rows, cols)
    finally:
        names._MASK_BITS = original
    want = [names._difference_ratio(frozenset(ptoks[a]), frozenset(gtoks[b])) for a, b in chosen]
    assert got.dtype == np.float64
    assert got.tolist() == want
    # as the batch calls it: each string's non-evidence tokens and evidence string given
    given_forms = names._difference_ratios(
        ptoks,
        gtoks,
        rows,
        cols,
        non_evidence=(
            [non_evidence_tokens(t) for t in ptoks],
            [non_evidence_tokens(t) for t in gtoks],
        ),
        evidence_strings=(
            [" ".join(t for t in p if t not in non_evidence_tokens(p)) for p in ptoks],
            [" ".join(t for t in g if t not in non_evidence_tokens(g)) for g in gtoks],
        ),
    )
    assert given_forms.tolist() == want


def test_a_pair_sharing_some_of_a_strings_suffixes_keeps_the_others_as_its_own() -> None:
    # "inc" shared, "the" and "corp" not: their own-token strings are joined pair by pair
    pred, gold = ["Acme Inc the Corp", "Acme Inc"], ["Bel Inc", "Cor the Inc"]
    matrix = name_similarity_matrix(pred, gold)
    for i, p in enumerate(pred):
        for j, g in enumerate(gold):
            assert matrix[i, j] == name_similarity(p, g)[0]


@given(st.lists(NAME | st.sampled_from(["a\0b", "Acme\0", "ÉCOLE Inc.", "x\ud800"]), max_size=8))
@settings(max_examples=200, deadline=None)
def test_name_table_holds_each_strings_forms(strings: list[str]) -> None:
    # the batch tokenizes the distinct strings together (one translate), keeps no cache, and
    # holds for each what the plain per-string definitions give
    table = names._NameTable(strings)
    collapsed = [collapse_dotted_suffixes(x) for x in strings]
    assert table.words == sorted(set(chain.from_iterable(map(tokens, collapsed))))
    for k, text in enumerate(strings):
        at = int(table.of[k])
        distinct = sorted(set(tokens(collapse_dotted_suffixes(text))))
        assert table.distinct_tokens(at) == distinct
        assert table.sorted_string[at] == " ".join(distinct)
        assert table.normalized[at] == normalized_name(text)
        non_evidence = non_evidence_tokens(distinct)
        assert table.n_non_evidence[at] == len(non_evidence)
        assert table.has_non_evidence[at] == bool(non_evidence)
        assert table.terms[at] == defined_terms(text)
        evidence = [t for t in distinct if t not in non_evidence]
        assert table.evidence_string[at] == " ".join(evidence)
        assert table.n_tokens[at] == len(distinct)
        assert table.chars[at] == sum(map(len, distinct))
        plain = [0] * (len(names._ALPHABET) + 1)
        for ch in "".join(distinct):
            pos = names._ALPHABET.find(ch)
            plain[pos if pos >= 0 else -1] += 1
        assert table.histograms(np.array([at], dtype=np.int64))[0].tolist() == plain
        owner, ids = table.occurrences(np.array([at], dtype=np.int64))
        assert owner.tolist() == [0] * len(distinct)
        assert [table.words[i] for i in ids.tolist()] == distinct
        assert table.word_len[ids].tolist() == [len(t) for t in distinct]
        assert table.word_non_evidence[ids].tolist() == [t in NON_EVIDENCE_TOKENS for t in distinct]
        _, entries = table.entries(np.array([at], dtype=np.int64))
        flags = table.entry_non_evidence[entries].tolist()
        assert flags == [t in non_evidence for t in distinct]
    # the same string twice is one distinct string
    assert len(set(table.of.tolist())) == len(set(strings))


@given(
    st.lists(st.text(min_size=1, max_size=4), min_size=1, max_size=6, unique=True),
    st.lists(st.tuples(st.integers(0, 7), st.integers(0, 5)), max_size=20),
)
@settings(max_examples=200, deadline=None)
def test_join_runs_joins_each_owners_words(
    words: list[str], occurrences: list[tuple[int, int]]
) -> None:
    # owners ascending, some without words; words may hold the separator ("\n")
    ordered = sorted((o, t % len(words)) for o, t in occurrences)
    owner = np.array([o for o, _ in ordered], dtype=np.int64)
    token = np.array([t for _, t in ordered], dtype=np.int64)
    got = names._join_runs(words, names._word_ends(words), token, owner, 8)
    want = [" ".join(words[t] for o, t in ordered if o == k) for k in range(8)]
    assert got == want


TEXTS = st.lists(
    NAME | st.sampled_from(["a\0b", "Ünïcode Inc", "x" * 25, "y" * 24 + " z", "Corp. 9"]),
    min_size=1,
    max_size=10,
)


@given(TEXTS)
@settings(max_examples=200, deadline=None)
def test_token_ids_are_each_texts_tokens(texts: list[str]) -> None:
    # ASCII batches through the byte path, others (NUL, non-ASCII, long words) word by word
    words, owner, ids, normalized = names._token_ids(texts)
    assert len(set(words)) == len(words)
    for k, text in enumerate(texts):
        assert [words[i] for i in ids[owner == k].tolist()] == list(tokens(text))
        assert normalized[k] == " ".join(tokens(text)) == normalized_name(text)
    assert owner.tolist() == sorted(owner.tolist())


def test_ascii_token_ids_fall_back_when_words_hash_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = ["Acme Inc", "acme corp", "Bel"]
    assert names._ascii_token_ids(texts) is not None
    assert names._ascii_token_ids(["a\0b"]) is None
    assert names._ascii_token_ids(["é"]) is None
    assert names._ascii_token_ids(["x" * 25]) is None
    monkeypatch.setattr(_order, "MIX", np.zeros(3, dtype=np.uint64))  # every word alike
    assert names._ascii_token_ids(texts) is None
    words, owner, ids, normalized = names._token_ids(texts)
    assert [[words[i] for i in ids[owner == k].tolist()] for k in range(3)] == [
        ["acme", "inc"],
        ["acme", "corp"],
        ["bel"],
    ]
    assert normalized == ["acme inc", "acme corp", "bel"]


@given(BATCH)
@settings(max_examples=100, deadline=None)
def test_shared_tokens_join_on_raw_or_numbered_keys_alike(
    batch: list[tuple[list[str], list[str]]],
) -> None:
    # small batches join on the (list pair, token) keys as they are; larger ones number the
    # keys present first: both give the same matrices
    direct = name_similarity_matrices(batch)
    original = names._RADIX_KEYS
    names._RADIX_KEYS = 0  # every batch through the numbered keys
    try:
        numbered = name_similarity_matrices(batch)
    finally:
        names._RADIX_KEYS = original
    assert len(direct) == len(numbered)
    for a, b in zip(direct, numbered, strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)


def _cuad_party_lists() -> list[tuple[list[str], list[str]]]:
    """Each CUAD contract's party spans against its normalized party answers, and random
    lists of the party names across contracts."""
    with CUAD.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    same = []
    for row in rows:
        spans = row["Parties"].strip()
        pred = list(ast.literal_eval(spans)) if spans.startswith("[") else []
        gold = [a.strip() for a in row["Parties-Answer"].split(";") if a.strip()]
        if pred and gold:
            same.append((pred, gold))
    every = sorted({x for p, g in same for x in (*p, *g)})
    rng = random.Random(0)
    return same + [(rng.sample(every, 8), rng.sample(every, 8)) for _ in range(300)]


def _random_lists() -> list[tuple[list[str], list[str]]]:
    rng = random.Random(0)
    alphabet = "abcdefgh ijklmn ,.inc llc co"

    def names_() -> list[str]:
        return ["".join(rng.choices(alphabet, k=rng.randint(1, 25))) for _ in range(6)]

    return [(names_(), names_()) for _ in range(300)]


@pytest.mark.parametrize("source", ["cuad", "random"])
def test_the_batch_is_the_scalar_rule_bit_for_bit(source: str) -> None:
    if source == "cuad" and not CUAD.is_file():
        pytest.skip(f"CUAD data not found at {CUAD}")
    batch = _cuad_party_lists() if source == "cuad" else _random_lists()
    for (pred, gold), matrix in zip(batch, name_similarity_matrices(batch), strict=True):
        plain = np.array([[name_similarity(p, g)[0] for g in gold] for p in pred])
        assert np.array_equal(matrix, plain.reshape(matrix.shape))


def test_a_similarity_on_the_rescue_threshold_decides_as_the_scalar_rule() -> None:
    pred, gold = (
        "APT Satellite Telecommunications Limited",
        "MCI International Telecommunications. Inc.",
    )
    threshold = DEFAULT_FIELD_SETTINGS.embedding_rescue_below
    scalar = name_similarity(pred, gold)[0]
    assert scalar == pytest.approx(threshold, abs=1e-15)
    assert (name_similarity_matrix([pred], [gold])[0, 0] < threshold) == (scalar < threshold)
