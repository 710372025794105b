"""Front-matter metrics of metrics version 5: title, DOI, abstract, authors, keywords.

Each function takes the predicted and gold values and returns a score in [0, 1], or None
when gold has nothing to score (the paper then counts in neither the mean nor its n). Where the
seed leaves a rule open, the rule is bibr's evaluator's (suites/biblio/docs.md lists each one).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import LCSseq, Levenshtein

from assay.suites.biblio._lib.export import Author
from assay.suites.biblio._lib.names import NAME_THRESHOLD, match_names, name_key, strip_punctuation
from assay.suites.biblio._lib.normalize import normalize_doi, normalize_email, normalize_orcid

_UNSPACED = re.compile(
    r"[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f]"
)


def f1_from_counts(tp: int, n_pred: int, n_gold: int) -> float:
    """F1 = 2·tp / (n_pred + n_gold); 0 when both are empty."""
    total = n_pred + n_gold
    return 2.0 * tp / total if total else 0.0


def title_key(value: str) -> str:
    """A title for title_soft: lower case, every character that is not a word character or
    whitespace to a space, whitespace collapsed (accents and case-folding beyond ``lower`` are
    kept, as bibr keeps them)."""
    return strip_punctuation(value.lower())


def _long_enough(short: str, min_words: int, min_chars: int) -> bool:
    """The shorter title may match as a prefix when it has ``min_words`` words, or, in a script
    written without spaces (Han, kana, Thai), ``min_chars`` characters."""
    if len(short.split()) >= min_words:
        return True
    return bool(_UNSPACED.search(short)) and len(short) >= min_chars


def title_soft(
    pred: str | None,
    gold: str | None,
    *,
    prefix_ratio: float = 0.7,
    min_words: int = 2,
    min_chars: int = 6,
) -> float | None:
    """1.0 for equal ``title_key``s, or when the shorter key is a prefix of the longer ending at
    a word boundary, keeps ≥ ``prefix_ratio`` of its characters and is long enough
    (``_long_enough``); else 0.0. None when gold has no title."""
    if not (gold or "").strip():
        return None
    g, p = title_key(gold or ""), title_key(pred or "")
    if p == g:
        return 1.0
    short, long_ = (g, p) if len(g) <= len(p) else (p, g)
    if not _long_enough(short, min_words, min_chars):
        return 0.0
    if len(short) < prefix_ratio * len(long_):
        return 0.0
    at_boundary = len(long_) == len(short) or long_[len(short)] == " "
    return 1.0 if long_.startswith(short) and at_boundary else 0.0


def doi_match(pred: str | None, gold: str | None) -> float | None:
    """1.0 for equal normalized DOIs; a DOI asserted against empty gold scores 0.0; both empty
    is None (nothing to score)."""
    g, p = normalize_doi(gold), normalize_doi(pred)
    if not g and not p:
        return None
    return 1.0 if g and p == g else 0.0


def rouge_l(pred: str | None, gold: str | None) -> float | None:
    """ROUGE-L F1 over lower-cased whitespace tokens: LCS = longest common subsequence,
    P = LCS/|pred|, R = LCS/|gold|, F1 = 2PR/(P+R). None when gold is empty."""
    g = (gold or "").lower().split()
    if not g:
        return None
    p = (pred or "").lower().split()
    if not p:
        return 0.0
    lcs = LCSseq.similarity(p, g)
    if lcs == 0:
        return 0.0
    precision, recall = lcs / len(p), lcs / len(g)
    return 2 * precision * recall / (precision + recall)


def ned_similarity(pred: str | None, gold: str | None) -> float | None:
    """1 − NED, NED = Levenshtein(pred, gold) / max(|pred|, |gold|) over the characters of the
    trimmed, lower-cased texts (OmniDocBench's normalized edit distance). None when gold is
    empty; 0.0 for an empty prediction."""
    g = (gold or "").strip().lower()
    if not g:
        return None
    p = (pred or "").strip().lower()
    if not p:
        return 0.0
    return float(Levenshtein.normalized_similarity(p, g))


@dataclass(frozen=True)
class AuthorMatch:
    """Author metrics of one paper and the gold → predicted index pairs of the full-name match."""

    fullname_f1: float | None
    family_f1: float | None
    first_author: float | None
    pairs: dict[int, int]


def _name_f1(gold: list[str], pred: list[str], *, full_names: bool, threshold: float) -> float:
    pairs = match_names(gold, pred, full_names=full_names, threshold=threshold)
    return f1_from_counts(len(pairs), len(pred), len(gold))


def _first_author(pred: Sequence[Author], gold: Sequence[Author]) -> float:
    g, p = gold[0].family_name().lower(), pred[0].family_name().lower()
    if not g or not p:
        return 1.0 if not g and not p else 0.0
    return float(fuzz.token_sort_ratio(p, g, processor=None)) / 100.0


def match_authors(
    pred: Sequence[Author], gold: Sequence[Author], *, threshold: float = NAME_THRESHOLD
) -> AuthorMatch:
    """authors_fullname_f1: F1 of the globally greedy match of full printed names ("given
    family" as ``name_key``s) by ``names.name_similarity`` ≥ threshold with the token-coverage
    guard, so the given/family split does not matter; authors_f1: the same over family names by
    plain Jaro-Winkler; first_author: token_sort_ratio / 100 of the lower-cased first family
    names. Gold without authors: None when the prediction has none either, else 0.0 (invented
    authors are wrong)."""
    g_full = [k for k in (name_key(a.printed_name()) for a in gold) if k]
    p_full = [k for k in (name_key(a.printed_name()) for a in pred) if k]
    if not g_full:
        empty = None if not p_full else 0.0
        return AuthorMatch(empty, empty, empty, {})
    if not p_full:
        return AuthorMatch(0.0, 0.0, 0.0, {})
    full_of = [gi for gi, a in enumerate(gold) if name_key(a.printed_name())]
    pred_of = [pi for pi, a in enumerate(pred) if name_key(a.printed_name())]
    pairs = match_names(g_full, p_full, full_names=True, threshold=threshold)
    g_fam = [k for k in (name_key(a.family_name()) for a in gold) if k]
    p_fam = [k for k in (name_key(a.family_name()) for a in pred) if k]
    return AuthorMatch(
        fullname_f1=f1_from_counts(len(pairs), len(p_full), len(g_full)),
        family_f1=_name_f1(g_fam, p_fam, full_names=False, threshold=threshold),
        first_author=_first_author(pred, gold),
        pairs={full_of[g]: pred_of[p] for g, p in pairs.items()},
    )


def _affiliation_text(author: Author) -> str:
    """An author's affiliations as one string, joined by "; " (bibr's per-author form)."""
    return "; ".join(a.strip() for a in author.affiliations if a and a.strip())


def affiliation_sim(pred: Sequence[Author], gold: Sequence[Author]) -> float | None:
    """bibr's formula: each gold author, in byline order, takes the first predicted author not
    yet taken whose case-folded family name is equal (taken even when the gold author has no
    affiliation); over gold authors with an affiliation, the mean of
    token_set_ratio(predicted, gold affiliation text) / 100 (0 without a partner). None when no
    gold author has an affiliation."""
    used: set[int] = set()
    sims: list[float] = []
    for g in gold:
        family = g.family_name().casefold()
        partner = next(
            (
                i
                for i, p in enumerate(pred)
                if i not in used and p.family_name().casefold() == family
            ),
            None,
        )
        p_text = ""
        if partner is not None:
            used.add(partner)
            p_text = _affiliation_text(pred[partner])
        g_text = _affiliation_text(g)
        if g_text:
            sims.append(float(fuzz.token_set_ratio(p_text, g_text, processor=None)) / 100.0)
    return sum(sims) / len(sims) if sims else None


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


def corresponding_acc(pred: Sequence[Author], gold: Sequence[Author]) -> float | None:
    """bibr's formula: 1.0 when the set of case-folded family names flagged corresponding equals
    gold's, else 0.0 (a producer that flags nobody scores 0). None when gold flags nobody."""

    def flagged(authors: Sequence[Author]) -> set[str]:
        return {f for a in authors if a.corresponding and (f := a.family_name().casefold())}

    g = flagged(gold)
    if not g:
        return None
    return 1.0 if flagged(pred) == g else 0.0


def keywords_f1(pred: Sequence[str], gold: Sequence[str]) -> float | None:
    """F1 of keyword sets, each case-folded with whitespace collapsed; None without gold."""
    return set_f1(
        {k for x in pred if (k := " ".join(x.split()).casefold())},
        {k for x in gold if (k := " ".join(x.split()).casefold())},
    )
