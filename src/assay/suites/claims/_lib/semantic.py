"""The hybrid claim similarity: TF-IDF terms and static sentence embeddings, hubness-corrected.

An LLM rewrite of a claim shares few words with the curator's sentence (token F1 of true pairs:
median 0.32 on the public trees), and every claim of a paper shares its topic words, so plain
string similarity cannot tell the true pair from a neighbour. Three corrections:

1. **Terms.** Word tokens without function words, cut to their first 6 characters (a crude
   stemmer: "clustering" and "clusters" meet), plus acronym terms: the initials of 2–3
   consecutive words ("ventral striatum" → ``vs``, "D1 receptor" → ``d1r``) when that acronym
   occurs as a word somewhere in the paper's claims.
2. **Weights.** TF-IDF fitted on the paper's own claims (reference and extracted), sublinear tf
   and smoothed idf ``ln((1 + N) / (1 + df)) + 1``, cosine of the L2-normalized vectors: the
   paper's topic words weigh little. With an embedder, the cosine of sentence embeddings centred
   on the paper's mean embedding (the shared topic direction removed) is blended in:
   ``S = w · tfidf + (1 − w) · embedding`` (``w = lexical_weight``).
3. **Hubness.** Cross-domain similarity local scaling (CSLS; Conneau et al. 2018, "Word
   translation without parallel data"): ``C[i, j] = 2 S[i, j] − r_i − c_j`` with ``r_i`` the mean
   of reference i's k highest similarities and ``c_j`` that of candidate j. A pair is judged by
   how much it stands out from both claims' neighbourhoods, so a claim whose rewrite was dropped
   (whose best candidate is merely a neighbour) scores low, and a generic claim similar to
   everything cannot attract every reference.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from assay._fields.embedding import Embedder
from assay._text import word_tokens
from assay.suites.claims._lib.similarity import STOPWORDS

FloatMatrix = NDArray[np.float64]

#: characters a term keeps (a prefix stemmer)
TERM_PREFIX = 6
#: acronym lengths looked for (initials of 2..3 consecutive words)
_ACRONYM_SPANS = (2, 3)


def _words(text: str) -> list[str]:
    words = [w for w in word_tokens(text) if w not in STOPWORDS]
    return words or word_tokens(text)


def _initial(word: str) -> str:
    """A word's contribution to an acronym: short alphanumerics whole ("d1"), else the initial."""
    return word if len(word) <= 3 and any(ch.isdigit() for ch in word) else word[0]


def acronym_vocabulary(texts: Sequence[str]) -> frozenset[str]:
    """Words of 2–5 characters occurring in ``texts``: the acronyms initials may stand for."""
    return frozenset(w for t in texts for w in _words(t) if 2 <= len(w) <= 5)


def claim_terms(text: str, acronyms: frozenset[str] = frozenset()) -> list[str]:
    """The TF-IDF terms of a claim: stemmed content words plus the acronyms its word runs spell."""
    words = _words(text)
    terms = [w[:TERM_PREFIX] for w in words]
    for span in _ACRONYM_SPANS:
        for i in range(len(words) - span + 1):
            acronym = "".join(_initial(w) for w in words[i : i + span])
            if acronym in acronyms:
                terms.append(acronym[:TERM_PREFIX])
    return terms


def _unit(matrix: FloatMatrix) -> FloatMatrix:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    out: FloatMatrix = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
    return out


def tfidf_cosine(reference: Sequence[str], candidates: Sequence[str]) -> FloatMatrix:
    """Cosine of TF-IDF vectors fitted on both lists (see the module docstring), in [0, 1]."""
    texts = [*reference, *candidates]
    acronyms = acronym_vocabulary(texts)
    docs = [Counter(claim_terms(t, acronyms)) for t in texts]
    df: Counter[str] = Counter(term for d in docs for term in d)
    vocab = {term: k for k, term in enumerate(sorted(df))}
    n = len(docs)
    matrix = np.zeros((n, len(vocab)))
    for row, d in enumerate(docs):
        for term, count in d.items():
            idf = math.log((1 + n) / (1 + df[term])) + 1.0
            matrix[row, vocab[term]] = (1.0 + math.log(count)) * idf
    unit = _unit(matrix)
    out: FloatMatrix = unit[: len(reference)] @ unit[len(reference) :].T
    return out


def centred_cosine(
    embedder: Embedder, reference: Sequence[str], candidates: Sequence[str]
) -> FloatMatrix:
    """Cosine of sentence embeddings after removing the mean of all of them (the paper's topic);
    uncentred when there are fewer than 3 texts (a mean of two is the pair itself)."""
    vectors = _unit(np.asarray(embedder.encode([*reference, *candidates]), dtype=np.float64))
    if len(vectors) >= 3:
        vectors = _unit(vectors - vectors.mean(axis=0))
    out: FloatMatrix = vectors[: len(reference)] @ vectors[len(reference) :].T
    return out


def csls(scores: FloatMatrix, k: int, *, exclude: NDArray[np.bool_] | None = None) -> FloatMatrix:
    """``2 S[i, j] − r_i − c_j``: r_i (c_j) the mean of row i's (column j's) k largest values,
    the ``exclude`` pairs left out of those neighbourhoods (a row or column with nothing left
    keeps all its values)."""
    if exclude is None or not exclude.any():
        rows = np.sort(scores, axis=1)[:, -min(k, scores.shape[1]) :].mean(axis=1)
        cols = np.sort(scores, axis=0)[-min(k, scores.shape[0]) :, :].mean(axis=0)
    else:
        rows = _top_mean(scores, exclude, k)
        cols = _top_mean(scores.T, exclude.T, k)
    out: FloatMatrix = 2.0 * scores - rows[:, None] - cols[None, :]
    return out


def _top_mean(scores: FloatMatrix, exclude: NDArray[np.bool_], k: int) -> FloatMatrix:
    """Each row's mean of its k largest values not excluded (all of them when all are)."""
    masked = np.where(exclude & ~exclude.all(axis=1, keepdims=True), -np.inf, scores)
    top = np.sort(masked, axis=1)[:, -min(k, scores.shape[1]) :]
    finite = np.isfinite(top)
    total = np.where(finite, top, 0.0).sum(axis=1)
    out: FloatMatrix = total / np.maximum(finite.sum(axis=1), 1)
    return out


@dataclass(frozen=True)
class HybridScores:
    """The blended similarity ``raw`` and its hubness-corrected ``csls`` (reference × extracted)."""

    raw: FloatMatrix
    csls: FloatMatrix


def hybrid_scores(
    reference: Sequence[str],
    candidates: Sequence[str],
    *,
    embedder: Embedder | None,
    lexical_weight: float,
    k: int,
) -> HybridScores:
    """S = w · tfidf + (1 − w) · centred embedding cosine (tfidf alone without an embedder)."""
    shape = (len(reference), len(candidates))
    if not reference or not candidates:
        return HybridScores(np.zeros(shape), np.zeros(shape))
    raw = tfidf_cosine(reference, candidates)
    if embedder is not None:
        raw = lexical_weight * raw + (1.0 - lexical_weight) * centred_cosine(
            embedder, reference, candidates
        )
    return HybridScores(raw, csls(raw, k))
