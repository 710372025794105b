"""Free-text fields (seed 000 §3): SQuAD-style token F1 over lowercase token multisets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay._fields._batch_tokens import (
    BatchTokens,
    TokenRuns,
    bitsets,
    shared_bits,
    text_words,
    word_counts,
)
from assay._fields._text import (
    ARTICLE_KEYS,
    as_text,
    is_blank,
    multiset_overlap,
    squad_tokens,
    token_count_matrix,
    token_f1,
)
from assay._fields.embedding import Embedder, rescue
from assay._fields.result import FieldScore
from assay._fields.settings import DEFAULT_FIELD_SETTINGS, FieldSettings


def score_free_text_field(
    pred: Any,
    gold: Any,
    settings: FieldSettings = DEFAULT_FIELD_SETTINGS,
    *,
    embedder: Embedder | None = None,
) -> FieldScore:
    """Token F1 = 2·P·R/(P+R), P = overlap/|pred tokens|, R = overlap/|gold tokens| (multisets,
    articles and punctuation removed as in SQuAD); embedding rescue below 0.7 when given."""
    if is_blank(pred):
        return FieldScore(float(is_blank(gold)), "no prediction", "free_text")
    ptext, gtext = as_text(pred), as_text(gold)
    f1 = token_f1(ptext, gtext)
    score, rescued = rescue(f1, ptext, gtext, embedder, settings)
    if rescued:
        return FieldScore(score, f"embedding cosine {score:.3f} (token F1 {f1:.3f})", "free_text")
    return FieldScore(f1, f"token F1 {f1:.3f}", "free_text")


def token_f1_matrix(pred: Sequence[str], gold: Sequence[str]) -> NDArray[np.float64]:
    """Token F1 = 2·overlap / (|p| + |g|) of every (predicted, expected) pair, the multiset
    overlap from token-count matrices (``multiset_overlap``).

    Twin: the formula pair by pair, and ``token_f1``, bit for bit
    (``test_token_f1_matrix_equals_its_definition``): both compute the correctly rounded
    2·overlap / (|p| + |g|), so no decision on a threshold differs between them (9 shared
    tokens of 13 and 17 are 0.6 in both, on the default ``bipartite_match_threshold``:
    ``test_token_f1_and_its_matrix_decide_alike_on_the_match_threshold``; until issue 34
    ``token_f1`` rounded SQuAD's 2PR/(P+R), 0.5999999999999999 there). 10x ``token_f1`` per
    cell (17.5 vs 176 ms, 64 benchmark documents' obligation lists).
    """
    if not pred or not gold:
        return np.zeros((len(pred), len(gold)))
    toks = [squad_tokens(x) for x in (*pred, *gold)]
    counts = token_count_matrix(toks)
    overlap = multiset_overlap(counts[: len(pred)], counts[len(pred) :])
    lengths = np.fromiter(map(len, toks), dtype=np.int64, count=len(toks)).astype(np.float64)
    total = lengths[: len(pred), None] + lengths[None, len(pred) :]
    # both empty: total 0 and overlap 0, so (2·0 + 1) / (0 + 1) = 1.0; elsewhere + 0.0 is exact
    empty = total == 0
    out: NDArray[np.float64] = (2.0 * overlap + empty) / (total + empty)
    return out


FloatMatrix = NDArray[np.float64]


def token_f1_matrices(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]], tokens: BatchTokens | None = None
) -> list[FloatMatrix]:
    """``[token_f1_matrix(p, g) for p, g in pairs]`` bit for bit, computed for the whole batch
    at once: a fixed number of numpy calls, none per pair (``_batch_f1``). ``tokens``: the
    pairs' ``BatchTokens``, when another kernel made them already.

    Twin: that comprehension (tests/fields/test_fields_batch.py,
    ``test_batch_equals_single_matrices``). 1.9x it on 64 benchmark documents (9.3 vs
    17.7 ms); with coverage on the same tokens, extraction's free-text lists 181 → 97 ms per
    1,000 documents (commit cbd1644).
    """
    npred = np.fromiter((len(p) for p, _ in pairs), dtype=np.int64, count=len(pairs))
    ngold = np.fromiter((len(g) for _, g in pairs), dtype=np.int64, count=len(pairs))
    blocks = np.concatenate(([0], np.cumsum(npred * ngold))).tolist()
    if blocks[-1]:
        out = _batch_f1(tokens if tokens is not None else BatchTokens.of(pairs))
    else:
        out = np.zeros(0, dtype=np.float64)
    return [
        out[blocks[d] : blocks[d + 1]].reshape(len(p), len(g)) for d, (p, g) in enumerate(pairs)
    ]


def _batch_f1(tokens: BatchTokens) -> FloatMatrix:
    """Token F1 = 2·overlap / (|p| + |g|) (both empty → 1.0) of every document's (predicted,
    expected) cell, documents in order, each row-major.

    Each text is a bitset over its document's occurrence columns (``_occurrence_columns``);
    a cell's overlap is the popcount of the AND of its two bitsets.
    """
    runs = tokens.runs
    article = runs.group_is_word(tokens.keys, ARTICLE_KEYS)  # SQuAD drops the articles
    offset, columns = _occurrence_columns(runs, article, tokens.npred.size)
    words = word_counts(columns)
    first, n_words = text_words(tokens, words)
    # a token's bit: its text's first bit + its group's offset + its rank in its run (the
    # token at index x of a run starting at s is its (x - s)-th occurrence in its text)
    bit = np.arange(runs.text.size, dtype=np.int64) + np.repeat(
        64 * first.take(runs.run_text) + offset.take(runs.run_group) - runs.start, runs.length
    )
    size = tokens.sizes
    if article.any():
        bit = bit[~np.repeat(article[runs.run_group], runs.length)]
        size = size - np.bincount(
            runs.run_text, weights=runs.length * article[runs.run_group], minlength=size.size
        ).astype(np.int64)
    (bits,) = bitsets(bit, n_words)
    overlap = shared_bits(tokens, words, first, bits, [bits])
    cells = tokens.cells
    size_f = size.astype(np.float64)
    total = np.repeat(size_f[cells.pred_text], cells.row_len)
    total += size_f[cells.gold_text].take(cells.gold_row)
    # 2·overlap is exact in integers; x + 0.0 is x: with no empty cell, (2·overlap + empty) /
    # (total + empty) is 2·overlap / total bit for bit
    overlap *= 2
    if not _empty_cells(tokens, size):
        result: FloatMatrix = np.divide(overlap, total)
        return result
    # both empty: total 0 and overlap 0, so (2·0 + 1) / (0 + 1) = 1.0; elsewhere + 0.0 is exact
    empty = total == 0
    result = (overlap + empty) / (total + empty)
    return result


def _empty_cells(tokens: BatchTokens, size: NDArray[np.int64]) -> bool:
    """Whether some list pair has a predicted and an expected text both of ``size`` 0."""
    empty = size == 0
    pred = np.bincount(tokens.doc, weights=empty & tokens.is_pred, minlength=tokens.npred.size)
    gold = np.bincount(tokens.doc, weights=empty & ~tokens.is_pred, minlength=pred.size)
    return bool(((pred > 0) & (gold > 0)).any())


def _occurrence_columns(
    runs: TokenRuns, skip: NDArray[np.bool_], ndoc: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Each group's first column within its document, and each document's number of
    columns, over the groups (token, document) not skipped: the k-th occurrence of a token
    in a text is a column (token, k) of the text's document, so the multiset overlap of two
    texts, Σ_t min(count_t, count'_t), is the number of columns they share. A group takes as
    many columns as its longest run (the most occurrences in one text); a document's groups
    lie end to end."""
    depth = np.maximum.reduceat(runs.length, runs.group_first)
    if skip.any():
        depth[skip] = 0
    columns = np.bincount(runs.group_doc, weights=depth, minlength=ndoc).astype(np.int64)
    by_doc = runs.by_doc
    placed = depth[by_doc]
    offset = np.empty_like(depth)
    offset[by_doc] = (
        np.cumsum(placed) - placed - (np.cumsum(columns) - columns)[runs.group_doc[by_doc]]
    )
    return offset, columns
