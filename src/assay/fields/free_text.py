"""Free-text fields (seed 000 §3): SQuAD-style token F1 over lowercase token multisets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay.fields._batch_tokens import BatchTokens
from assay.fields._order import stable_argsort
from assay.fields._text import (
    ARTICLE_KEYS,
    as_text,
    is_blank,
    is_word,
    multiset_overlap,
    squad_tokens,
    token_count_matrix,
    token_f1,
)
from assay.fields.embedding import Embedder, rescue
from assay.fields.result import FieldScore
from assay.fields.settings import DEFAULT_FIELD_SETTINGS, FieldSettings


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
    """``token_f1`` for every (predicted, expected) pair: F1 = 2·overlap / (|p| + |g|), the
    multiset overlap from token-count matrices (``multiset_overlap``)."""
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
    pairs' ``BatchTokens``, when another kernel made them already."""
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
    npred, ngold, doc, is_pred, row = (
        tokens.npred, tokens.ngold, tokens.doc, tokens.is_pred, tokens.row
    )  # fmt: skip
    n_p, n_g, ndoc = int(npred.sum()), int(ngold.sum()), npred.size
    gold_start = np.cumsum(ngold) - ngold
    squad = np.flatnonzero(~is_word(tokens.keys, ARTICLE_KEYS))  # SQuAD drops the articles
    sid, column, columns = _occurrence_columns(
        tokens.keys.text[squad], tokens.ids[squad], tokens.n_ids, doc, ndoc
    )
    pred, at = is_pred[sid], row[sid]
    # 64-bit words per text: its document's columns / 64 rounded up to a power of two, so
    # that documents of one width class are processed together with at most 2x padding
    words = 1 << np.ceil(np.log2(np.maximum(1, -(-columns // 64)))).astype(np.int64)
    pdoc, gdoc = doc[is_pred], doc[~is_pred]
    pwidth, gwidth = words[pdoc], words[gdoc]
    a, a_at = _bitsets(at[pred], column[pred], pwidth)
    b, b_at = _bitsets(at[~pred], column[~pred], gwidth)
    # the cells: for each predicted row, the expected rows of its document
    rowlen = ngold[pdoc]
    row_start = np.cumsum(rowlen) - rowlen
    grow = np.repeat(gold_start[pdoc] - row_start, rowlen) + np.arange(int(rowlen.sum()))
    overlap = np.empty(grow.size, dtype=np.float64)
    # the distinct widths, as np.unique(...).tolist() gives them; a plain np.unique (without
    # return_inverse) imports numpy.ma on first use, ~0.1 s of a CLI run's start-up
    classes = sorted(set(words[doc].tolist()))
    for w in classes:  # the width classes (usually one), not the cells
        steps = np.arange(w)
        if len(classes) == 1:
            cell: slice | NDArray[np.bool_] = slice(None)
            left, right, reps, right_row = a.reshape(n_p, w), b.reshape(n_g, w), rowlen, grow
        else:
            psel, gsel = np.flatnonzero(pwidth == w), np.flatnonzero(gwidth == w)
            cell = np.repeat(pwidth == w, rowlen)
            left, reps = a[a_at[psel][:, None] + steps], rowlen[psel]
            right = b[b_at[gsel][:, None] + steps]
            gmap = np.zeros(n_g, dtype=np.int64)
            gmap[gsel] = np.arange(gsel.size)
            right_row = gmap[grow[cell]]
        shared = np.zeros(right_row.size, dtype=np.float64)
        for k in range(w):  # the 64-bit words of one bitset
            shared += _popcount(np.repeat(left[:, k], reps) & right[:, k][right_row])
        overlap[cell] = shared
    plen = np.bincount(at[pred], minlength=n_p).astype(np.float64)
    glen = np.bincount(at[~pred], minlength=n_g).astype(np.float64)
    total = np.repeat(plen, rowlen) + glen[grow]
    # both empty: total 0 and overlap 0, so (2·0 + 1) / (0 + 1) = 1.0; elsewhere + 0.0 is exact
    empty = total == 0
    result: FloatMatrix = (2.0 * overlap + empty) / (total + empty)
    return result


def _bitsets(
    row: NDArray[np.int64], column: NDArray[np.int64], words: NDArray[np.int64]
) -> tuple[NDArray[np.uint64], NDArray[np.int64]]:
    """Rows of ``words[r]`` 64-bit words laid end to end with bit ``column`` set for every
    (row, column) entry (entries are distinct), and each row's first word."""
    first = np.cumsum(words) - words
    bits = np.zeros(int(words.sum()), dtype=np.uint64)
    one = np.left_shift(np.uint64(1), (column & 63).astype(np.uint64))
    np.add.at(bits, first[row] + (column >> 6), one)  # distinct bits: the sum is the OR
    return bits, first


def _popcount(words: NDArray[np.uint64]) -> NDArray[np.uint8]:
    """Set bits of every 64-bit word (``np.bitwise_count`` from numpy 2, else a byte table)."""
    count = getattr(np, "bitwise_count", None)
    if count is not None:
        result: NDArray[np.uint8] = count(words)
        return result
    per_byte = _BYTE_BITS[words.view(np.uint8)].reshape(-1, 8)
    summed: NDArray[np.uint8] = per_byte.sum(axis=-1, dtype=np.uint8)
    return summed


#: set bits of every byte value
_BYTE_BITS = np.array([bin(v).count("1") for v in range(256)], dtype=np.uint8)


def _occurrence_columns(
    text: NDArray[np.int64],
    ids: NDArray[np.int64],
    n_ids: int,
    doc: NDArray[np.int64],
    ndoc: int,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Each token's text and column, and each document's number of columns, from the tokens'
    texts (nondecreasing) and ids (below ``n_ids``): the k-th occurrence of a token in a text
    is a column (token, k) of the text's document, so the multiset overlap of two texts,
    Σ_t min(count_t, count'_t), is the number of columns they share."""
    if text.size == 0:
        return text, text, np.zeros(ndoc, dtype=np.int64)
    # equal tokens adjacent, in text order
    order = stable_argsort(ids, n_ids)
    ordered = ids[order]
    new = np.empty(order.size, dtype=np.bool_)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    sid = text[order]
    idx = np.arange(order.size)
    run = new.copy()
    run[1:] |= sid[1:] != sid[:-1]
    rank = idx - np.maximum.accumulate(np.where(run, idx, 0))
    sdoc = doc[sid]
    group = new  # (token, document) groups: texts of a document are adjacent
    group[1:] |= sdoc[1:] != sdoc[:-1]
    starts = np.flatnonzero(group)
    depth = np.maximum.reduceat(rank, starts) + 1
    gdoc = sdoc[starts]
    # a document's columns: its groups' depths end to end
    by_doc = stable_argsort(gdoc, ndoc)
    columns = np.bincount(gdoc, weights=depth, minlength=ndoc).astype(np.int64)
    offset = np.empty_like(depth)
    offset[by_doc] = (
        np.cumsum(depth[by_doc]) - depth[by_doc] - (np.cumsum(columns) - columns)[gdoc[by_doc]]
    )
    return sid, offset[np.cumsum(group) - 1] + rank, columns
