"""Free-text fields (seed 000 §3): SQuAD-style token F1 over lowercase token multisets."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay.fields._text import as_text, is_blank, squad_tokens, token_f1
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


@lru_cache(maxsize=65536)
def _occurrences(text: str) -> tuple[tuple[str, int], ...]:
    """(token, k) for k = 0 .. count − 1 of each SQuAD token of ``text`` (order irrelevant)."""
    return tuple((t, k) for t, c in Counter(squad_tokens(text)).items() for k in range(c))


def _occurrence_incidence(
    pred: Sequence[str], gold: Sequence[str]
) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.float32], NDArray[np.float32]]:
    """Binary matrices over (token, k-th occurrence) features: their product is the multiset
    overlap Σ_t min(count_p(t), count_g(t)), since min(a, b) = Σ_k [a ≥ k][b ≥ k]."""
    vocab: dict[tuple[str, int], int] = {}

    def features(text: str) -> list[int]:
        return [vocab.setdefault(key, len(vocab)) for key in _occurrences(text)]

    prow = [features(x) for x in pred]
    grow = [features(x) for x in gold]
    a = np.zeros((len(pred), max(len(vocab), 1)), dtype=np.float32)
    b = np.zeros((len(gold), max(len(vocab), 1)), dtype=np.float32)
    for i, idx in enumerate(prow):
        a[i, idx] = 1.0
    for j, idx in enumerate(grow):
        b[j, idx] = 1.0
    plen = np.array([len(r) for r in prow], dtype=np.float32)
    glen = np.array([len(r) for r in grow], dtype=np.float32)
    return a, b, plen, glen


def token_f1_matrix(pred: Sequence[str], gold: Sequence[str]) -> NDArray[np.float64]:
    """``token_f1`` for every (predicted, expected) pair: F1 = 2·overlap / (|p| + |g|)."""
    if not pred or not gold:
        return np.zeros((len(pred), len(gold)))
    a, b, plen, glen = _occurrence_incidence(pred, gold)
    overlap = (a @ b.T).astype(np.float64)
    total = plen[:, None].astype(np.float64) + glen[None, :]
    out = np.divide(2.0 * overlap, total, out=np.zeros_like(overlap), where=total > 0)
    both_empty = (plen[:, None] == 0) & (glen[None, :] == 0)
    out[both_empty] = 1.0
    return out
