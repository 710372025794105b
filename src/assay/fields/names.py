"""Name fields (seed 000 §3): containment first, then max(Jaro–Winkler, token-set ratio).

Jaro–Winkler is trusted only when the two token sets share a token: it is dangerously lenient on
disjoint short-vs-long names. Strings are compared in the normalized form of
``assay.text.word_tokens`` joined by spaces, and rapidfuzz is called with ``processor=None`` so no
second, different normalization happens inside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import chain, count, filterfalse
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray
from rapidfuzz import fuzz, process
from rapidfuzz.distance import Indel, JaroWinkler

from assay.fields._text import STOPWORDS, as_text, is_blank, key_pairs, token_lists, tokens
from assay.fields.embedding import Embedder, rescue
from assay.fields.result import FieldScore
from assay.fields.settings import (
    DEFAULT_CORPORATE_SUFFIXES,
    DEFAULT_FIELD_SETTINGS,
    DEFAULT_ROLE_WORDS,
    FieldSettings,
)

FloatMatrix = NDArray[np.float64]

#: tokens that are never the evidence of name identity (issue 16, case 1): corporate suffixes
#: ("Inc", "Corp", "LLC"), stopwords and bare role words. A pair whose only shared tokens are
#: these is scored as a pair sharing no token: no containment, no Jaro–Winkler, the token-set
#: ratio of disjoint sets (the Indel similarity of the sorted token strings).
NON_EVIDENCE_TOKENS = frozenset(
    {w.lower() for w in DEFAULT_CORPORATE_SUFFIXES} | STOPWORDS | set(DEFAULT_ROLE_WORDS)
)


@lru_cache(maxsize=65536)
def normalized_name(text: str) -> str:
    """Lowercased, accent-free tokens joined by single spaces ("ACME, Inc." → "acme inc")."""
    return " ".join(tokens(text))


def name_similarity(pred: str, gold: str) -> tuple[float, str]:
    """The name similarity in [0, 1] and which rule produced it (see the module docstring)."""
    p, g = normalized_name(pred), normalized_name(gold)
    if not p or not g:
        return float(p == g), "empty"
    ptoks, gtoks = set(p.split()), set(g.split())
    if not (ptoks & gtoks) - NON_EVIDENCE_TOKENS:
        # no shared token, or only suffixes / stopwords / role words: the token-set ratio's
        # difference term alone (for disjoint sets, the ratio itself)
        tsr = _difference_ratio(ptoks, gtoks)
        shared = " (shared only non-name tokens)" if ptoks & gtoks else ""
        return tsr, f"token-set ratio {tsr:.3f}{shared}"
    if gtoks <= ptoks:
        return 1.0, "every expected token in the prediction"
    tsr = fuzz.token_set_ratio(p, g, processor=None) / 100.0
    jw = JaroWinkler.normalized_similarity(p, g, processor=None)
    if jw > tsr:
        return jw, f"Jaro–Winkler {jw:.3f}"
    return tsr, f"token-set ratio {tsr:.3f}"


def _difference_ratio(a: set[str] | frozenset[str], b: set[str] | frozenset[str]) -> float:
    """Indel similarity of the sorted tokens only ``a`` has and the sorted tokens only ``b``
    has: what a pair sharing no name token is worth (1.0 when neither has a token of its own)."""
    return float(
        Indel.normalized_similarity(
            " ".join(sorted(a - b)), " ".join(sorted(b - a)), processor=None
        )
    )


def score_name_field(
    pred: Any,
    gold: Any,
    settings: FieldSettings = DEFAULT_FIELD_SETTINGS,
    *,
    embedder: Embedder | None = None,
) -> FieldScore:
    """1.0 when every expected token is in the prediction, else max(JW if tokens shared, TSR);
    with an embedder, a score below ``embedding_rescue_below`` becomes max(score, cosine).

    "FRANCHISE AGREEMENT" inside "Goosehead Insurance Agency, LLC Franchise Agreement" → 1.0.
    """
    if is_blank(pred):
        return FieldScore(float(is_blank(gold)), "no prediction", "name")
    ptext, gtext = as_text(pred), as_text(gold)
    score, reason = name_similarity(ptext, gtext)
    score, rescued = rescue(score, ptext, gtext, embedder, settings)
    if rescued:
        reason = f"embedding cosine {score:.3f} (string: {reason})"
    return FieldScore(score, reason, "name")


_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"
#: histogram bin of each code point below 128 (a-z, 0-9, else the last, "other" bin); code
#: points from 128 up are clipped to index 128, the "other" bin
_BINS = np.array(
    [_ALPHABET.find(chr(c)) if chr(c) in _ALPHABET else len(_ALPHABET) for c in range(128)]
    + [len(_ALPHABET)],
    dtype=np.int64,
)


class _Forms(NamedTuple):
    """What the batch needs of one string, computed once per distinct string (cached)."""

    #: the distinct tokens of ``normalized_name(text)``, sorted
    distinct: tuple[str, ...]
    #: the same joined by spaces: the token-set ratio's sorted string
    sorted_string: str
    #: ``normalized_name(text)`` itself
    normalized: str
    #: ``distinct`` without the non-evidence tokens, and the same joined by spaces
    evidence: tuple[str, ...]
    evidence_string: str
    #: ``distinct``'s non-evidence tokens (``NON_EVIDENCE_TOKENS``)
    non_evidence: frozenset[str]


@lru_cache(maxsize=65536)
def _name_forms(text: str) -> _Forms:
    """A string's ``_Forms``."""
    return _forms(tokens(text))


def _batch_forms(strings: Sequence[str]) -> list[_Forms]:
    """``[_name_forms(x) for x in strings]``: each distinct string's forms once, the strings
    tokenized together (``token_lists``: one ``translate`` for ASCII strings)."""
    distinct = list(dict.fromkeys(strings))
    made = dict(zip(distinct, map(_forms, token_lists(distinct)), strict=True))
    return [made[x] for x in strings]


def _forms(toks: Sequence[str]) -> _Forms:
    """The ``_Forms`` of a string whose ``tokens`` are ``toks``."""
    distinct = tuple(sorted(set(toks)))
    joined = " ".join(distinct)
    non_evidence = NON_EVIDENCE_TOKENS.intersection(distinct)
    if non_evidence:
        evidence = tuple(filterfalse(non_evidence.__contains__, distinct))
        return _Forms(distinct, joined, " ".join(toks), evidence, " ".join(evidence), non_evidence)
    return _Forms(distinct, joined, " ".join(toks), distinct, joined, non_evidence)


def name_similarity_matrix(pred: Sequence[str], gold: Sequence[str]) -> FloatMatrix:
    """``name_similarity`` for every (predicted, expected) pair (``name_similarity_matrices``)."""
    return name_similarity_matrices([(pred, gold)])[0]


def name_similarity_matrices(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
) -> list[FloatMatrix]:
    """``name_similarity`` for every (predicted, expected) pair of every list pair, exactly.

    Every pair of every list pair is one entry of flat arrays, so the numpy and rapidfuzz calls
    are a fixed number per batch. From the strings' distinct tokens (``_name_forms``): shared
    tokens and their characters by one join of the token occurrences on (list pair, token)
    (``key_pairs``), so only pairs of the same list pair share a token; containment; the
    token-set ratio's length-only terms ``sect`` vs ``sect + diff``; for disjoint pairs the
    ratio itself, the Indel similarity of the sorted token strings; Jaro–Winkler where tokens
    are shared. The
    remaining term, the Indel similarity of the two ``diff`` strings, is computed only where
    its upper bound (from the L1 distance of character histograms, a lower bound on the Indel
    distance) exceeds every other term, so the result stays exact.
    """
    sizes = [(len(p), len(g)) for p, g in pairs]
    if not any(n and m for n, m in sizes):
        return [np.zeros(size, dtype=np.float64) for size in sizes]
    pred = [x for p, _ in pairs for x in p]
    gold = [x for _, g in pairs for x in g]
    n_pairs = np.array([n * m for n, m in sizes], dtype=np.int64)
    m_of = np.array([m for _, m in sizes], dtype=np.int64)
    p_start = np.cumsum([0] + [n for n, _ in sizes])[:-1]
    g_start = np.cumsum([0] + [m for _, m in sizes])[:-1]
    pair_start = np.cumsum(n_pairs) - n_pairs
    size = int(n_pairs.sum())

    def strings_of(k: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The predicted and expected string of each flat pair ``k`` (entry k of the flat
        arrays: list pair d, its row-major cell k - pair_start[d]); only the pairs that need
        more than the shared-token counts are located, not all of them."""
        d = np.searchsorted(pair_start, k, side="right") - 1  # empty pairs share a start
        local, width = k - pair_start[d], np.maximum(m_of[d], 1)
        return p_start[d] + local // width, g_start[d] + local % width

    forms = _batch_forms(pred + gold)
    p_forms, g_forms = forms[: len(pred)], forms[len(pred) :]
    ptoks = [f[0] for f in p_forms]
    gtoks = [f[0] for f in g_forms]
    p_side, g_side = _NameSide(ptoks, p_start), _NameSide(gtoks, g_start)
    # a shared token counts as evidence only when it is a name token (not a suffix, stopword
    # or role word); only when both sides have such tokens can a shared one be one of them
    mixed = any(f.non_evidence for f in p_forms) and any(f.non_evidence for f in g_forms)
    shared, sect_chars, ev_shared = _shared_tokens(
        p_side, g_side, pair_start, m_of, size, evidence=mixed
    )
    has = shared > 0
    weak = np.empty(0, dtype=np.int64)
    if ev_shared is not None:
        weak = np.flatnonzero(has & (ev_shared == 0))
        has &= ev_shared > 0
    # the token-set ratio's length terms, only where a name token is shared (elsewhere the
    # whole-batch formula gave 0.0): the same elementwise arithmetic on those entries
    idx = np.flatnonzero(has)
    pi, gj = strings_of(idx)
    sh, sc = shared[idx], sect_chars[idx]
    n_a, n_b = p_side.n_tokens[pi], g_side.n_tokens[gj]
    chars_a, chars_b = p_side.chars[pi], g_side.chars[gj]
    n_ab, n_ba = n_a - sh, n_b - sh
    ab_len = chars_a - sc + np.maximum(n_ab - 1, 0)
    ba_len = chars_b - sc + np.maximum(n_ba - 1, 0)
    sect_len = sc + np.maximum(sh - 1, 0)
    one = np.ones(idx.size, dtype=np.bool_)  # ``has`` on these entries
    sect_ab_len = sect_len + one + ab_len
    sect_ba_len = sect_len + one + ba_len
    with np.errstate(divide="ignore", invalid="ignore"):
        sab = 1 - (one + ab_len) / (sect_len + sect_ab_len)
        sba = 1 - (one + ba_len) / (sect_len + sect_ba_len)
    best = np.zeros(size, dtype=np.float64)
    best[idx] = np.maximum(sab, sba)
    # disjoint pairs: the token-set ratio is the Indel similarity of the sorted token strings
    # (rapidfuzz's cdist per list pair: its many-strings kernel beats a flat cpdist)
    disjoint = ~has
    sp = [f[1] for f in p_forms]
    sg = [f[1] for f in g_forms]
    for d, (n, m) in enumerate(sizes):
        lo, hi = int(pair_start[d]), int(pair_start[d]) + n * m
        if n and m and disjoint[lo:hi].any():
            p0, g0 = int(p_start[d]), int(g_start[d])
            indel = process.cdist(
                sp[p0 : p0 + n], sg[g0 : g0 + m], scorer=Indel.normalized_similarity, processor=None
            ).ravel()
            best[lo:hi] = np.where(disjoint[lo:hi], indel, best[lo:hi])
    if weak.size:
        # pairs sharing only suffixes / stopwords / role words: the difference term alone
        w_rows, w_cols = strings_of(weak)
        best[weak] = _difference_ratios(ptoks, gtoks, w_rows, w_cols, forms=(p_forms, g_forms))
    within = (n_ba == 0) | (n_ab == 0)  # of the entries ``idx``: contained pairs
    contained = idx[within]
    part = ~within
    partial = idx[part]
    if partial.size:
        # Jaro–Winkler (float32, as rapidfuzz returns it) where tokens are shared; contained
        # pairs score 1.0 whatever it says
        np_ = np.array([f[2] for f in p_forms], dtype=object)
        ng = np.array([f[2] for f in g_forms], dtype=object)
        rows, cols = pi[part], gj[part]
        p_rows, g_cols = np_[rows], ng[cols]
        jw = process.cpdist(
            p_rows.tolist(),
            g_cols.tolist(),
            scorer=JaroWinkler.normalized_similarity,
            processor=None,
        )
        best[partial] = np.maximum(best[partial], jw)
        # the diff strings' histograms differ exactly as the two token sets' histograms do; their
        # L1 distance is at least the difference of their lengths, so that cheaper bound rules
        # out pairs first (a smaller bound can only make the exact one smaller)
        total = (sect_ab_len + sect_ba_len)[part]
        spaces = np.abs(n_ab - n_ba)[part]
        with np.errstate(divide="ignore", invalid="ignore"):
            length_gap = np.abs(chars_a - chars_b)[part] + spaces
            rough = np.where(total > 0, 1 - length_gap / total, 0.0)
            open_ = np.flatnonzero(rough > best[partial] + 1e-12)
            diff = p_side.hist[rows[open_]] - g_side.hist[cols[open_]]
            l1 = np.abs(diff).sum(1) + spaces[open_]
            upper = np.where(total[open_] > 0, 1 - l1 / total[open_], 0.0)
        need = open_[upper > best[partial[open_]] + 1e-12]
        if need.size:
            tsr = process.cpdist(
                p_rows[need].tolist(),
                g_cols[need].tolist(),
                scorer=fuzz.token_set_ratio,
                processor=None,
            )
            at = partial[need]
            best[at] = np.maximum(best[at], np.asarray(tsr, dtype=np.float64) / 100.0)
    best[contained] = 1.0
    if not (p_side.n_tokens.all() and g_side.n_tokens.all()):
        # a string without tokens: 0.0 against any string, 1.0 against another such string
        e_rows, e_cols = strings_of(np.arange(size, dtype=np.int64))
        empty_p, empty_g = p_side.n_tokens[e_rows] == 0, g_side.n_tokens[e_cols] == 0
        best[empty_p | empty_g] = 0.0
        best[empty_p & empty_g] = 1.0
    return [
        best[start : start + n * m].reshape(n, m)
        for start, (n, m) in zip(pair_start.tolist(), sizes, strict=True)
    ]


#: most distinct non-evidence tokens ``_difference_ratios`` sets as bits of one int64 mask
_MASK_BITS = 62


def _difference_ratios(
    ptoks: Sequence[tuple[str, ...]],
    gtoks: Sequence[tuple[str, ...]],
    rows: NDArray[np.int64],
    cols: NDArray[np.int64],
    evidence: tuple[Sequence[tuple[str, ...]], Sequence[tuple[str, ...]]] | None = None,
    *,
    forms: tuple[Sequence[_Forms], Sequence[_Forms]] | None = None,
) -> FloatMatrix:
    """``_difference_ratio`` of every (ptoks[rows[k]], gtoks[cols[k]]) pair that shares only
    non-evidence tokens, with one rapidfuzz call (in float64, as the scalar function).

    Such a pair's tokens of its own are each string's sorted distinct tokens without the
    shared ones, and the shared ones are non-evidence tokens: the bits of a mask over the
    batch's non-evidence tokens (the AND of the two strings' masks). When the mask holds all
    the string's non-evidence tokens (the common case: one suffix), what is left are its
    ``evidence`` tokens (each side's strings' tokens without the non-evidence ones, computed
    here when not given; their joined strings are taken from ``forms``, each side's strings'
    ``_name_forms``, when given); the other (string, mask)s are joined once each.
    """
    if forms is None:
        p_ne = [NON_EVIDENCE_TOKENS.intersection(t) for t in ptoks]
        g_ne = [NON_EVIDENCE_TOKENS.intersection(t) for t in gtoks]
    else:
        p_ne = [f.non_evidence for f in forms[0]]
        g_ne = [f.non_evidence for f in forms[1]]
    sets = {*p_ne, *g_ne}  # the distinct non-evidence sets: most strings share a few
    present = sorted(frozenset().union(*sets))
    bits = len(present)
    if bits > _MASK_BITS or max(len(ptoks), len(gtoks)) >= 1 << (_MASK_BITS - bits):
        return np.array(
            [
                _difference_ratio(frozenset(ptoks[a]), frozenset(gtoks[b]))
                for a, b in zip(rows.tolist(), cols.tolist(), strict=True)
            ],
            dtype=np.float64,
        )
    bit = {t: 1 << k for k, t in enumerate(present)}
    mask = {ne: sum(map(bit.__getitem__, ne)) for ne in sets}  # each distinct set's once
    p_full = np.fromiter(map(mask.__getitem__, p_ne), dtype=np.int64, count=len(p_ne))
    g_full = np.fromiter(map(mask.__getitem__, g_ne), dtype=np.int64, count=len(g_ne))
    shared = p_full[rows] & g_full[cols]
    if forms is not None:
        strings = (
            [f.evidence_string for f in forms[0]],
            [f.evidence_string for f in forms[1]],
        )
    else:
        if evidence is None:
            evidence = (
                [tuple(filterfalse(NON_EVIDENCE_TOKENS.__contains__, t)) for t in ptoks],
                [tuple(filterfalse(NON_EVIDENCE_TOKENS.__contains__, t)) for t in gtoks],
            )
        strings = ([" ".join(e) for e in evidence[0]], [" ".join(e) for e in evidence[1]])

    def own(
        toks: Sequence[tuple[str, ...]],
        joined: list[str],
        full: NDArray[np.int64],
        which: NDArray[np.int64],
    ) -> list[str]:
        out = np.array(joined, dtype=object)[which]
        rare = np.flatnonzero(shared != full[which])
        if rare.size:
            seen: dict[tuple[int, int], str] = {}
            for k, r, m in zip(
                rare.tolist(), which[rare].tolist(), shared[rare].tolist(), strict=True
            ):
                text = seen.get((r, m))
                if text is None:
                    text = " ".join(t for t in toks[r] if not bit.get(t, 0) & m)
                    seen[(r, m)] = text
                out[k] = text
        result: list[str] = out.tolist()
        return result

    ratios: FloatMatrix = process.cpdist(
        own(ptoks, strings[0], p_full, rows),
        own(gtoks, strings[1], g_full, cols),
        scorer=Indel.normalized_similarity,
        processor=None,
        dtype=np.float64,
    )
    return ratios


class _NameSide:
    """One side's strings of a batch: their distinct tokens, flat, with each string's list
    pair, token count, character count and character histogram."""

    def __init__(self, toks: Sequence[tuple[str, ...]], start: NDArray[np.int64]):
        self.toks = toks
        self.n_tokens = np.fromiter(map(len, toks), dtype=np.int64, count=len(toks))
        # the list pair of each string, from the first string of every list pair
        first = np.zeros(len(toks) + 1, dtype=np.int64)
        np.add.at(first, start, 1)
        self.doc = np.cumsum(first[:-1]) - 1
        self.flat = list(chain.from_iterable(toks))
        k = len(_ALPHABET) + 1
        joined = "".join(self.flat)
        code = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        self.token_len = np.fromiter(map(len, self.flat), dtype=np.int64, count=len(self.flat))
        owner = np.repeat(np.arange(len(self.flat), dtype=np.int64), self.token_len)
        string_of_token = np.repeat(np.arange(len(toks), dtype=np.int64), self.n_tokens)
        char_owner = string_of_token[owner]
        hist = np.bincount(char_owner * k + _BINS[np.minimum(code, 128)], minlength=len(toks) * k)
        # exact counts in the smallest integer type that holds them (less to gather per pair)
        small = np.int16 if int(hist.max(initial=0)) < 1 << 14 else np.int64
        self.hist = hist.reshape(len(toks), k).astype(small)
        self.chars = np.bincount(
            string_of_token, weights=self.token_len, minlength=len(toks)
        ).astype(np.float64)
        self.string_of_token = string_of_token
        self.start = start


def _shared_tokens(
    p: _NameSide,
    g: _NameSide,
    pair_start: NDArray[np.int64],
    m_of: NDArray[np.int64],
    size: int,
    *,
    evidence: bool = False,
) -> tuple[FloatMatrix, FloatMatrix, FloatMatrix | None]:
    """For every flat pair: how many tokens the two strings share, their characters, and
    (with ``evidence``, else None) how many of the shared tokens are name tokens (not in
    ``NON_EVIDENCE_TOKENS``) — what the same join over each string's evidence tokens
    counts, from the one join.

    Columns are (list pair, token), so the join pairs strings of one list pair only.
    """
    vocab: dict[str, int] = {}
    ids = np.fromiter(
        map(vocab.setdefault, chain(p.flat, g.flat), count()),
        dtype=np.int64,
        count=len(p.flat) + len(g.flat),
    )
    # setdefault returns the first position of each token, so distinct tokens keep distinct
    # ids; a column is one (list pair, token), numbered densely
    width = len(p.flat) + len(g.flat)
    keys = (
        np.concatenate([p.doc[p.string_of_token] * width, g.doc[g.string_of_token] * width]) + ids
    )
    _, column = np.unique(keys, return_inverse=True)
    n_cols = int(column.max()) + 1 if column.size else 0
    # every (predicted token, expected token) occurrence pair of one column: a shared token
    left, right = key_pairs(column[: len(p.flat)], column[len(p.flat) :], n_cols)
    rows, cols = p.string_of_token[left], g.string_of_token[right]
    d = p.doc[rows]
    flat = pair_start[d] + (rows - p.start[d]) * m_of[d] + (cols - g.start[d])
    # sums of whole numbers: exact in any order
    shared = np.bincount(flat, minlength=size).astype(np.float64)
    chars: FloatMatrix = np.bincount(flat, weights=p.token_len[left], minlength=size).astype(
        np.float64
    )
    if not evidence:
        return shared, chars, None
    other = np.fromiter(
        map(NON_EVIDENCE_TOKENS.__contains__, p.flat), dtype=np.bool_, count=len(p.flat)
    )
    ev_shared: FloatMatrix = np.bincount(
        flat, weights=(~other[left]).astype(np.float64), minlength=size
    ).astype(np.float64)
    return shared, chars, ev_shared
