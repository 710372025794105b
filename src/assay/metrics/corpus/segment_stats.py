"""chrF and BLEU per-segment statistics of whole systems at once (sacrebleu's, exactly).

The same numbers as sacrebleu's ``_compute_segment_statistics`` segment by segment, with its
preprocessing (:mod:`assay.metrics.corpus.options`: lowercasing; the BLEU tokenizer, 13a
by the equivalent :func:`~assay.metrics.corpus.tokenize13a.tokenize_13a`; chrF's punctuation
splitter) and n-gram counts done for every segment and system together by
:mod:`assay.metrics.corpus.ngrams`:

* chrF: per order ``[hyp if ref else 0, ref, Σ min(hyp, ref)]`` against each reference, and the
  reference whose segment chrF is highest (the first on a tie, as sacrebleu's strict ``>``);
* BLEU: ``[len_hyp, closest len_ref, Σ min(hyp, max over refs)…, Σ hyp…]``, the closest
  reference length breaking ties towards the shorter one.

``references[i]`` are segment i's references; every segment given must have at least one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain

import numpy as np
from numpy.typing import NDArray

from assay.metrics.corpus.ngrams import (
    IntArray,
    OrderCounts,
    Sequences,
    char_sequences,
    order_counts,
    token_sequences,
)
from assay.metrics.corpus.options import BleuOptions, ChrfOptions

FloatArray = NDArray[np.float64]


def _reference_streams(
    references: Sequence[Sequence[str]],
) -> tuple[list[list[str]], NDArray[np.bool_]]:
    """References as J aligned streams ("" where a segment has fewer) and the presence mask."""
    if any(not refs for refs in references):
        raise ValueError("every segment needs at least one reference")
    width = max((len(r) for r in references), default=0)
    streams = [[refs[j] if j < len(refs) else "" for refs in references] for j in range(width)]
    present = np.asarray(
        [[j < len(refs) for refs in references] for j in range(width)], dtype=bool
    ).reshape(width, len(references))
    return streams, present


def _check(systems: Sequence[Sequence[str]], references: Sequence[Sequence[str]]) -> None:
    for hyps in systems:
        if len(hyps) != len(references):
            raise ValueError(f"{len(hyps)} hypotheses but {len(references)} reference sets")


def chrf_statistics(
    scorer: ChrfOptions, systems: Sequence[Sequence[str]], references: Sequence[Sequence[str]]
) -> list[FloatArray]:
    """Each system's (S, 3 · order) chrF statistics against its best reference per segment."""
    _check(systems, references)
    s_count = len(references)
    ref_streams, present = _reference_streams(references)
    j_count = len(ref_streams)
    texts = [[scorer.preprocess(x) for x in stream] for stream in ref_streams]
    texts += [[scorer.preprocess(x) for x in hyps] for hyps in systems]
    chars = texts if scorer.whitespace else [["".join(x.split()) for x in s] for s in texts]
    orders: Iterator[OrderCounts] = order_counts(char_sequences(chars), scorer.char_order)
    del chars
    if scorer.word_order > 0:
        words = token_sequences([[scorer.words(x) for x in s] for s in texts])
        orders = chain(orders, order_counts(words, scorer.word_order))
    del texts
    # stats[h, j]: system h against reference j, (S, 3 · order); one order's counts alive at a
    # time (all of them at once were ~90% of the peak memory)
    h_count = len(systems)
    n_orders = scorer.char_order + scorer.word_order
    stats = np.zeros((h_count, j_count, s_count, 3 * n_orders), dtype=np.int64)
    for o, oc in enumerate(orders):
        hyp_counts = oc.counts[:, j_count:]
        hyp = oc.per_segment(hyp_counts).T  # (H, S)
        for j in range(j_count):
            ref = oc.per_segment(oc.counts[:, j])
            match = oc.per_segment(np.minimum(hyp_counts, oc.counts[:, j : j + 1])).T
            stats[:, j, :, 3 * o] = np.where(ref > 0, hyp, 0)
            stats[:, j, :, 3 * o + 1] = ref
            stats[:, j, :, 3 * o + 2] = match
    out = []
    rows = np.arange(s_count)
    for h in range(len(systems)):
        f = np.stack([chrf_f_score(scorer, stats[h, j]) for j in range(j_count)])
        best = np.argmax(np.where(present, f, -np.inf), axis=0)  # first maximum: strict ">"
        out.append(stats[h, best, rows].astype(np.float64))
    return out


def chrf_f_score(scorer: ChrfOptions, stats: IntArray) -> FloatArray:
    """sacrebleu's chrF segment F-score (``CHRF._compute_f_score``) of each row of (S, 3 · order).

    The same float operations in the same order, so the choice of reference is the same.
    """
    eps = 1e-16
    factor = scorer.beta**2
    s_count = stats.shape[0]
    score = np.zeros(s_count)
    avg_prec = np.zeros(s_count)
    avg_rec = np.zeros(s_count)
    effective = np.zeros(s_count, dtype=np.int64)
    values = stats.astype(np.float64)
    for i in range(scorer.order):
        n_hyp, n_ref, n_match = values[:, 3 * i], values[:, 3 * i + 1], values[:, 3 * i + 2]
        prec = np.where(n_hyp > 0, n_match / np.where(n_hyp > 0, n_hyp, 1.0), eps)
        rec = np.where(n_ref > 0, n_match / np.where(n_ref > 0, n_ref, 1.0), eps)
        denom = factor * prec + rec
        safe = np.where(denom > 0, denom, 1.0)
        score += np.where(denom > 0, (1 + factor) * prec * rec / safe, eps)
        both = (n_hyp > 0) & (n_ref > 0)
        avg_prec = np.where(both, avg_prec + prec, avg_prec)
        avg_rec = np.where(both, avg_rec + rec, avg_rec)
        effective += both
    if scorer.eps_smoothing:
        return 100 * score / scorer.order
    some = effective > 0
    divisor = np.where(some, effective, 1)
    avg_prec = np.where(some, avg_prec / divisor, 0.0)
    avg_rec = np.where(some, avg_rec / divisor, 0.0)
    total = avg_prec + avg_rec
    f = (1 + factor) * avg_prec * avg_rec
    f = f / np.where(total != 0, factor * avg_prec + avg_rec, 1.0)
    return np.where(total != 0, 100 * f, 0.0)


def bleu_statistics(
    scorer: BleuOptions, systems: Sequence[Sequence[str]], references: Sequence[Sequence[str]]
) -> list[FloatArray]:
    """Each system's (S, 2 + 2 · max order) BLEU statistics against all its references."""
    _check(systems, references)
    s_count = len(references)
    ref_streams, present = _reference_streams(references)
    j_count = len(ref_streams)
    tokenize = scorer.preprocess
    streams = [[tokenize(x).split() for x in s] for s in ref_streams]
    streams += [[tokenize(x).split() for x in hyps] for hyps in systems]
    seqs: Sequences = token_sequences(streams)
    n_max = scorer.max_ngram_order
    width = 2 + 2 * n_max
    out = [np.zeros((s_count, width), dtype=np.int64) for _ in systems]
    for n, oc in enumerate(order_counts(seqs, n_max)):
        clip = oc.counts[:, :j_count].max(axis=1, keepdims=True)
        hyp_counts = oc.counts[:, j_count:]
        correct = oc.per_segment(np.minimum(hyp_counts, clip))
        total = oc.per_segment(hyp_counts)
        for h, block in enumerate(out):
            block[:, 2 + n] = correct[:, h]
            block[:, 2 + n_max + n] = total[:, h]
    ref_lens = seqs.lengths[:j_count]
    for h, block in enumerate(out):
        hyp_len = seqs.lengths[j_count + h]
        block[:, 0] = hyp_len
        block[:, 1] = closest_reference_length(hyp_len, ref_lens, present)
    return [block.astype(np.float64) for block in out]


def closest_reference_length(
    hyp_len: IntArray, ref_lens: IntArray, present: NDArray[np.bool_]
) -> IntArray:
    """Per segment, the present reference length closest to ``hyp_len`` (the shorter on a tie)."""
    scale = int(ref_lens.max(initial=0)) + 1
    rank = np.abs(hyp_len[None, :] - ref_lens) * scale + ref_lens  # (diff, len) lexicographic
    rank = np.where(present, rank, np.iinfo(np.int64).max)
    best: IntArray = rank.min(axis=0) % scale
    return best
