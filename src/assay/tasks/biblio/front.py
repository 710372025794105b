"""Front-matter metrics of metrics version 5: title, DOI, abstract, authors, keywords.

Each function takes the predicted and gold values and returns a score in [0, 1], or None
when gold has nothing to score (the paper then counts in neither the mean nor its n).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import LCSseq, Levenshtein

from assay.matching.greedy import greedy_match
from assay.tasks.biblio.export import Author
from assay.tasks.biblio.normalize import (
    normalize_doi,
    normalize_email,
    normalize_orcid,
    title_key,
)
from assay.tasks.biblio.similarity import (
    RATIO,
    TOKEN_SET,
    TOKEN_SORT,
    similarity,
    similarity_matrix,
)
from assay.text import whitespace_tokens

_UNSPACED = re.compile(
    r"[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f]"
)


def f1_from_counts(tp: int, n_pred: int, n_gold: int) -> float:
    """F1 = 2·tp / (n_pred + n_gold); 0 when both are empty."""
    total = n_pred + n_gold
    return 2.0 * tp / total if total else 0.0


def _long_enough(key: str, min_words: int, min_chars: int) -> bool:
    if _UNSPACED.search(key):
        return len(key.replace(" ", "")) >= min_chars
    return len(key.split()) >= min_words


def title_soft(
    pred: str | None,
    gold: str | None,
    *,
    prefix_ratio: float = 0.7,
    min_words: int = 2,
    min_chars: int = 6,
) -> float | None:
    """1.0 for equal titles after case, punctuation and whitespace normalization, or when the
    shorter is a word-aligned prefix of the longer keeping ≥ ``prefix_ratio`` of its characters
    (the shorter needs ``min_words`` words, or ``min_chars`` characters in scripts written
    without spaces); else 0.0. None when gold has no title."""
    g = title_key(gold or "")
    if not g:
        return None
    p = title_key(pred or "")
    if not p:
        return 0.0
    if p == g:
        return 1.0
    short, long_ = (p, g) if len(p) <= len(g) else (g, p)
    s_words, l_words = short.split(), long_.split()
    if l_words[: len(s_words)] != s_words:
        return 0.0
    if not _long_enough(short, min_words, min_chars):
        return 0.0
    return 1.0 if len(short) / len(long_) >= prefix_ratio else 0.0


def doi_match(pred: str | None, gold: str | None) -> float | None:
    """1.0 for equal normalized DOIs; a DOI asserted against empty gold scores 0.0; both empty
    is None (nothing to score)."""
    g, p = normalize_doi(gold), normalize_doi(pred)
    if not g and not p:
        return None
    return 1.0 if g and p == g else 0.0


def rouge_l(pred: str | None, gold: str | None) -> float | None:
    """ROUGE-L F1 over whitespace tokens: LCS = longest common subsequence,
    P = LCS/|pred|, R = LCS/|gold|, F1 = 2PR/(P+R). None when gold is empty."""
    g = whitespace_tokens(gold or "")
    if not g:
        return None
    p = whitespace_tokens(pred or "")
    if not p:
        return 0.0
    lcs = LCSseq.similarity(p, g)
    if lcs == 0:
        return 0.0
    precision, recall = lcs / len(p), lcs / len(g)
    return 2 * precision * recall / (precision + recall)


def ned_similarity(pred: str | None, gold: str | None) -> float | None:
    """1 − NED, NED = Levenshtein(pred, gold) / max(|pred|, |gold|) over characters, whitespace
    collapsed (OmniDocBench's normalized edit distance). None when gold is empty."""
    g = " ".join((gold or "").split())
    if not g:
        return None
    p = " ".join((pred or "").split())
    return 1.0 - float(Levenshtein.normalized_distance(p, g))


@dataclass(frozen=True)
class AuthorMatch:
    """Author metrics of one paper and the gold → predicted index pairs of the full-name match."""

    fullname_f1: float | None
    family_f1: float | None
    first_author: float | None
    pairs: dict[int, int]


def match_authors(
    pred: Sequence[Author], gold: Sequence[Author], *, threshold: float = 85.0
) -> AuthorMatch:
    """authors_fullname_f1: F1 of a globally greedy match of full printed names
    (token_sort_ratio ≥ threshold, so the given/family split does not matter);
    authors_f1: the same over family names (ratio ≥ threshold); first_author:
    token_sort_ratio of the first authors' family names / 100. None when gold has no authors."""
    if not gold:
        return AuthorMatch(None, None, None, {})
    if not pred:
        return AuthorMatch(0.0, 0.0, 0.0, {})
    full = similarity_matrix([a.printed_name() for a in gold], [a.printed_name() for a in pred])
    full_matches = greedy_match(full * (full >= threshold), min_score=0.0)
    family = similarity_matrix(
        [a.family_name() for a in gold], [a.family_name() for a in pred], RATIO
    )
    family_matches = greedy_match(family * (family >= threshold), min_score=0.0)
    first = similarity(gold[0].family_name(), pred[0].family_name(), TOKEN_SORT) / 100.0
    return AuthorMatch(
        fullname_f1=f1_from_counts(len(full_matches), len(pred), len(gold)),
        family_f1=f1_from_counts(len(family_matches), len(pred), len(gold)),
        first_author=first,
        pairs={m.row: m.col for m in full_matches},
    )


def affiliation_sim(
    pred: Sequence[Author], gold: Sequence[Author], pairs: dict[int, int], *, floor: float = 0.0
) -> float | None:
    """Mean over gold authors with affiliations of: the mean over their gold affiliations of the
    best token_set_ratio / 100 against the matched predicted author's affiliations (0 for an
    unmatched author; a similarity below ``floor`` counts 0). None when gold has none."""
    scores = []
    for gi, author in enumerate(gold):
        if not author.affiliations:
            continue
        pa = pred[pairs[gi]].affiliations if gi in pairs else []
        per = []
        for aff in author.affiliations:
            best = max((similarity(aff, p, TOKEN_SET) for p in pa), default=0.0)
            per.append(best / 100.0 if best >= floor else 0.0)
        scores.append(sum(per) / len(per))
    return sum(scores) / len(scores) if scores else None


def set_f1(pred: set[str], gold: set[str]) -> float | None:
    """F1 between two sets of normalized values; None when gold is empty."""
    if not gold:
        return None
    return f1_from_counts(len(pred & gold), len(pred), len(gold))


def email_f1(pred: Sequence[Author], gold: Sequence[Author]) -> float | None:
    """F1 of the paper's author emails (lower-cased, mailto: removed); None without gold emails."""
    return set_f1(
        {e for a in pred if (e := normalize_email(a.email))},
        {e for a in gold if (e := normalize_email(a.email))},
    )


def orcid_f1(pred: Sequence[Author], gold: Sequence[Author]) -> float | None:
    """F1 of the paper's ORCID iDs (any URL form, checksum X upper-cased); None without gold."""
    return set_f1(
        {o for a in pred if (o := normalize_orcid(a.orcid))},
        {o for a in gold if (o := normalize_orcid(a.orcid))},
    )


def corresponding_acc(
    pred: Sequence[Author], gold: Sequence[Author], pairs: dict[int, int]
) -> float | None:
    """Share of gold authors whose corresponding flag the matched predicted author repeats (an
    unmatched author is wrong). None when gold marks no corresponding author."""
    if not any(a.corresponding for a in gold):
        return None
    correct = sum(
        1
        for gi, a in enumerate(gold)
        if gi in pairs and bool(pred[pairs[gi]].corresponding) == bool(a.corresponding)
    )
    return correct / len(gold)


def keywords_f1(pred: Sequence[str], gold: Sequence[str]) -> float | None:
    """F1 of normalized keyword sets (case, accents, punctuation ignored); None without gold."""
    return set_f1(
        {k for x in pred if (k := title_key(x))}, {k for x in gold if (k := title_key(x))}
    )
