"""Claim-text similarity for the deterministic matcher: token F1 or rapidfuzz's token-set ratio.

Both work on ``assay._text.word_tokens`` (casefolded, accents stripped, split on non-word
characters), optionally without English function words, which otherwise make any two claims of
one paper look alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from rapidfuzz import fuzz

from assay._text import word_tokens

SimilarityName = Literal["token_f1", "token_set_ratio"]

#: function words dropped before comparing claims (closed-class English words; negations and
#: comparatives are kept, since they carry a claim's direction)
_STOPWORD_TEXT = """
a an the and or but so yet of in on at to for from by with within into onto over under between
among across through during before after than then as is are was were be been being has have had
do does did this that these those it its their there which who whom whose what when where while
whereas because although though if only also both either each all any some such very can could
may might must shall should will would we our they them he she his her i you your one per via
upon about
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def claim_tokens(text: str, *, drop_stopwords: bool = True) -> list[str]:
    """Normalized word tokens of a claim sentence, function words removed when asked."""
    tokens = word_tokens(text)
    if drop_stopwords:
        kept = [t for t in tokens if t not in STOPWORDS]
        return kept or tokens
    return tokens


def token_f1(a: Sequence[str], b: Sequence[str]) -> float:
    """Token F1 = 2·|A ∩ B| / (|A| + |B|) over token multisets; 0 when both are empty."""
    if not a or not b:
        return 0.0
    common = sum((Counter(a) & Counter(b)).values())
    return 2.0 * common / (len(a) + len(b))


def token_set_ratio(a: Sequence[str], b: Sequence[str]) -> float:
    """rapidfuzz ``token_set_ratio`` / 100: 1.0 whenever one token set contains the other."""
    if not a or not b:
        return 0.0
    return float(fuzz.token_set_ratio(" ".join(a), " ".join(b))) / 100.0


def similarity_matrix(
    reference: Sequence[str],
    candidates: Sequence[str],
    *,
    method: SimilarityName = "token_f1",
    drop_stopwords: bool = True,
) -> NDArray[np.float64]:
    """S[i, j] = similarity of reference text i and candidate text j, in [0, 1]."""
    ref_tokens = [claim_tokens(t, drop_stopwords=drop_stopwords) for t in reference]
    cand_tokens = [claim_tokens(t, drop_stopwords=drop_stopwords) for t in candidates]
    out = np.zeros((len(ref_tokens), len(cand_tokens)), dtype=np.float64)
    if method == "token_set_ratio":
        for i, r in enumerate(ref_tokens):
            for j, c in enumerate(cand_tokens):
                out[i, j] = token_set_ratio(r, c)
        return out
    # token F1 with each claim's counts built once: 2·Σ min(count_r, count_c) / (|r| + |c|)
    ref_counts = [Counter(r) for r in ref_tokens]
    cand_counts = [Counter(c) for c in cand_tokens]
    for i, (rc, r) in enumerate(zip(ref_counts, ref_tokens, strict=True)):
        if not r:
            continue
        for j, (cc, c) in enumerate(zip(cand_counts, cand_tokens, strict=True)):
            if not c:
                continue
            small, large = (rc, cc) if len(rc) <= len(cc) else (cc, rc)
            common = sum(min(n, large[t]) for t, n in small.items() if t in large)
            out[i, j] = 2.0 * common / (len(r) + len(c))
    return out
