"""Containment fields (seed 000 §3): the share of the expected text's tokens the prediction covers.

For verbatim-clause fields whose label is one sentence of a longer passage: returning the expected
sentence plus riders and citations scores 1.0.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, count
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay.fields._text import (
    as_text,
    content_tokens,
    coverage,
    is_blank,
    key_pairs,
    token_set,
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
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
) -> list[NDArray[np.float64]]:
    """``coverage_matrix(pred, gold)`` of every list pair, computed for the batch at once.

    coverage(g, p) = |{t in want(g), with repeats, t a token of p}| / |want(g)|, want(g) the
    content tokens of g (or all its tokens when it has only stopwords): one join of every
    list pair's expected-token occurrences with its predicted texts' distinct tokens on
    (list pair, token) counts the numerators, whole numbers, so the ratios are exact. An
    expected item without tokens is covered (1.0) only by a prediction without tokens.
    """
    sizes = [(len(p), len(g)) for p, g in pairs]
    cells = np.array([n * m for n, m in sizes], dtype=np.int64)
    cell_start = np.cumsum(cells) - cells
    total = int(cells.sum())
    if not total:
        return [np.zeros(size, dtype=np.float64) for size in sizes]
    pred = [x for p, _ in pairs for x in p]
    gold = [x for _, g in pairs for x in g]
    want = [content_tokens(g) or tokens(g) for g in gold]
    have = [token_set(p) for p in pred]
    n_of = np.array([n for n, _ in sizes], dtype=np.int64)
    m_of = np.array([m for _, m in sizes], dtype=np.int64)
    p_doc = np.repeat(np.arange(len(pairs), dtype=np.int64), n_of)
    g_doc = np.repeat(np.arange(len(pairs), dtype=np.int64), m_of)
    p_row = np.arange(len(pred), dtype=np.int64) - (np.cumsum(n_of) - n_of)[p_doc]
    g_col = np.arange(len(gold), dtype=np.int64) - (np.cumsum(m_of) - m_of)[g_doc]
    p_len = np.fromiter(map(len, have), dtype=np.int64, count=len(have))
    g_len = np.fromiter(map(len, want), dtype=np.int64, count=len(want))
    p_text = np.repeat(np.arange(len(pred), dtype=np.int64), p_len)
    g_text = np.repeat(np.arange(len(gold), dtype=np.int64), g_len)
    vocab: dict[str, int] = {}
    ids = np.fromiter(
        map(vocab.setdefault, chain(chain.from_iterable(have), chain.from_iterable(want)), count()),
        dtype=np.int64,
        count=int(p_len.sum() + g_len.sum()),
    )
    # a key is one (list pair, token): texts of different list pairs never meet
    keys = np.concatenate([p_doc[p_text], g_doc[g_text]]) * max(ids.size, 1) + ids
    _, key = np.unique(keys, return_inverse=True)
    left, right = key_pairs(key[: p_text.size], key[p_text.size :], int(key.max(initial=-1)) + 1)
    i, j = p_text[left], g_text[right]
    flat = cell_start[p_doc[i]] + p_row[i] * m_of[p_doc[i]] + g_col[j]
    covered = np.bincount(flat, minlength=total).astype(np.float64)
    # each cell's expected item and predicted item, cell order
    cell_doc = np.repeat(np.arange(len(pairs), dtype=np.int64), cells)
    local = np.arange(total, dtype=np.int64) - cell_start[cell_doc]
    cell_g = (np.cumsum(m_of) - m_of)[cell_doc] + local % np.maximum(m_of[cell_doc], 1)
    cell_p = (np.cumsum(n_of) - n_of)[cell_doc] + local // np.maximum(m_of[cell_doc], 1)
    glen = g_len[cell_g].astype(np.float64)
    out = np.zeros(total, dtype=np.float64)
    np.divide(covered, glen, out=out, where=glen > 0)
    # an expected item without tokens is covered only by a prediction without tokens
    no_tokens = np.fromiter((not tokens(p) for p in pred), dtype=np.bool_, count=len(pred))
    blank = glen == 0
    out[blank] = no_tokens[cell_p[blank]]
    return [
        out[start : start + n * m].reshape(n, m)
        for start, (n, m) in zip(cell_start.tolist(), sizes, strict=True)
    ]
