"""Name fields (seed 000 §3): containment first, then max(Jaro–Winkler, token-set ratio).

Jaro–Winkler is trusted only when the two token sets share a token: it is dangerously lenient on
disjoint short-vs-long names. Strings are compared in the normalized form of
``assay.text.word_tokens`` joined by spaces, and rapidfuzz is called with ``processor=None`` so no
second, different normalization happens inside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray
from rapidfuzz import fuzz, process
from rapidfuzz.distance import Indel, JaroWinkler

from assay.fields._text import as_text, is_blank, token_columns, tokens
from assay.fields.embedding import Embedder, rescue
from assay.fields.result import FieldScore
from assay.fields.settings import DEFAULT_FIELD_SETTINGS, FieldSettings

FloatMatrix = NDArray[np.float64]


@lru_cache(maxsize=65536)
def normalized_name(text: str) -> str:
    """Lowercased, accent-free tokens joined by single spaces ("ACME, Inc." → "acme inc")."""
    return " ".join(tokens(text))


@lru_cache(maxsize=65536)
def _sorted_tokens(text: str) -> str:
    return " ".join(sorted(set(tokens(text))))


def name_similarity(pred: str, gold: str) -> tuple[float, str]:
    """The name similarity in [0, 1] and which rule produced it (see the module docstring)."""
    p, g = normalized_name(pred), normalized_name(gold)
    if not p or not g:
        return float(p == g), "empty"
    ptoks, gtoks = set(p.split()), set(g.split())
    if gtoks <= ptoks:
        return 1.0, "every expected token in the prediction"
    tsr = fuzz.token_set_ratio(p, g, processor=None) / 100.0
    if ptoks & gtoks:
        jw = JaroWinkler.normalized_similarity(p, g, processor=None)
        if jw > tsr:
            return jw, f"Jaro–Winkler {jw:.3f}"
    return tsr, f"token-set ratio {tsr:.3f}"


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


@lru_cache(maxsize=65536)
def _token_tuple(text: str) -> tuple[str, ...]:
    """The distinct tokens of ``normalized_name(text)``, sorted."""
    return tuple(sorted(set(tokens(text))))


def _token_histograms(vocab: Sequence[str]) -> tuple[FloatMatrix, FloatMatrix]:
    """Each token's length and its character histogram over a-z, 0-9 and one "other" bin."""
    k = len(_ALPHABET) + 1
    if not vocab:
        return np.zeros(1), np.zeros((1, k))
    lengths = np.fromiter(map(len, vocab), dtype=np.int64, count=len(vocab))
    code = np.frombuffer("".join(vocab).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    bins = _BINS[np.minimum(code, 128)]
    owner = np.repeat(np.arange(len(vocab), dtype=np.int64), lengths)
    hist = np.bincount(owner * k + bins, minlength=len(vocab) * k).reshape(len(vocab), k)
    return lengths.astype(np.float64), hist.astype(np.float64)


def name_similarity_matrix(pred: Sequence[str], gold: Sequence[str]) -> FloatMatrix:
    """``name_similarity`` for every (predicted, expected) pair, vectorized and exact.

    From token-incidence matrices (one product gives shared tokens and their characters):
    containment; the token-set ratio's length-only terms ``sect`` vs ``sect + diff``; for
    disjoint pairs the ratio itself, which is the Indel similarity of the sorted token strings
    (one ``process.cdist``); and Jaro–Winkler by ``process.cdist`` where tokens are shared.
    The remaining term, the Indel similarity of the two ``diff`` strings, is computed pair by
    pair only where its upper bound (from the L1 distance of character histograms, a lower
    bound on the Indel distance) exceeds every other term, so the result stays exact.
    """
    n, m = len(pred), len(gold)
    out = np.zeros((n, m), dtype=np.float64)
    if not n or not m:
        return out
    ptoks = [_token_tuple(x) for x in pred]
    gtoks = [_token_tuple(x) for x in gold]
    counts, vocab = token_columns([*ptoks, *gtoks])
    incidence = counts.astype(np.float64)
    a, b = incidence[:n], incidence[n:]
    lengths, hist = _token_histograms(vocab)
    shared = a @ b.T
    sect_chars = (a * lengths) @ b.T
    n_a, n_b = a.sum(1)[:, None], b.sum(1)[None, :]
    chars_a, chars_b = (a @ lengths)[:, None], (b @ lengths)[None, :]
    n_ab, n_ba = n_a - shared, n_b - shared
    ab_len = chars_a - sect_chars + np.maximum(n_ab - 1, 0)
    ba_len = chars_b - sect_chars + np.maximum(n_ba - 1, 0)
    sect_len = sect_chars + np.maximum(shared - 1, 0)
    has = shared > 0
    sect_ab_len = sect_len + has + ab_len
    sect_ba_len = sect_len + has + ba_len
    with np.errstate(divide="ignore", invalid="ignore"):
        sab = np.where(has, 1 - (has + ab_len) / (sect_len + sect_ab_len), 0.0)
        sba = np.where(has, 1 - (has + ba_len) / (sect_len + sect_ba_len), 0.0)
    sp = [" ".join(t) for t in ptoks]
    sg = [" ".join(t) for t in gtoks]
    disjoint = process.cdist(sp, sg, scorer=Indel.normalized_similarity, processor=None)
    np_ = [normalized_name(x) for x in pred]
    ng = [normalized_name(x) for x in gold]
    contained = has & ((n_ba == 0) | (n_ab == 0))
    best = np.where(has, np.maximum(sab, sba), disjoint)
    rows, cols = np.nonzero(has & ~contained)
    if rows.size:
        # Jaro–Winkler (float32, as process.cdist returns it) where tokens are shared; contained
        # pairs score 1.0 whatever it says
        p_rows, g_cols = [np_[i] for i in rows.tolist()], [ng[j] for j in cols.tolist()]
        jw = process.cpdist(
            p_rows, g_cols, scorer=JaroWinkler.normalized_similarity, processor=None
        )
        best[rows, cols] = np.maximum(best[rows, cols], jw)
        # the diff strings' histograms differ exactly as the two token sets' histograms do
        l1 = np.abs((a @ hist)[rows] - (b @ hist)[cols]).sum(1) + np.abs(n_ab - n_ba)[rows, cols]
        total = (sect_ab_len + sect_ba_len)[rows, cols]
        with np.errstate(divide="ignore", invalid="ignore"):
            upper = np.where(total > 0, 1 - l1 / total, 0.0)
        need = np.flatnonzero(upper > best[rows, cols] + 1e-12).tolist()
        if need:
            tsr = process.cpdist(
                [p_rows[k] for k in need],
                [g_cols[k] for k in need],
                scorer=fuzz.token_set_ratio,
                processor=None,
            )
            rows, cols = rows[need], cols[need]
            best[rows, cols] = np.maximum(
                best[rows, cols], np.asarray(tsr, dtype=np.float64) / 100.0
            )
    out[:] = best
    out[contained] = 1.0
    empty_p = np.array([not t for t in ptoks])
    empty_g = np.array([not t for t in gtoks])
    out[empty_p[:, None] | empty_g[None, :]] = 0.0
    out[empty_p[:, None] & empty_g[None, :]] = 1.0
    return out
