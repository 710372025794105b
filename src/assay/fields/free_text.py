"""Free-text fields (seed 000 §3): SQuAD-style token F1 over lowercase token multisets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay.fields._text import (
    as_text,
    is_blank,
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
    counts = token_count_matrix([squad_tokens(x) for x in (*pred, *gold)])
    a, b = counts[: len(pred)], counts[len(pred) :]
    overlap = multiset_overlap(a, b)
    plen = a.sum(1).astype(np.float64)
    glen = b.sum(1).astype(np.float64)
    total = plen[:, None] + glen[None, :]
    out: NDArray[np.float64] = np.divide(
        2.0 * overlap, total, out=np.zeros_like(overlap), where=total > 0
    )
    both_empty = (plen[:, None] == 0) & (glen[None, :] == 0)
    out[both_empty] = 1.0
    return out
