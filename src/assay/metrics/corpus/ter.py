"""TER edits of one segment, with the same result as sacrebleu 2.x's ``translation_edit_rate``.

sacrebleu follows Tercom: repeatedly apply the word-block shift that lowers a beam-restricted
Levenshtein distance the most (blocks of at most 10 words moved at most 50 positions, at most
1000 candidate shifts in all), then TER edits = shifts + the final distance. Candidates are
ranked by (distance gained, block length, earliest start, earliest target, then the shifted
word list itself). This module computes the same numbers with less work per call:

* words are mapped to integers whose order is the words' order (the last tie-break compares
  word lists, and an order-preserving map keeps that comparison), so the inner loop compares
  small ints;
* a candidate shift needs only the distance, not the edit trace: the trace is rebuilt only
  for the hypothesis a shift round starts from;
* distance rows are plain lists of ints memoised in a prefix trie (a row depends only on the
  words before it: every candidate has the hypothesis's length, so the beam is the same), as
  many as sacrebleu caches (``MAX_CACHE_ROWS``) but at most ``MAX_CACHE_CELLS`` cells.

``tests/suites/translation/test_translation_ter.py`` checks it against sacrebleu segment by
segment, on generated word lists and on WMT22 systems. Segments above ``MAX_CELLS`` words²
are refused with `TerTooLarge` (the distance matrix and its memo grow with hypothesis ×
reference words).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_SHIFT_CANDIDATES = 1000
#: rows memoised per (hypothesis, reference) pair, as sacrebleu's cache
MAX_CACHE_ROWS = 10000
#: cells (row entries, 8 bytes each plus the row's and the trie node's ~350 bytes) memoised per
#: pair at most; past it the rows are computed again instead of kept (the same numbers: the
#: memo only saves work). 400,000 let a 25-word reference hold 10,000 rows, 6.5 MiB alive for
#: one segment (the peak of ``mt test`` at 2,000 segments); at 100,000 the memo stays under
#: 2 MiB for the same CPU time (WMT22 de-en: the rows a round reuses are its first ones)
MAX_CACHE_CELLS = 100_000
#: hypothesis words × reference words above which a segment is refused
MAX_CELLS = 1_000_000

_INF = int(1e16)
_NOP, _SUB, _INS, _DEL = 0, 1, 2, 3


class TerTooLarge(ValueError):
    """A segment too large for TER within the memory bound (``MAX_CELLS``)."""


def edit_rate(hyp: Sequence[str], ref: Sequence[str]) -> tuple[int, int]:
    """(TER edits, reference length) of tokenized ``hyp`` against ``ref``, as sacrebleu's
    ``translation_edit_rate``; `TerTooLarge` past ``MAX_CELLS``."""
    n_ref = len(ref)
    if n_ref == 0:
        return len(hyp), 0
    if len(hyp) * n_ref > MAX_CELLS:
        raise TerTooLarge(
            f"TER of a {len(hyp)}-word hypothesis against a {n_ref}-word reference exceeds "
            f"the limit of {MAX_CELLS:,} word pairs"
        )
    vocab = {w: k for k, w in enumerate(sorted(set(hyp) | set(ref)))}
    h = [vocab[w] for w in hyp]
    r = [vocab[w] for w in ref]
    distance = _BeamDistance(r, len(h))
    shifts = 0
    checked = 0
    while True:
        gain, shifted, checked = _best_shift(h, r, distance, checked)
        if checked >= MAX_SHIFT_CANDIDATES or gain <= 0:
            break
        shifts += 1
        h = shifted
    return shifts + distance.cost(h), n_ref


class _BeamDistance:
    """Beam-restricted Levenshtein distance to one reference for hypotheses of one length,
    with rows memoised by hypothesis prefix."""

    def __init__(self, ref: list[int], n_hyp: int) -> None:
        self.ref = ref
        n_ref = len(ref)
        self.n_ref = n_ref
        self.n_hyp = n_hyp
        ratio = n_ref / n_hyp if n_hyp else 1.0
        width = math.ceil(ratio / 2 + BEAM_WIDTH) if ratio / 2 > BEAM_WIDTH else BEAM_WIDTH
        # the columns each row fills (the last row spans the whole reference)
        self.bounds = [(0, 0)] + [
            (
                max(0, math.floor(i * ratio) - width),
                n_ref + 1 if i == n_hyp else min(n_ref + 1, math.floor(i * ratio) + width),
            )
            for i in range(1, n_hyp + 1)
        ]
        self.first = list(range(n_ref + 1))
        # trie: word -> [children, cost row]; a list, not a tuple: freed 2-tuples are kept by
        # CPython for reuse (up to 2,000), and those the memos leave behind, scattered, held
        # ~5 MiB of otherwise empty memory pages after a 2,000-segment corpus (lists: 80 kept)
        self.trie: dict[int, list[Any]] = {}
        self.size = 0
        #: rows the trie holds at most (MAX_CACHE_ROWS, fewer for a long reference)
        self.max_rows = min(MAX_CACHE_ROWS, MAX_CACHE_CELLS // (n_ref + 1))

    def _rows(self, words: list[int]) -> list[list[int]]:
        """Cost rows 0..len(words) for ``words``.

        A cell is min(diagonal + substitution, above + 1, left + 1); cells outside the beam
        stay at "infinity" (1e16, sacrebleu's), and a cell fed only by such cells holds 1e16 or
        a little more, never a finite distance, so the finite cells are sacrebleu's exactly.
        """
        rows = [self.first]
        node = self.trie
        k = 0
        n = len(words)
        while k < n:
            entry = node.get(words[k])
            if entry is None:
                break
            node, row = entry
            rows.append(row)
            k += 1
        ref = self.ref
        width = self.n_ref + 1
        bounds = self.bounds
        inf = _INF
        while k < n:
            word = words[k]
            prev = rows[-1]
            k += 1
            lo, hi = bounds[k]
            if lo == 0:  # sacrebleu sets the first column unconditionally
                left = prev[0] + 1
                cur = [left]
                lo = 1
            else:
                left = inf
                cur = [inf] * lo
            for r, diag, up in zip(
                ref[lo - 1 : hi - 1], prev[lo - 1 : hi - 1], prev[lo:hi], strict=True
            ):
                c = diag if word == r else diag + 1
                if up < c:  # up + 1 < c
                    c = up + 1
                if left < c:
                    c = left + 1
                cur.append(c)
                left = c
            if hi < width:
                cur.extend([inf] * (width - hi))
            rows.append(cur)
            if self.size < self.max_rows:
                entry = node.get(word)
                if entry is None:
                    entry = [{}, cur]
                    node[word] = entry
                    self.size += 1
                node = entry[0]
        return rows

    def cost(self, words: list[int]) -> int:
        return self._rows(words)[-1][-1]

    def trace(self, words: list[int]) -> tuple[int, list[int]]:
        """(distance, edit operations from the first word on, hypothesis → reference).

        Each cell's operation is the first of substitution, deletion, insertion that gives its
        cost (sacrebleu keeps the first strictly cheaper one, in that order)."""
        rows = self._rows(words)
        ref = self.ref
        i, j = len(words), self.n_ref
        out: list[int] = []
        while i > 0 or j > 0:
            cost = rows[i][j]
            if i == 0:
                o = _INS
            elif j == 0:
                o = _DEL
            else:
                same = words[i - 1] == ref[j - 1]
                if cost == rows[i - 1][j - 1] + (0 if same else 1):
                    o = _NOP if same else _SUB
                elif cost == rows[i - 1][j] + 1:
                    o = _DEL
                else:
                    o = _INS
            out.append(o)
            if o <= _SUB:  # _NOP or _SUB
                i -= 1
                j -= 1
            elif o == _INS:
                j -= 1
            else:
                i -= 1
        out.reverse()
        return rows[-1][-1], out


def _best_shift(
    h: list[int], r: list[int], distance: _BeamDistance, checked: int
) -> tuple[int, list[int], int]:
    """The shift of ``h`` that lowers the distance most: (gain, shifted words, candidates)."""
    pre, trace = distance.trace(h)
    # the alignment of the flipped trace (sacrebleu reads the trace reference → hypothesis)
    pos_h = pos_r = -1
    align: dict[int, int] = {}
    hyp_err: list[int] = []
    ref_err: list[int] = []
    for o in trace:
        if o <= _SUB:  # _NOP or _SUB
            pos_h += 1
            pos_r += 1
            align[pos_r] = pos_h
            hyp_err.append(o)
            ref_err.append(o)
        elif o == _DEL:  # flipped: an insertion into the hypothesis
            pos_h += 1
            hyp_err.append(1)
        else:  # an insertion, flipped: a deletion from the reference
            pos_r += 1
            align[pos_r] = pos_h
            ref_err.append(1)
    n_h, n_r = len(h), len(r)
    best: tuple[int, int, int, int, list[int]] | None = None
    for start_h in range(n_h):
        for start_r in range(
            max(0, start_h - MAX_SHIFT_DIST), min(n_r, start_h + MAX_SHIFT_DIST + 1)
        ):
            length = 0
            while h[start_h + length] == r[start_r + length] and length < MAX_SHIFT_SIZE:
                length += 1
                # (start_h, start_r, length): a matching block sacrebleu would try
                if any(hyp_err[start_h : start_h + length]) and any(
                    ref_err[start_r : start_r + length]
                ):
                    at = align[start_r]
                    if not start_h <= at < start_h + length:
                        prev_idx = -1
                        for offset in range(-1, length):
                            if start_r + offset == -1:
                                idx = 0
                            elif start_r + offset in align:
                                idx = align[start_r + offset] + 1
                            else:
                                break
                            if idx == prev_idx:
                                continue
                            prev_idx = idx
                            shifted = _perform_shift(h, start_h, length, idx)
                            candidate = (
                                pre - distance.cost(shifted),
                                length,
                                -start_h,
                                -idx,
                                shifted,
                            )
                            checked += 1
                            if best is None or candidate > best:
                                best = candidate
                        if checked >= MAX_SHIFT_CANDIDATES:
                            return _result(best, h, checked)
                if n_h == start_h + length or n_r == start_r + length:
                    break
    return _result(best, h, checked)


def _result(
    best: tuple[int, int, int, int, list[int]] | None, h: list[int], checked: int
) -> tuple[int, list[int], int]:
    if best is None:
        return 0, h, checked
    return best[0], best[4], checked


def _perform_shift(words: list[int], start: int, length: int, target: int) -> list[int]:
    """``words`` with the block [start, start + length) moved to ``target``."""
    if target < start:
        return (
            words[:target]
            + words[start : start + length]
            + words[target:start]
            + words[start + length :]
        )
    if target > start + length:
        return (
            words[:start]
            + words[start + length : target]
            + words[start : start + length]
            + words[target:]
        )
    return (
        words[:start]
        + words[start + length : length + target]
        + words[start : start + length]
        + words[length + target :]
    )
