"""The tokens of a batch of (predicted, expected) item lists, computed once for every kernel
that reads them (free-text token F1 and coverage tokenize the same texts and group the same
token occurrences), and the bitsets both kernels count shared tokens with.

Why: both kernels sharing one grouping, and counting overlaps as popcounts of bitset ANDs
instead of per-list-pair matrix products, took the free-text path of 1,000 extraction
benchmark documents from 181 to 97 ms, ~0.55x (commit cbd1644; 0.29 → 0.19 s before that,
0a767e1).
Each piece is checked against a plain definition in tests/fields/test_fields_batch_tokens.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay._fields._order import grouped_order, stable_argsort
from assay._fields._text import TokenKeys, is_word_key, token_keys

ListPair = tuple[Sequence[str], Sequence[str]]


@dataclass(frozen=True)
class BatchTokens:
    """The texts of every list pair, list pair by list pair, its predicted items then its
    expected ones; their tokens as integer keys (``token_keys``); an order of the tokens in
    which equal tokens are adjacent, positions ascending (``grouped_order``), and where the
    token changes along it; and each text's list pair, side and row among all the batch's
    texts of its side (list pairs in order). Twin: each text's ``tokens``, counted per
    (text, token) and (list pair, token):
    ``test_runs_are_each_token_s_occurrences_per_text_and_list_pair``."""

    npred: NDArray[np.int64]
    ngold: NDArray[np.int64]
    keys: TokenKeys
    #: token positions, equal tokens adjacent and positions ascending within a token
    order: NDArray[np.intp]
    #: True along ``order`` where the token changes (at the first position)
    new: NDArray[np.bool_]
    doc: NDArray[np.int64]
    is_pred: NDArray[np.bool_]
    row: NDArray[np.int64]

    @classmethod
    def of(cls, pairs: Sequence[ListPair]) -> BatchTokens:
        npred = np.fromiter((len(p) for p, _ in pairs), dtype=np.int64, count=len(pairs))
        ngold = np.fromiter((len(g) for _, g in pairs), dtype=np.int64, count=len(pairs))
        texts: list[str] = []
        for p, g in pairs:  # list += is a C-level extend (~4x chain.from_iterable)
            texts += p
            texts += g
        keys = token_keys(texts)
        # a key word that is zero for every token (no token longer than 8 or 16 bytes) tells
        # nothing apart: it is left out
        order, new = grouped_order([keys.first, *(c for c in (keys.second, keys.long) if c.any())])
        sizes = npred + ngold
        doc = np.repeat(np.arange(len(pairs), dtype=np.int64), sizes)
        local = np.arange(doc.size, dtype=np.int64) - (np.cumsum(sizes) - sizes)[doc]
        is_pred = local < npred[doc]
        pred_start, gold_start = np.cumsum(npred) - npred, np.cumsum(ngold) - ngold
        row = np.where(is_pred, pred_start[doc] + local, gold_start[doc] + local - npred[doc])
        return cls(npred, ngold, keys, order, new, doc, is_pred, row)

    @cached_property
    def runs(self) -> TokenRuns:
        """The token occurrences grouped by (token, text) and (token, list pair)."""
        return TokenRuns.of(self)

    @cached_property
    def sizes(self) -> NDArray[np.int64]:
        """The number of tokens of each text."""
        text = self.keys.text  # nondecreasing
        bounds = np.searchsorted(text, np.arange(self.doc.size + 1, dtype=np.int64))
        return np.diff(bounds).astype(np.int64, copy=False)

    @cached_property
    def cells(self) -> Cells:
        """The (predicted, expected) cells of every list pair, pairs in order, row-major."""
        return Cells.of(self)


@dataclass(frozen=True)
class TokenRuns:
    """The tokens along ``BatchTokens.order`` cut into runs, the occurrences of one token in
    one text (adjacent: positions ascend within a token and texts with positions), and runs
    into groups, the occurrences of one token in one list pair (texts of a pair adjacent)."""

    #: each token's text, along the order
    text: NDArray[np.int64]
    #: each run's first index along the order, and its length (occurrences)
    start: NDArray[np.int64]
    length: NDArray[np.int64]
    #: each run's text and group
    run_text: NDArray[np.int64]
    run_group: NDArray[np.int64]
    #: each group's first run, list pair and position of one of its tokens
    group_first: NDArray[np.int64]
    group_doc: NDArray[np.int64]
    group_token: NDArray[np.intp]
    #: each group's index among its list pair's groups (0, 1, ... in each pair), and the
    #: number of groups of each list pair
    slot: NDArray[np.int64]
    n_slots: NDArray[np.int64]
    #: the groups ordered by list pair (stably)
    by_doc: NDArray[np.intp]

    @classmethod
    def of(cls, tokens: BatchTokens) -> TokenRuns:
        order, new, ndoc = tokens.order, tokens.new, tokens.npred.size
        text = tokens.keys.text.take(order)
        n = text.size
        run = new.copy()
        run[1:] |= text[1:] != text[:-1]
        start = np.flatnonzero(run)
        length = np.diff(start, append=n)
        run_text = text.take(start)
        run_doc = tokens.doc.take(run_text)
        first = new.take(start)
        first[1:] |= run_doc[1:] != run_doc[:-1]
        group_first = np.flatnonzero(first)
        run_group = np.cumsum(first) - 1
        group_doc = run_doc[group_first]
        by_doc = stable_argsort(group_doc, ndoc)
        n_slots = np.bincount(group_doc, minlength=ndoc)
        slot = np.empty(group_doc.size, dtype=np.int64)
        slot[by_doc] = np.arange(group_doc.size) - (np.cumsum(n_slots) - n_slots)[group_doc[by_doc]]
        group_token = order[start[group_first]]
        return cls(
            text, start, length, run_text, run_group, group_first, group_doc, group_token,
            slot, n_slots, by_doc,
        )  # fmt: skip

    def group_is_word(self, keys: TokenKeys, words: NDArray[np.uint64]) -> NDArray[np.bool_]:
        """Which groups' token is among ``words`` (``word_keys``): ``is_word`` of one token
        per group."""
        at = self.group_token
        return is_word_key(keys.first.take(at), keys.second.take(at), words)


@dataclass(frozen=True)
class Cells:
    """The cells (i, j) of every list pair, pairs in order and each row-major: predicted row
    ``i`` (among all the batch's predicted texts) holds ``row_len[i]`` cells, and each cell's
    expected row (among all expected texts) is ``gold_row``."""

    row_len: NDArray[np.int64]
    gold_row: NDArray[np.int64]
    #: the batch's texts on each side, in row order
    pred_text: NDArray[np.intp]
    gold_text: NDArray[np.intp]

    @classmethod
    def of(cls, tokens: BatchTokens) -> Cells:
        pred_text, gold_text = np.flatnonzero(tokens.is_pred), np.flatnonzero(~tokens.is_pred)
        pdoc = tokens.doc[pred_text]
        gold_start = np.cumsum(tokens.ngold) - tokens.ngold
        row_len = tokens.ngold[pdoc]
        row_start = np.cumsum(row_len) - row_len
        gold_row = np.repeat(gold_start[pdoc] - row_start, row_len) + np.arange(
            int(row_len.sum()), dtype=np.int64
        )
        return cls(row_len, gold_row, pred_text, gold_text)


#: 2^k as float64 for k < 32: a bit of a 32-bit word, as a ``bincount`` weight
_BIT = np.ldexp(1.0, np.arange(32))


def word_counts(columns: NDArray[np.int64]) -> NDArray[np.int64]:
    """64-bit words per bitset of each list pair: its columns / 64 rounded up to a power of
    two, so that list pairs of one width class are processed together with at most 2x
    padding."""
    return 1 << np.ceil(np.log2(np.maximum(1, -(-columns // 64)))).astype(np.int64)


def text_words(tokens: BatchTokens, words: NDArray[np.int64]) -> tuple[NDArray[np.int64], int]:
    """Each text's first 64-bit word when every text has ``words[its list pair]`` of them, laid
    end to end in text order, and the number of words."""
    size = words[tokens.doc]
    ends = np.cumsum(size)
    return ends - size, int(ends[-1]) if ends.size else 0


def bitsets(
    bit: NDArray[np.int64], n_words: int, select: Sequence[NDArray[np.bool_]] = ()
) -> list[NDArray[np.uint64]]:
    """``n_words`` 64-bit words with the bits at positions ``bit`` set (distinct positions),
    or, for each mask of ``select``, with the bits it selects. Built as 32-bit words by one
    ``bincount`` each: the weights 2^b of distinct bits b sum to their OR, exactly in
    float64 below 2^32 (twin: Python ints with those bits set,
    ``test_bitsets_set_the_given_bits``)."""
    at, weight = bit >> 5, _BIT[bit & 31]
    out = []
    masks: Sequence[NDArray[np.bool_] | None] = select or [None]
    for mask in masks:
        half = np.bincount(
            at, weights=weight if mask is None else weight * mask, minlength=2 * n_words
        )
        # two little-endian 32-bit words, bits 0-31 then 32-63, are one 64-bit word
        out.append(half.astype(np.uint32).view(np.uint64))
    return out


def shared_bits(
    tokens: BatchTokens,
    words: NDArray[np.int64],
    first: NDArray[np.int64],
    left: NDArray[np.uint64],
    rights: Sequence[NDArray[np.uint64]],
) -> NDArray[np.signedinteger[Any]]:
    """Σ_b 2^b · popcount(left_i AND rights[b]_j) for every cell (i, j) (``Cells``), from
    bitsets of ``words[list pair]`` 64-bit words per text starting at ``first`` (predicted
    texts' rows of ``left``, expected texts' rows of each ``rights[b]``), as integers.
    Twin: that sum over Python ints (``test_shared_bits_count_common_bits_by_level``)."""
    cells = tokens.cells
    pred_text, gold_text, row_len, gold_row = (
        cells.pred_text, cells.gold_text, cells.row_len, cells.gold_row
    )  # fmt: skip
    # the distinct widths of the list pairs with cells, ascending
    classes = sorted(set(words[(tokens.npred > 0) & (tokens.ngold > 0)].tolist()))
    bound = 64 * max(classes, default=1) * ((1 << len(rights)) - 1)
    # (with room to double: the F1 numerator is 2·overlap)
    out: NDArray[np.signedinteger[Any]] = np.zeros(
        gold_row.size, dtype=np.int32 if bound < 1 << 30 else np.int64
    )
    for w in classes:  # the width classes (usually one), not the cells
        if len(classes) == 1:
            cell: slice | NDArray[np.bool_] = slice(None)
            lrows, grows, reps, right_row = pred_text, gold_text, row_len, gold_row
        else:
            pwidth, gwidth = words[tokens.doc[pred_text]], words[tokens.doc[gold_text]]
            psel, gsel = np.flatnonzero(pwidth == w), np.flatnonzero(gwidth == w)
            cell = np.repeat(pwidth == w, row_len)
            lrows, grows, reps = pred_text[psel], gold_text[gsel], row_len[psel]
            gmap = np.zeros(gold_text.size, dtype=np.int64)
            gmap[gsel] = np.arange(gsel.size)
            right_row = gmap[gold_row[cell]]
        # word k of each row, contiguous: [k, row]
        at_left = (first[lrows] + np.arange(w)[:, None]).ravel()
        at_right = (first[grows] + np.arange(w)[:, None]).ravel()
        # a text of a list pair without cells may be narrower or wider than ``w``: its rows
        # are never read (no cells), but must stay in bounds (clipped)
        lhs = left.take(at_left, mode="clip").reshape(w, -1)
        rhs = [right.take(at_right, mode="clip").reshape(w, -1) for right in rights]
        shared = np.zeros(right_row.size, dtype=out.dtype)
        for k in range(w):  # the 64-bit words of one bitset
            repeated = np.repeat(lhs[k], reps)
            for level, right in enumerate(rhs):
                both = right[k].take(right_row)
                np.bitwise_and(both, repeated, out=both)
                count = popcount(both)
                shared += count if level == 0 else count.astype(out.dtype) << level
        out[cell] = shared
    return out


def popcount(words: NDArray[np.uint64]) -> NDArray[np.uint8]:
    """Set bits of every 64-bit word (``np.bitwise_count`` from numpy 2, else a byte table;
    twin: ``bin(w).count("1")``, ``test_popcount_fallback_counts_bits``)."""
    count = getattr(np, "bitwise_count", None)
    if count is not None:
        result: NDArray[np.uint8] = count(words)
        return result
    per_byte = _BYTE_BITS[words.view(np.uint8)].reshape(-1, 8)
    summed: NDArray[np.uint8] = per_byte.sum(axis=-1, dtype=np.uint8)
    return summed


#: set bits of every byte value
_BYTE_BITS = np.array([bin(v).count("1") for v in range(256)], dtype=np.uint8)
