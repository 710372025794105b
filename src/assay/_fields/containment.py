"""Containment fields (seed 000 §3): the share of the expected text's tokens the prediction covers.

For verbatim-clause fields whose label is one sentence of a longer passage: returning the expected
sentence plus riders and citations scores 1.0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay._fields._batch_tokens import (
    BatchTokens,
    bitsets,
    shared_bits,
    text_words,
    word_counts,
)
from assay._fields._text import (
    STOPWORD_KEYS,
    as_text,
    coverage,
    is_blank,
    tokens,
)
from assay._fields.result import FieldScore
from assay._fields.settings import DEFAULT_FIELD_SETTINGS, FieldSettings


def score_containment_field(
    pred: Any, gold: Any, settings: FieldSettings = DEFAULT_FIELD_SETTINGS
) -> FieldScore:
    """|{expected content tokens (stopwords removed, with repeats)} ∩ prediction tokens| /
    |expected content tokens|; an expected text of stopwords only uses all its tokens."""
    if is_blank(pred):
        return FieldScore(float(is_blank(gold)), "no prediction", "containment")
    value = coverage(as_text(gold), as_text(pred))
    if value is None:
        return FieldScore(
            float(not tokens(as_text(pred))), "expected text has no tokens", "containment"
        )
    return FieldScore(value, f"{value:.0%} of expected tokens covered", "containment")


def coverage_matrix(pred: Sequence[str], gold: Sequence[str]) -> NDArray[np.float64]:
    """``coverage(gold_j, pred_i)`` for every pair (rows: predicted items), vectorized."""
    return coverage_matrices([(pred, gold)])[0]


def coverage_matrices(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]], tokens: BatchTokens | None = None
) -> list[NDArray[np.float64]]:
    """``coverage_matrix(pred, gold)`` of every list pair, computed for the batch at once;
    ``tokens``: the pairs' ``BatchTokens``, when another kernel made them already.

    coverage(g, p) = |{t in want(g), with repeats, t a token of p}| / |want(g)|, want(g) the
    content tokens of g (or all its tokens when it has only stopwords). Per list pair, one
    column per distinct token (``TokenRuns.slot``): H_i has bit t when t is a token of p_i,
    and W_j's count w_t = how often t occurs in want(g_j) is spread over bitsets by binary
    digit (plane b holds bit t when bit b of w_t is set); the numerator Σ_t H_it · w_t =
    Σ_b 2^b · popcount(H_i AND W_j,b) is a whole number, so the ratios are exact. An expected
    item without tokens is covered (1.0) only by a prediction without tokens. The tokens of
    the whole batch are grouped once (``BatchTokens``), never a Python object per token.

    Twin: ``coverage`` pair by pair, bit for bit (``_plain_coverage_matrix`` in
    tests/fields/test_fields_batch.py). 9.6x it on 64 benchmark documents' obligation lists
    (9.5 vs 90.6 ms). Why: the span rule of every free-text list and the containment lists;
    per document 1.05 → 0.30 ms when batched (commit 1f4b8c6; a 1,000-document run's peak
    RSS 358 → 260 MiB), then bitsets shared with token F1 (cbd1644).
    """
    sizes = [(len(p), len(g)) for p, g in pairs]
    if not any(n * m for n, m in sizes):
        return [np.zeros(size, dtype=np.float64) for size in sizes]
    t = tokens if tokens is not None else BatchTokens.of(pairs)
    runs, cells = t.runs, t.cells
    length, run_text = runs.length, runs.run_text
    on_pred = t.is_pred.take(run_text)
    # the expected side: the content tokens with repeats, or all tokens of a text without any
    stop = runs.group_is_word(t.keys, STOPWORD_KEYS)
    if stop.any():
        run_stop = stop[runs.run_group]
        n_content = np.bincount(run_text, weights=length * ~run_stop, minlength=t.doc.size)
        wanted = ~on_pred & (~run_stop | (n_content[run_text] == 0))
        want_len = np.bincount(
            run_text[wanted], weights=length[wanted], minlength=t.doc.size
        ).astype(np.float64)
    else:
        wanted = ~on_pred
        want_len = t.sizes.astype(np.float64)
    # one column per (token, list pair); a predicted text's bit: it holds the token; an
    # expected text's count of it, bit b of it in the b-th expected bitset
    words = word_counts(runs.n_slots)
    first, n_words = text_words(t, words)
    bit = 64 * first.take(run_text) + runs.slot.take(runs.run_group)
    planes = bitsets(bit, n_words, [on_pred | (wanted & (length & 1 == 1))])
    # the higher binary digits: only the expected runs of two or more tokens have them
    multi = np.flatnonzero(wanted & (length > 1))
    if multi.size:
        count = length[multi]
        digits = range(1, int(count.max()).bit_length())
        planes += bitsets(bit[multi], n_words, [(count >> d) & 1 == 1 for d in digits])
    covered = shared_bits(t, words, first, planes[0], planes)
    glen = want_len[cells.gold_text].take(cells.gold_row)
    blank = glen == 0
    if not blank.any():
        out: NDArray[np.float64] = np.divide(covered, glen)
    else:
        out = np.zeros(covered.size, dtype=np.float64)
        np.divide(covered, glen, out=out, where=~blank)
        # an expected item without tokens is covered only by a prediction without tokens
        no_tokens = (t.sizes[cells.pred_text] == 0).astype(np.float64)
        out[blank] = np.repeat(no_tokens, cells.row_len)[blank]
    ends = np.cumsum([n * m for n, m in sizes]).tolist()
    return [out[end - n * m : end].reshape(n, m) for end, (n, m) in zip(ends, sizes, strict=True)]
