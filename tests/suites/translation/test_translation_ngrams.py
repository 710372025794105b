"""The vectorized chrF/BLEU segment statistics against sacrebleu's own per-segment code."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.base import Metric
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from assay.metrics.corpus import ngrams
from assay.metrics.corpus.ngrams import char_sequences, order_counts, token_sequences
from assay.metrics.corpus.options import BleuOptions, ChrfOptions
from assay.metrics.corpus.segment_stats import (
    bleu_statistics,
    chrf_statistics,
    closest_reference_length,
)
from assay.metrics.corpus.sufficient import bleu_metric, chrf_metric, extract_systems
from assay.metrics.corpus.tokenize13a import tokenize_13a
from tests.suites.translation.wmt22 import NEEDS_WMT22, WMT22

# letters, digits, chrF's punctuation, Unicode whitespace that str.split() splits on, CJK
ALPHABET = "abcAB1 .,!?()'\"-\t\u00a0\u3000\u00e9\u00c9\u4e2d\u6587\u0130"
text = st.text(alphabet=ALPHABET, max_size=30)


def sacrebleu_rows(
    scorer: Metric, systems: Sequence[Sequence[str]], references: Sequence[Sequence[str]]
) -> list[np.ndarray]:
    """sacrebleu's per-segment statistics, the way its corpus_score extracts them."""
    width = max(len(r) for r in references)
    streams = [[r[j] if j < len(r) else None for r in references] for j in range(width)]
    cache = scorer._cache_references(streams)  # type: ignore[arg-type]
    return [
        np.asarray(
            [
                scorer._compute_segment_statistics(scorer._preprocess_segment(h), cache[i])
                for i, h in enumerate(hyps)
            ],
            dtype=np.float64,
        ).reshape(len(hyps), -1)
        for hyps in systems
    ]


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[list[str]], list[tuple[str, ...]]]:
    n = draw(st.integers(1, 6))
    refs = [tuple(draw(st.lists(text, min_size=1, max_size=3))) for _ in range(n)]
    systems = [draw(st.lists(text, min_size=n, max_size=n)) for _ in range(draw(st.integers(1, 3)))]
    # identical and near-identical hypotheses are where ties between references happen
    if draw(st.booleans()):
        systems.append([r[-1] for r in refs])
    return systems, refs


#: the same options for sacrebleu's object and for ours (assay.metrics.corpus.options)
CHRF_VARIANTS: list[dict[str, object]] = [
    {"word_order": 2},
    {},
    {"word_order": 2, "lowercase": True, "eps_smoothing": True},
    {"char_order": 4, "word_order": 3, "beta": 1, "whitespace": True},
]
BLEU_VARIANTS: list[dict[str, object]] = [
    {},
    {"tokenize": "none", "max_ngram_order": 2},
    {"tokenize": "char", "lowercase": True},  # sacrebleu's tokenizer (the lazy fallback)
    {"tokenize": "intl", "max_ngram_order": 5},
    {"tokenize": "13a", "lowercase": True},
]


@pytest.mark.parametrize("options", CHRF_VARIANTS, ids=str)
@settings(max_examples=60, deadline=None)
@given(corpus=corpora())
def test_chrf_statistics_equal_sacrebleu(
    options: dict[str, object], corpus: tuple[list[list[str]], list[tuple[str, ...]]]
) -> None:
    systems, refs = corpus
    fast = chrf_statistics(ChrfOptions(**options), systems, refs)  # type: ignore[arg-type]
    want = sacrebleu_rows(CHRF(**options), systems, refs)  # type: ignore[arg-type]
    for got, expected in zip(fast, want, strict=True):
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("options", BLEU_VARIANTS, ids=str)
@settings(max_examples=60, deadline=None)
@given(corpus=corpora())
def test_bleu_statistics_equal_sacrebleu(
    options: dict[str, object], corpus: tuple[list[list[str]], list[tuple[str, ...]]]
) -> None:
    systems, refs = corpus
    fast = bleu_statistics(BleuOptions(**options), systems, refs)  # type: ignore[arg-type]
    want = sacrebleu_rows(BLEU(**options), systems, refs)  # type: ignore[arg-type]
    for got, expected in zip(fast, want, strict=True):
        np.testing.assert_array_equal(got, expected)


def naive_counts(
    streams: Sequence[Sequence[Sequence[object]]], n: int
) -> Counter[tuple[object, ...]]:
    """(stream, segment, n-gram) → count, by definition."""
    out: Counter[tuple[object, ...]] = Counter()
    for t, stream in enumerate(streams):
        for s, seq in enumerate(stream):
            for i in range(len(seq) - n + 1):
                out[(t, s, tuple(seq[i : i + n]))] += 1
    return out


@pytest.mark.parametrize("limit", [1 << 62, 1 << 12])  # the second forces dense renumbering
@settings(max_examples=40, deadline=None)
@given(
    streams=st.integers(1, 4).flatmap(
        lambda s: st.lists(
            st.lists(st.text(alphabet="abcdefgh", max_size=12), min_size=s, max_size=s),
            min_size=1,
            max_size=4,
        )
    )
)
def test_order_counts_match_the_definition(limit: int, streams: list[list[str]]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ngrams, "_LIMIT", limit)
        orders = list(order_counts(char_sequences(streams), 5))
    for n, oc in enumerate(orders, start=1):
        want = naive_counts(streams, n)
        # every counted (segment, n-gram) row: its per-stream counts sum to the definition's
        per_segment_total = Counter[tuple[int, int]]()
        for (t, s, _), c in want.items():
            per_segment_total[(t, s)] += c
        totals = oc.per_segment(oc.counts)
        for t in range(len(streams)):
            for s in range(len(streams[0])):
                assert totals[s, t] == per_segment_total[(t, s)]
        assert len(oc.segment) == len({(s, g) for (_, s, g) in want})
        assert list(oc.segment) == sorted(oc.segment)
        # the matched mass between two streams is Σ min over shared n-grams, by definition
        if len(streams) > 1:
            got = oc.per_segment(np.minimum(oc.counts[:, 0], oc.counts[:, 1]))
            for s in range(len(streams[0])):
                grams = {g for (t, ss, g) in want if ss == s}
                expect = sum(min(want[(0, s, g)], want[(1, s, g)]) for g in grams)
                assert got[s] == expect


def test_token_sequences_give_one_id_per_distinct_token() -> None:
    seqs = token_sequences([[["b", "a", "b"], []], [["a", "c"], ["b"]]])
    assert seqs.alphabet == 3
    assert seqs.lengths.tolist() == [[3, 0], [2, 1]]
    ids = seqs.symbols.tolist()
    assert ids[0] == ids[2] == ids[5] and ids[1] == ids[3] and len(set(ids)) == 3


def test_too_many_streams_for_int64_is_an_error_not_a_wrong_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seqs = char_sequences([["abcdef"] * 4] * 3)
    monkeypatch.setattr(ngrams, "_LIMIT", 1 << 70)  # never renumber: the guard must fire
    with pytest.raises(OverflowError, match="smaller chunks"):
        list(order_counts(ngrams.Sequences(seqs.symbols, seqs.lengths, 1 << 20), 4))


def test_closest_reference_length_prefers_the_shorter_on_a_tie() -> None:
    hyp = np.asarray([5, 5, 5])
    refs = np.asarray([[4, 7, 9], [6, 5, 2]])
    present = np.asarray([[True, True, True], [True, False, True]])
    assert closest_reference_length(hyp, refs, present).tolist() == [4, 7, 2]


@pytest.mark.parametrize("key", ["chrf", "bleu"])
def test_extract_systems_equals_sacrebleu_segment_by_segment(key: str) -> None:
    """A corpus, and each of its segments alone, give sacrebleu's per-segment rows (zeros for
    a segment without a reference)."""
    metric = chrf_metric(word_order=2) if key == "chrf" else bleu_metric()
    sacre: Metric = CHRF(word_order=2) if key == "chrf" else BLEU()
    refs = [("the cat sat on the mat.",), (), ("a dog!", "the dog")] * 8
    systems = [["the cat sat.", "x", "dog"] * 8, ["", "y", "a dog!"] * 8]
    vector = extract_systems(metric, systems, refs)
    for k, hyps in enumerate(systems):
        for i in range(len(refs)):
            one = extract_systems(metric, [[hyps[i]]], [refs[i]])[0][0]
            np.testing.assert_array_equal(vector[k][i], one)
            if refs[i]:
                want = sacrebleu_rows(sacre, [[hyps[i]]], [refs[i]])[0][0]
                np.testing.assert_array_equal(one, want)
            else:
                assert not one.any()


@pytest.mark.parametrize("key", ["chrf", "bleu"])
def test_chunked_counts_equal_one_pass(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting VECTOR_CHUNK_SEGMENTS segments at a time (bounded memory) gives the numbers of
    one pass over the corpus, a segment without reference inside a chunk included."""
    from assay.metrics.corpus import sufficient

    metric = sufficient.chrf_metric() if key == "chrf" else sufficient.bleu_metric()
    refs = [("the cat sat on the mat.",), (), ("a dog!", "the dog"), ("ein Hund",)] * 6
    systems = [["the cat sat.", "x", "dog", "ein Hund"] * 6, ["", "y", "a dog!", "Hund"] * 6]
    whole = extract_systems(metric, systems, refs)
    monkeypatch.setattr(sufficient, "VECTOR_CHUNK_SEGMENTS", 5)
    chunked = extract_systems(metric, systems, refs)
    for a, b in zip(whole, chunked, strict=True):
        np.testing.assert_array_equal(a, b)


WMT = WMT22 / "cs-en"


@NEEDS_WMT22
@pytest.mark.parametrize("key", ["chrF++", "BLEU"])
def test_wmt22_two_references_equal_sacrebleu(key: str) -> None:
    def lines(p: Path) -> list[str]:
        return p.read_text(encoding="utf-8").split("\n")[:400]

    ref_b = lines(WMT / "generaltest2022.cs-en.ref.B.en")
    ref_c = lines(WMT / "generaltest2022.cs-en.ref.C.en")
    refs = [tuple(r for r in pair if r.strip()) for pair in zip(ref_b, ref_c, strict=True)]
    keep = [i for i, r in enumerate(refs) if r]
    refs = [refs[i] for i in keep]
    systems = [[lines(p)[i] for i in keep] for p in sorted(WMT.glob("*.hyp.*"))[:4]] + [
        [lines(WMT / "generaltest2022.cs-en.src.cs")[i] for i in keep]
    ]
    if key == "BLEU":
        scorer: Metric = BLEU()
        fast = bleu_statistics(BleuOptions(), systems, refs)
    else:
        scorer = CHRF(word_order=2)
        fast = chrf_statistics(ChrfOptions(word_order=2), systems, refs)
    for got, want in zip(fast, sacrebleu_rows(scorer, systems, refs), strict=True):
        np.testing.assert_array_equal(got, want)


# every character 13a treats specially, digits, newlines and its escapes' parts
TOKENIZER_TEXT = st.text(alphabet="a1 .,-{|}~[\\]^_`!\"#$%&()*+:;<=>?@/'\n\t\u00a0é", max_size=40)


@settings(max_examples=500, deadline=None)
@given(
    line=st.one_of(
        TOKENIZER_TEXT,
        st.lists(
            st.sampled_from(["&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "-\n", "9", "x.", " "])
        ).map("".join),
    )
)
def test_tokenize_13a_equals_sacrebleu(line: str) -> None:
    assert tokenize_13a(line) == Tokenizer13a()(line)


@NEEDS_WMT22
def test_tokenize_13a_equals_sacrebleu_on_every_wmt22_line() -> None:
    sacre = Tokenizer13a()
    for path in sorted(WMT.parent.glob("*/*.*")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            assert tokenize_13a(line.rstrip()) == sacre(line.rstrip()), (path, line)
