"""The vectorized finalizes equal sacrebleu's corpus_score, on random text and edge cases."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU, CHRF, TER

from assay.metrics.corpus.sufficient import CorpusMetric
from assay.suites.translation import bleu_metric, chrf_metric, extract_statistics, ter_metric

WORDS = ["the", "cat", "sat", "on", "a", "mat", ".", ",", "dog", "Der", "Hund", "ß", "日本", "!"]
sentence = st.lists(st.sampled_from(WORDS), min_size=0, max_size=12).map(" ".join)


def ours(metric: CorpusMetric, hyps: list[str], refs: list[tuple[str, ...]]) -> float:
    stats = extract_statistics(metric, hyps, refs)
    present = np.asarray([[1.0 if r else 0.0] for r in refs])
    spec = metric.spec("")
    return float(spec.finalize(np.hstack([stats, present]).sum(axis=0)))


def theirs(sb: object, hyps: list[str], refs: list[tuple[str, ...]]) -> float:
    streams = [[r[j] for r in refs] for j in range(len(refs[0]))]
    return float(sb.corpus_score(hyps, streams).score)  # type: ignore[attr-defined]


CONFIGS = [
    (bleu_metric(), BLEU()),
    (bleu_metric(smooth_method="floor"), BLEU(smooth_method="floor")),
    (bleu_metric(smooth_method="add-k"), BLEU(smooth_method="add-k")),
    (bleu_metric(smooth_method="none"), BLEU(smooth_method="none")),
    (bleu_metric(effective_order=True), BLEU(effective_order=True)),
    (bleu_metric(tokenize="intl", lowercase=True), BLEU(tokenize="intl", lowercase=True)),
    (chrf_metric(), CHRF(word_order=2)),
    (chrf_metric(word_order=0), CHRF()),
    (chrf_metric(eps_smoothing=True), CHRF(word_order=2, eps_smoothing=True)),
    (chrf_metric(beta=1, lowercase=True), CHRF(word_order=2, beta=1, lowercase=True)),
    (ter_metric(), TER()),
    (ter_metric(case_sensitive=True, no_punct=True), TER(case_sensitive=True, no_punct=True)),
]
IDS = [f"{m.key}-{i}" for i, (m, _) in enumerate(CONFIGS)]


@pytest.mark.parametrize(("metric", "sb"), CONFIGS, ids=IDS)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_corpus_score_equals_sacrebleu(
    metric: CorpusMetric, sb: object, data: st.DataObject
) -> None:
    n = data.draw(st.integers(1, 6))
    n_refs = data.draw(st.integers(1, 3))
    hyps = data.draw(st.lists(sentence, min_size=n, max_size=n))
    refs = [
        tuple(data.draw(st.lists(sentence.filter(str.strip), min_size=n_refs, max_size=n_refs)))
        for _ in range(n)
    ]
    assert ours(metric, hyps, refs) == pytest.approx(theirs(sb, hyps, refs), abs=1e-9)


@pytest.mark.parametrize(("metric", "sb"), CONFIGS, ids=IDS)
@pytest.mark.parametrize(
    ("hyps", "refs"),
    [
        (["", ""], [("the cat",), ("a dog",)]),  # empty hypotheses
        (["x y z", "q"], [("the cat sat",), ("a dog",)]),  # zero matches
        (["the", "cat"], [("the",), ("cat",)]),  # no 2-grams at all
        (["the cat sat on the mat"], [("the cat sat on the mat",)]),  # perfect
        (["the cat"], [("the cat sat on the mat today",)]),  # brevity penalty
    ],
    ids=["empty", "no-match", "unigram-only", "perfect", "short"],
)
def test_edge_cases(
    metric: CorpusMetric, sb: object, hyps: list[str], refs: list[tuple[str, ...]]
) -> None:
    assert ours(metric, hyps, refs) == pytest.approx(theirs(sb, hyps, refs), abs=1e-9)


@pytest.mark.parametrize(("metric", "sb"), CONFIGS[:1] + CONFIGS[6:7] + CONFIGS[10:11])
def test_finalize_is_vectorized_over_resamples(metric: CorpusMetric, sb: object) -> None:
    """A (B, k) matrix of resampled sums gives B scores, each equal to its own row's score."""
    rng = np.random.default_rng(1)
    hyps = [" ".join(rng.choice(WORDS, 8)) for _ in range(30)]
    refs = [(" ".join(rng.choice(WORDS, 8)),) for _ in range(30)]
    rows = np.hstack([extract_statistics(metric, hyps, refs), np.ones((30, 1))])
    weights = rng.multinomial(30, np.full(30, 1 / 30), size=40).astype(float)
    spec = metric.spec("")
    batch = spec.finalize(weights @ rows)
    for b in range(40):
        picked = [i for i in range(30) for _ in range(int(weights[b, i]))]
        expected = theirs(sb, [hyps[i] for i in picked], [refs[i] for i in picked])
        assert batch[b] == pytest.approx(expected, abs=1e-9)


def test_no_reference_segments_are_zero_rows_and_empty_is_undefined() -> None:
    metric = chrf_metric()
    stats = extract_statistics(metric, ["a b", "the cat"], [(), ("the cat",)])
    assert not stats[0].any()
    spec = metric.spec("")
    assert np.isnan(spec.finalize(np.zeros(len(spec.columns))))


def test_variable_reference_counts_match_sacrebleu_none_padding() -> None:
    hyps = ["the cat sat", "a dog on a mat"]
    refs = [("the cat sat on the mat", "a cat sat"), ("a dog sat on the mat",)]
    sb = BLEU()
    expected = sb.corpus_score(hyps, [[refs[0][0], refs[1][0]], [refs[0][1], None]]).score
    assert ours(bleu_metric(), hyps, refs) == pytest.approx(expected, abs=1e-9)
