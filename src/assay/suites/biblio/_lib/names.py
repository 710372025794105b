"""Person-name matching of the biblio suite, aligned with bibr's evaluator.

A name is compared as a *key*: lower-cased, NFKD-decomposed with combining marks dropped,
trimmed ("José  García" → "jose  garcia"). Two keys are similar by Jaro-Winkler (0-1):

``name_similarity(a, b) = max(JW(a, b), JW(sorted_tokens(a), sorted_tokens(b)))``

the sorted-token form makes a family-first byline ("oloda oluwatayo felix") equal to the
given-first one, while the raw form keeps Jaro-Winkler's tolerance for a dropped middle name.
A full name with fewer tokens than the gold name must also pass the token-coverage guard: every
gold token of two or more characters is accounted for by some candidate token — Jaro-Winkler
≥ the threshold, or one is a prefix of the other (an initial: "n" covers "nicole") — so a dropped
surname ("kaisin" vs "kaisin yee", JW 0.95 by its prefix boost alone) does not match.

Names are then matched globally greedily (highest similarity first; ties to the lower gold, then
the lower predicted index): ``assay._matching.greedy_match``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from rapidfuzz.distance import JaroWinkler

from assay._matching.greedy import greedy_match

#: Jaro-Winkler a name pair needs (bibr's 0.85)
NAME_THRESHOLD = 0.85
_PUNCT = re.compile(r"[^\w\s]")
_SPACE = re.compile(r"\s+")


@lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    """Lower case, NFKD with combining marks dropped, trimmed: what the name scorers compare."""
    text = unicodedata.normalize("NFKD", name.lower().strip())
    return "".join(c for c in text if not unicodedata.combining(c))


def strip_punctuation(text: str) -> str:
    """Punctuation to spaces, whitespace collapsed (bibr's ``[^\\w\\s]`` rule)."""
    return _SPACE.sub(" ", _PUNCT.sub(" ", text)).strip()


def name_similarity(a: str, b: str) -> float:
    """Jaro-Winkler of two name keys, the better of the printed and the sorted-token order."""
    sim = float(JaroWinkler.normalized_similarity(a, b))
    sa, sb = " ".join(sorted(a.split())), " ".join(sorted(b.split()))
    if sa == a and sb == b:
        return sim
    return max(sim, float(JaroWinkler.normalized_similarity(sa, sb)))


def _covered(token: str, candidates: Sequence[str], threshold: float) -> bool:
    for c in candidates:
        if JaroWinkler.normalized_similarity(token, c) >= threshold:
            return True
        if len(c) < len(token) and token.startswith(c):
            return True
        if len(token) < len(c) and c.startswith(token):
            return True
    return False


def tokens_covered(pred: str, gold: str, threshold: float = NAME_THRESHOLD) -> bool:
    """The token-coverage guard: a candidate with fewer tokens than gold must account for every
    gold token of two or more characters (single letters, middle initials, are exempt)."""
    p_tokens = strip_punctuation(pred).split()
    g_tokens = strip_punctuation(gold).split()
    if len(p_tokens) >= len(g_tokens):
        return True
    return all(len(t) < 2 or _covered(t, p_tokens, threshold) for t in g_tokens)


def similarity_matrix(
    gold: Sequence[str], pred: Sequence[str], *, full_names: bool, threshold: float
) -> np.ndarray:
    """(n_gold, n_pred) similarities of name keys, 0 where a pair does not qualify: below the
    threshold, or (full names) failing the token-coverage guard. Family names use plain
    Jaro-Winkler: order-insensitivity and the guard would forgive the given/family boundary
    disagreements that diagnostic exists to show."""
    out = np.zeros((len(gold), len(pred)))
    for gi, g in enumerate(gold):
        for pi, p in enumerate(pred):
            sim = (
                name_similarity(p, g)
                if full_names
                else float(JaroWinkler.normalized_similarity(p, g))
            )
            if sim < threshold or (full_names and not tokens_covered(p, g, threshold)):
                continue
            out[gi, pi] = sim
    return out


def match_names(
    gold: Sequence[str],
    pred: Sequence[str],
    *,
    full_names: bool,
    threshold: float = NAME_THRESHOLD,
) -> dict[int, int]:
    """Gold index → predicted index of the globally greedy match of name keys."""
    if not gold or not pred:
        return {}
    matrix = similarity_matrix(gold, pred, full_names=full_names, threshold=threshold)
    return {m.row: m.col for m in greedy_match(matrix, min_score=0.0)}
