"""Containment fields (seed 000 §3): the share of the expected text's tokens the prediction covers.

For verbatim-clause fields whose label is one sentence of a longer passage: returning the expected
sentence plus riders and citations scores 1.0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay.fields._text import as_text, content_tokens, coverage, is_blank, token_set, tokens
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
    out = np.zeros((len(pred), len(gold)))
    if not pred or not gold:
        return out
    vocab: dict[str, int] = {}
    want = [content_tokens(g) or tokens(g) for g in gold]
    gcols = [[vocab.setdefault(t, len(vocab)) for t in w] for w in want]
    prow = [[vocab[t] for t in token_set(p) if t in vocab] for p in pred]
    a = np.zeros((len(pred), max(len(vocab), 1)), dtype=np.float32)
    b = np.zeros((len(gold), max(len(vocab), 1)), dtype=np.float32)
    for i, idx in enumerate(prow):
        a[i, idx] = 1.0
    for j, idx in enumerate(gcols):
        np.add.at(b[j], idx, 1.0)
    covered = (a @ b.T).astype(np.float64)
    glen = np.array([len(w) for w in want], dtype=np.float64)
    np.divide(covered, glen[None, :], out=out, where=glen[None, :] > 0)
    # an expected item without tokens is covered only by a prediction without tokens
    no_tokens = np.array([not tokens(p) for p in pred])
    out[:, glen == 0] = no_tokens[:, None].astype(np.float64)
    return out
