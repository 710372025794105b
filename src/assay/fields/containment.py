"""Containment fields (seed 000 §3): the share of the expected text's tokens the prediction covers.

For verbatim-clause fields whose label is one sentence of a longer passage: returning the expected
sentence plus riders and citations scores 1.0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay.fields._batch_tokens import BatchTokens
from assay.fields._order import unique_inverse
from assay.fields._text import (
    STOPWORD_KEYS,
    as_text,
    coverage,
    is_blank,
    is_word,
    keys_without,
    tokens,
)
from assay.fields.result import FieldScore
from assay.fields.settings import DEFAULT_FIELD_SETTINGS, FieldSettings


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
    content tokens of g (or all its tokens when it has only stopwords). Per list pair, over
    its own vocabulary: H[i, t] = 1 when t is a token of p_i, W[j, t] = how often t occurs in
    want(g_j); the numerators are the product H · Wᵀ, sums of whole numbers, so the ratios
    are exact. An expected item without tokens is covered (1.0) only by a prediction without
    tokens. The tokens of the whole batch are integer ids (``BatchTokens``), never a Python
    object per token, and H and W of every list pair are filled by one scatter each.
    """
    sizes = [(len(p), len(g)) for p, g in pairs]
    if not any(n * m for n, m in sizes):
        return [np.zeros(size, dtype=np.float64) for size in sizes]
    t = tokens if tokens is not None else BatchTokens.of(pairs)
    n_of, m_of = t.npred, t.ngold
    n_pred, n_gold = int(n_of.sum()), int(m_of.sum())
    p_first, g_first = np.cumsum(n_of) - n_of, np.cumsum(m_of) - m_of
    keys, width = t.keys, t.n_ids
    on_pred = t.is_pred[keys.text]
    token_doc, token_row = t.doc[keys.text], t.row[keys.text]
    p_row, p_ids, pd = token_row[on_pred], t.ids[on_pred], token_doc[on_pred]
    p_count = np.bincount(p_row, minlength=n_pred)
    # the expected side: the content tokens with repeats, or all tokens of a text without any
    on_gold = ~on_pred
    g_all = token_row[on_gold]
    content = ~is_word(keys_without(keys, on_pred), STOPWORD_KEYS)
    n_content = np.bincount(g_all[content], minlength=n_gold)
    wanted = content | (n_content[g_all] == 0)
    g_row, g_ids, gd = g_all[wanted], t.ids[on_gold][wanted], token_doc[on_gold][wanted]
    g_len = np.bincount(g_row, minlength=n_gold).astype(np.float64)
    # each list pair's vocabulary: its distinct tokens, numbered from 0 in each pair
    p_key, g_key = pd * width + p_ids, gd * width + g_ids
    vocab, column = unique_inverse(np.concatenate([p_key, g_key]), len(pairs) * width)
    v_of = np.bincount(vocab // width, minlength=len(pairs))
    column -= (np.cumsum(v_of) - v_of)[np.concatenate([pd, gd])]
    # H and W of every list pair laid end to end, row-major (H: 0/1, a token seen twice is 1)
    h_start, w_start = np.cumsum(n_of * v_of) - n_of * v_of, np.cumsum(m_of * v_of) - m_of * v_of
    h = np.zeros(int((n_of * v_of).sum()), dtype=np.float64)
    h[h_start[pd] + (p_row - p_first[pd]) * v_of[pd] + column[: p_row.size]] = 1.0
    w = np.bincount(
        w_start[gd] + (g_row - g_first[gd]) * v_of[gd] + column[p_row.size :],
        minlength=int((m_of * v_of).sum()),
    ).astype(np.float64)
    out = []
    for d, (n, m) in enumerate(sizes):
        v, p0, g0 = int(v_of[d]), int(p_first[d]), int(g_first[d])
        hd = h[int(h_start[d]) : int(h_start[d]) + n * v].reshape(n, v)
        wd = w[int(w_start[d]) : int(w_start[d]) + m * v].reshape(m, v)
        covered = hd @ wd.T
        glen = g_len[g0 : g0 + m]
        matrix = np.zeros((n, m), dtype=np.float64)
        np.divide(covered, glen, out=matrix, where=glen > 0)
        blank = glen == 0
        if blank.any():
            # an expected item without tokens is covered only by a prediction without tokens
            matrix[:, blank] = (p_count[p0 : p0 + n] == 0)[:, None]
        out.append(matrix)
    return out
