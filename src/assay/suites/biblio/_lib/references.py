"""Reference metrics of metrics version 5: the matching cascade and the field accuracies.

Matching: every (gold, predicted) pair gets the weight of the first cascade level it meets —
equal DOIs 1.0 > fuzzy title 0.9 > first author + year 0.7 > citation string 0.6 — and pairs
are matched globally greedily by weight. The similarity matrices are computed with
``rapidfuzz.process.cdist``, so a paper costs a few matrix calls, not a Python double loop.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from rapidfuzz.distance import JaroWinkler

from assay._matching.greedy import greedy_match
from assay.suites.biblio._lib.export import Reference
from assay.suites.biblio._lib.names import strip_punctuation
from assay.suites.biblio._lib.normalize import extract_year, normalize_doi
from assay.suites.biblio._lib.similarity import TOKEN_SORT, similarity, similarity_matrix
from assay.suites.biblio.settings import BiblioSettings

#: the field accuracies, in the seed's order; each counts over matched pairs whose gold has it
FIELD_METRICS = (
    "ref_title_acc",
    "ref_year_acc",
    "ref_author_acc",
    "ref_journal_acc",
    "ref_volume_acc",
    "ref_pages_acc",
)
LEVELS = ("doi", "title", "author_year", "raw")


#: connector words and suffixes that are not surnames (bibr's list)
_AUTHOR_STOPWORDS = frozenset({"and", "et", "al", "jr", "sr", "ed", "eds"})
_RANGE = re.compile(r"^\s*(?P<first>.+?)\s*[-–—]\s*(?P<last>.+?)\s*$")


def _authors_printed(ref: Reference) -> str:
    """The author list as printed (bibr's ``authors`` string), else the structured authors'
    family names joined (bibr's reading of a list of authors), a family-less one whole
    (``RefAuthor.listed_name``), as the bibr 12 writer prints them: the same string whatever
    shape the export stores its authors in."""
    if ref.authors_text and ref.authors_text.strip():
        return ref.authors_text
    return " ".join(filter(None, (a.listed_name() for a in ref.authors)))


def first_surname(ref: Reference) -> str:
    """The first author's surname as bibr reads it (its ``_get_ref_author`` on what
    ``extract_comparable_from_json`` keeps): the first word (split at a comma or a space, lower
    case) of the printed author list; for a list of authors, of the first author's family name,
    else of the name as given (a group author, "National High Blood Pressure Education Program
    Working Group", or a string element, "Smith, J.").

    The same rule whatever shape the export stores its authors in, so a group author pairs the
    same way printed, as a list of dicts or as a list of strings (issue 34: the whole family
    name of a list, against the first word of a printed string, paired 27 references of 28
    where bibr pairs 28 on CERMINE's apa0100-0653)."""
    if ref.authors_text and ref.authors_text.strip():
        return _first_word(ref.authors_text)
    if not ref.authors:
        return ""
    return _first_word(ref.authors[0].listed_name())


def _first_word(text: str) -> str:
    return re.split(r"[,\s]", text.strip().lower())[0]


def surname_tokens(ref: Reference) -> list[str]:
    """Surname-like tokens of the author list: lower case, accents off, punctuation to spaces,
    words of two or more characters that are not connectors ("and", "et", "al", ...): initials
    and connectors drop out, so the printed string and the structured list tokenize alike."""
    text = unicodedata.normalize("NFKD", _authors_printed(ref).lower())
    text = strip_punctuation("".join(c for c in text if not unicodedata.combining(c)))
    return [t for t in text.split() if len(t) > 1 and t not in _AUTHOR_STOPWORDS]


def _split_range(value: str) -> tuple[str, str] | None:
    match = _RANGE.fullmatch(value)
    if match is None:
        return None
    first, last = match.group("first").strip(), match.group("last").strip()
    return (first, last) if first and last else None


def page_pair(ref: Reference) -> tuple[str, str]:
    """(first page, last page) as printed: ``first_page``/``last_page`` (a range printed in one
    of them is split at its dash), else ``pages`` split at its dash. Nothing is expanded:
    "161-82" is ("161", "82")."""
    first, last = (ref.first_page or "").strip(), (ref.last_page or "").strip()
    if not first and not last:
        pages = (ref.pages or "").strip()
        return _split_range(pages) or (pages, "")
    return _split_range(first) or _split_range(last) or (first, last)


def citation_string(ref: Reference) -> str:
    """The printed citation: ``raw`` when present, else its fields joined in citation order."""
    if ref.raw and ref.raw.strip():
        return ref.raw
    first, last = page_pair(ref)
    parts = [_authors_printed(ref), ref.year or "", ref.title or "", ref.container or ""]
    parts += [ref.volume or "", f"{first}-{last}" if last else first]
    return " ".join(p for p in parts if p)


@dataclass(frozen=True)
class RefMatching:
    """The matched (gold index, predicted index, level) triples of one paper."""

    pairs: tuple[tuple[int, int, str], ...]
    n_gold: int
    n_pred: int

    @property
    def f1(self) -> float | None:
        """ref_matching_f1 = 2·matched / (n_gold + n_pred). Gold without references: None when
        the prediction has none either, else 0.0 (invented references are wrong)."""
        if self.n_gold == 0:
            return None if self.n_pred == 0 else 0.0
        return 2.0 * len(self.pairs) / (self.n_gold + self.n_pred)

    def level_counts(self) -> dict[str, int]:
        return {level: sum(1 for *_, lv in self.pairs if lv == level) for level in LEVELS}


def cascade_weights(
    gold: Sequence[Reference], pred: Sequence[Reference], s: BiblioSettings
) -> tuple[np.ndarray, np.ndarray]:
    """(weights, level index) matrices (n_gold, n_pred): the first cascade level each pair meets.

    DOI: equal non-empty normalized DOIs. Title: token_sort_ratio of the lower-cased titles
    ≥ ref_match_title_threshold. Author + year: token_sort_ratio of the lower-cased first
    surnames (``first_surname``) ≥ ref_author_threshold and equal years.
    Citation string: token_sort_ratio of the citation strings ≥ ref_match_raw_threshold, where
    at least one side has a raw citation string (the other may be its fields joined).
    """
    g_doi = np.array([normalize_doi(r.doi) for r in gold], dtype=object)
    p_doi = np.array([normalize_doi(r.doi) for r in pred], dtype=object)
    doi = (g_doi[:, None] == p_doi[None, :]) & (g_doi != "")[:, None]
    title = similarity_matrix(
        [r.title or "" for r in gold],
        [r.title or "" for r in pred],
        cutoff=s.ref_match_title_threshold,
        lower_only=True,
    )
    title_ok = title >= s.ref_match_title_threshold
    g_first = [first_surname(r) for r in gold]
    p_first = [first_surname(r) for r in pred]
    author = (
        similarity_matrix(g_first, p_first, cutoff=s.ref_author_threshold, lower_only=True)
        >= s.ref_author_threshold
    )
    g_year = np.array([extract_year(r.year) for r in gold], dtype=object)
    p_year = np.array([extract_year(r.year) for r in pred], dtype=object)
    year = (g_year[:, None] == p_year[None, :]) & (g_year != "")[:, None]
    raw = similarity_matrix(
        [citation_string(r) for r in gold],
        [citation_string(r) for r in pred],
        cutoff=s.ref_match_raw_threshold,
    )
    g_raw = np.array([bool(r.raw and r.raw.strip()) for r in gold])
    p_raw = np.array([bool(r.raw and r.raw.strip()) for r in pred])
    raw_ok = (raw >= s.ref_match_raw_threshold) & (g_raw[:, None] | p_raw[None, :])
    conditions = [doi, title_ok & ~doi, author & year & ~doi & ~title_ok]
    conditions.append(raw_ok & ~(doi | title_ok | (author & year)))
    weights_by_level = (s.weight_doi, s.weight_title, s.weight_author_year, s.weight_raw)
    weights = np.zeros(doi.shape)
    level = np.full(doi.shape, -1, dtype=np.int64)
    for k, (cond, w) in enumerate(zip(conditions, weights_by_level, strict=True)):
        weights = np.where(cond, w, weights)
        level = np.where(cond, k, level)
    return weights, level


def match_references(
    gold: Sequence[Reference], pred: Sequence[Reference], s: BiblioSettings
) -> RefMatching:
    """The cascade weights matched globally greedily (highest weight first)."""
    if not gold or not pred:
        return RefMatching((), len(gold), len(pred))
    weights, level = cascade_weights(gold, pred, s)
    matches = greedy_match(weights, min_score=0.0)
    pairs = tuple((m.row, m.col, LEVELS[int(level[m.row, m.col])]) for m in matches)
    return RefMatching(pairs, len(gold), len(pred))


@dataclass(frozen=True)
class FieldCount:
    """One ref_*_acc of one paper: gold references with the field, matched pairs whose gold has
    it, and the correct ones among them (see ``field_score`` for the sparse rules)."""

    with_field: int
    matched: int
    correct: int

    @property
    def score(self) -> float | None:
        """None without the field in gold; 0.0 when no matched pair carries it; else
        correct / matched."""
        if self.with_field == 0:
            return None
        if self.matched == 0:
            return 0.0
        return self.correct / self.matched

    @property
    def micro(self) -> tuple[int, int]:
        """(correct, denominator) for the micro average: a paper with the field in gold but no
        matched pair carrying it adds its gold references with the field as misses."""
        if self.with_field == 0:
            return 0, 0
        if self.matched == 0:
            return 0, self.with_field
        return self.correct, self.matched


def _title_ok(g: Reference, p: Reference, s: BiblioSettings) -> bool:
    return similarity(g.title, p.title, TOKEN_SORT, lower_only=True) >= s.ref_title_threshold


def _year_ok(g: Reference, p: Reference, s: BiblioSettings) -> bool:
    return extract_year(g.year) == extract_year(p.year)


def _authors_ok(g: Reference, p: Reference, s: BiblioSettings) -> bool:
    """Every gold surname token is recalled: Jaro-Winkler ≥ ref_surname_threshold against some
    predicted token (extra predicted tokens never hurt; a dropped author fails the pair)."""
    predicted = surname_tokens(p)
    return bool(predicted) and all(
        any(JaroWinkler.normalized_similarity(t, q) >= s.ref_surname_threshold for q in predicted)
        for t in surname_tokens(g)
    )


def _journal_ok(g: Reference, p: Reference, s: BiblioSettings) -> bool:
    return (
        similarity(g.container, p.container, TOKEN_SORT, lower_only=True) >= s.ref_journal_threshold
    )


def _volume_ok(g: Reference, p: Reference, s: BiblioSettings) -> bool:
    return (g.volume or "").strip() == (p.volume or "").strip()


def _pages_ok(g: Reference, p: Reference, s: BiblioSettings) -> bool:
    """The first page as printed, and the last page when gold has one."""
    gf, gl = page_pair(g)
    pf, pl = page_pair(p)
    return gf == pf and (not gl or gl == pl)


def _has(field_name: str) -> Callable[[Reference], bool]:
    def check(r: Reference) -> bool:
        if field_name == "authors":
            return bool(surname_tokens(r))
        if field_name == "year":
            return bool(extract_year(r.year))
        if field_name == "pages":
            return bool(page_pair(r)[0])
        value = getattr(r, field_name)
        return bool(value and str(value).strip())

    return check


_FIELDS: dict[str, tuple[Callable[[Reference], bool], Callable[..., bool]]] = {
    "ref_title_acc": (_has("title"), _title_ok),
    "ref_year_acc": (_has("year"), _year_ok),
    "ref_author_acc": (_has("authors"), _authors_ok),
    "ref_journal_acc": (_has("container"), _journal_ok),
    "ref_volume_acc": (_has("volume"), _volume_ok),
    "ref_pages_acc": (_has("pages"), _pages_ok),
}


@dataclass(frozen=True)
class ReferenceScores:
    """Every reference metric of one paper, with the counts behind them."""

    matching: RefMatching
    fields: dict[str, FieldCount] = field(default_factory=dict)
    doi: FieldCount = FieldCount(0, 0, 0)

    @property
    def count_ratio(self) -> float | None:
        """ref_count_ratio = min(n_gold, n_pred) / max(n_gold, n_pred). Gold without references:
        None when the prediction has none either, else 0.0."""
        n_g, n_p = self.matching.n_gold, self.matching.n_pred
        if n_g == 0:
            return None if n_p == 0 else 0.0
        return min(n_g, n_p) / max(n_g, n_p)

    @property
    def doi_recall(self) -> float | None:
        """ref_doi_recall: gold references with a DOI recovered with that DOI / all gold
        references with a DOI (unmatched ones are misses); None when gold has no DOIs."""
        if self.doi.with_field == 0:
            return None
        return self.doi.correct / self.doi.with_field


def score_references(
    gold: Sequence[Reference], pred: Sequence[Reference], s: BiblioSettings
) -> ReferenceScores:
    """Match, then count each field over matched pairs whose gold reference has it."""
    matching = match_references(gold, pred, s)
    fields: dict[str, FieldCount] = {}
    for name, (has, ok) in _FIELDS.items():
        present = [has(g) for g in gold]
        with_field = sum(present)
        carrying = [(gi, pi) for gi, pi, _ in matching.pairs if present[gi]]
        correct = sum(1 for gi, pi in carrying if ok(gold[gi], pred[pi], s))
        fields[name] = FieldCount(with_field, len(carrying), correct)
    gold_dois = [normalize_doi(g.doi) for g in gold]
    recovered = sum(
        1
        for gi, pi, _ in matching.pairs
        if gold_dois[gi] and normalize_doi(pred[pi].doi) == gold_dois[gi]
    )
    with_doi = sum(1 for d in gold_dois if d)
    doi = FieldCount(with_doi, with_doi, recovered)
    return ReferenceScores(matching, fields, doi)
