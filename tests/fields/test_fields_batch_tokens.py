"""The batch token helpers against their straightforward definitions: the token keys read from
the bytes, word tests by binary search, the runs and groups of token occurrences, bitsets
built by ``bincount`` and the cells' shared-bit counts."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay._fields import _order
from assay._fields._batch_tokens import (
    BatchTokens,
    bitsets,
    popcount,
    shared_bits,
    text_words,
)
from assay._fields._text import (
    ARTICLES,
    BYTE_WORDS,
    STOPWORDS,
    _word_bytes,
    coverage,
    is_word_key,
    token_keys,
    tokens,
    word_keys,
)
from assay._fields.containment import coverage_matrices
from assay._fields.free_text import token_f1_matrices, token_f1_matrix

#: words that repeat, stopwords and articles, mixed case, non-ASCII, 8/9/16/17+ byte tokens
WORD = st.sampled_from(
    [
        *("the", "The", "a", "an", "of", "shall", "be", "fee", "FEE", "x", "2024", "10th"),
        *("é", "École", "straße", "東京", "a\x80b", "-", "..."),
        *("abcdefgh", "ABCDEFGHI", "abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmnopQ"),
        *("supercalifragilisticexpialidocious", "Supercalifragilisticexpialidocious"),
    ]
)
TEXT = st.one_of(
    st.lists(WORD, max_size=8).map(" ".join),
    st.tuples(WORD, st.integers(0, 9)).map(lambda wn: " ".join([wn[0]] * wn[1])),
    st.text(max_size=12),
)
PAIRS = st.lists(st.tuples(st.lists(TEXT, max_size=6), st.lists(TEXT, max_size=6)), max_size=5)


def _key(token: str) -> tuple[int, int]:
    """A token's first two key words by definition: its UTF-8 bytes 1-8 and 9-16, little-endian,
    zero-padded."""
    raw = token.encode().ljust(16, b"\0")
    return int.from_bytes(raw[:8], "little"), int.from_bytes(raw[8:16], "little")


def test_word_bytes_are_the_translation_table_s_word_characters() -> None:
    chars = np.arange(128, dtype=np.uint8)
    assert _word_bytes(chars).tolist() == [BYTE_WORDS[c] != ord(" ") for c in range(128)]
    assert not _word_bytes(np.arange(128, 256, dtype=np.uint8)).any()


@given(texts=st.lists(TEXT, max_size=8))
@settings(max_examples=300, deadline=None)
def test_token_keys_are_the_tokens_bytes(texts: list[str]) -> None:
    keys = token_keys(texts)
    expected = [(k, t) for k, text in enumerate(texts) for t in tokens(text)]
    assert keys.text.tolist() == [k for k, _ in expected]
    got = list(zip(keys.first.tolist(), keys.second.tolist(), strict=True))
    assert got == [_key(t) for _, t in expected]
    # the long key names the whole token (equal ⇔ equal) beyond 16 bytes, else is 0
    names: dict[str, int] = {}
    for name, (_, t) in zip(keys.long.tolist(), expected, strict=True):
        assert (name == 0) == (len(t.encode()) <= 16)
        if name:
            assert names.setdefault(t, name) == name
    assert len(set(names.values())) == len(names)


@given(texts=st.lists(TEXT, max_size=8), words=st.sampled_from([ARTICLES, STOPWORDS, set()]))
@settings(max_examples=200, deadline=None)
def test_is_word_is_membership(texts: list[str], words: frozenset[str]) -> None:
    keys = token_keys(texts)
    expected = [t in words for text in texts for t in tokens(text)]
    table = word_keys(words)
    assert is_word_key(keys.first, keys.second, table).tolist() == expected


def _texts(pairs: list[tuple[list[str], list[str]]]) -> list[str]:
    return [t for p, g in pairs for t in (*p, *g)]


@given(pairs=PAIRS, collide=st.booleans())
@settings(max_examples=200, deadline=None)
def test_runs_are_each_token_s_occurrences_per_text_and_list_pair(
    pairs: list[tuple[list[str], list[str]]], collide: bool
) -> None:
    with pytest.MonkeyPatch.context() as mp:
        if collide:  # every key hashed alike: grouped_order's exact fallback
            mp.setattr(_order, "MIX", np.zeros(3, dtype=np.uint64))
        batch = BatchTokens.of(pairs)
    runs = batch.runs
    texts = _texts(pairs)
    flat = [(k, t) for k, text in enumerate(texts) for t in tokens(text)]
    token_of = [t for _, t in flat]
    doc = batch.doc.tolist()
    # each run: one token's occurrences in one text, every occurrence counted once
    got = Counter[tuple[int, str]]()
    for start, length, text in zip(
        runs.start.tolist(), runs.length.tolist(), runs.run_text.tolist(), strict=True
    ):
        members = batch.order[start : start + length].tolist()
        assert {flat[m] for m in members} == {(text, token_of[members[0]])}
        assert members == sorted(members)
        got[text, token_of[members[0]]] += length
    assert got == Counter(flat)
    assert runs.text.tolist() == [flat[m][0] for m in batch.order.tolist()]
    # groups: one per (token, list pair), numbered 0.. within each list pair
    groups = {(doc[k], t) for k, t in flat}
    assert runs.group_first.size == len(groups)
    seen: dict[tuple[int, str], int] = {}
    for text, start, group in zip(
        runs.run_text.tolist(), runs.start.tolist(), runs.run_group.tolist(), strict=True
    ):
        token = token_of[int(batch.order[start])]
        assert seen.setdefault((doc[text], token), group) == group
        assert runs.group_doc[group] == doc[text]
        assert token_of[int(runs.group_token[group])] == token
    assert len(set(seen.values())) == len(groups)
    per_doc = Counter(d for d, _ in groups)
    assert runs.n_slots.tolist() == [per_doc[d] for d in range(len(pairs))]
    for d in range(len(pairs)):
        slots = sorted(int(runs.slot[g]) for (e, _), g in seen.items() if e == d)
        assert slots == list(range(per_doc[d]))
    assert batch.sizes.tolist() == [len(tokens(t)) for t in texts]


@given(st.lists(st.sets(st.integers(0, 191), max_size=40), max_size=6))
def test_bitsets_set_the_given_bits(rows: list[set[int]]) -> None:
    # three 64-bit words per row: bit b of row r is position 192·r + b
    bit = np.array([192 * r + b for r, row in enumerate(rows) for b in row], dtype=np.int64)
    keep = np.arange(bit.size) % 2 == 0
    plain, halved = bitsets(bit, 3 * len(rows), [np.ones(bit.size, dtype=np.bool_), keep])
    (again,) = bitsets(bit, 3 * len(rows))

    def number(words: np.ndarray, r: int) -> int:
        return sum(int(w) << (64 * k) for k, w in enumerate(words[3 * r : 3 * r + 3].tolist()))

    for r, row in enumerate(rows):
        assert number(plain, r) == number(again, r) == sum(1 << b for b in row)
    kept = bit[keep].tolist()
    for r in range(len(rows)):
        assert number(halved, r) == sum(1 << (b - 192 * r) for b in kept if b // 192 == r)


@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(1, 3)), max_size=5),
    st.integers(1, 3),
    st.integers(0, 2**32),
)
@settings(max_examples=200, deadline=None)
def test_shared_bits_count_common_bits_by_level(
    shapes: list[tuple[int, int, int]], levels: int, seed: int
) -> None:
    # list pairs of n predicted and m expected (empty) texts, 1, 2 or 4 words per bitset,
    # random bits: Σ_b 2^b · popcount(left_i AND plane_b_j) for every cell, pairs in order
    pairs = [([""] * n, [""] * m) for n, m, _ in shapes]
    batch = BatchTokens.of(pairs)
    words = np.array([1 << (w - 1) for _, _, w in shapes], dtype=np.int64)
    first, n_words = text_words(batch, words)
    gen = np.random.default_rng(seed)
    planes = [gen.integers(0, 2**64, size=n_words, dtype=np.uint64) for _ in range(levels)]
    got = shared_bits(batch, words, first, planes[0], planes).tolist()
    expected = []
    text = 0
    for d, (n, m, _) in enumerate(shapes):
        w = int(words[d])
        for i in range(text, text + n):
            for j in range(text + n, text + n + m):
                total = 0
                for b, plane in enumerate(planes):
                    for k in range(w):
                        both = int(planes[0][first[i] + k]) & int(plane[first[j] + k])
                        total += bin(both).count("1") << b
                expected.append(total)
        text += n + m
    assert got == expected
    assert popcount(planes[0]).tolist() == [bin(int(v)).count("1") for v in planes[0]]


@pytest.mark.parametrize("wide_first", [False, True])
def test_list_pairs_without_cells_of_another_width_at_the_end(wide_first: bool) -> None:
    # the last list pairs have no cells and bitsets of another width than the pairs with
    # cells: their rows are never read, but lie past the others' (a narrow one last would
    # be read beyond the end as wide rows)
    wide = " ".join(f"w{n}" for n in range(300))
    cells = ([wide, "w2 w2"], [wide, "w1 w3"]) if wide_first else (["w1 w2", "w2 w2"], ["w2"])
    pairs = [cells, ([], [wide if not wide_first else "w1"]), (["w1 w3"], [])]
    for (pred, gold), matrix in zip(pairs, token_f1_matrices(pairs), strict=True):
        assert matrix.tobytes() == token_f1_matrix(pred, gold).tobytes()
    cov = coverage_matrices(pairs)
    assert [m.shape for m in cov] == [(2, len(cells[1])), (0, 1), (1, 0)]
    assert cov[0].tolist() == [[coverage(g, p) for g in cells[1]] for p in cells[0]]
