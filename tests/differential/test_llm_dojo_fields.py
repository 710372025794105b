"""Differential test: assay's field scorers against llm-dojo-scoring v0.7.0 on CUAD's labels.

The same 13,000 (prediction, gold) pairs, built from CUAD's 510 contracts by ``cuad_pairs``, go
through assay here and through the reference package in a scratch environment
(``regen_llm_dojo``; its scores are pinned in ``llm_dojo_v070_cuad.json``, because the package is
not on PyPI). Every pair on which the two differ in the match decision (score ≥ 0.6, the
bipartite match threshold both use) must fall under one of the documented differences in
suites/extraction/docs.md, and the table there must show the counts this test computes.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from assay._fields import (
    date_candidates,
    element_similarity_matrix,
    parse_date,
    parse_money,
    score_field,
)
from assay._fields.names import non_evidence_tokens, normalized_name
from assay._fields.settings import DEFAULT_CORPORATE_SUFFIXES
from assay._fields.text import tokens
from tests.conftest import SHARED
from tests.differential.cuad_pairs import Pair, pairs, read_rows

MASTER = SHARED / "data" / "legal" / "cuad" / "master_clauses.csv"
PINNED = Path(__file__).with_name("llm_dojo_v070_cuad.json")
DOCS = Path(__file__).parents[2] / "src" / "assay" / "suites" / "extraction" / "docs.md"
THRESHOLD = 0.6
SUFFIXES = frozenset(s.lower() for s in DEFAULT_CORPORATE_SUFFIXES)
pytestmark = pytest.mark.skipif(not MASTER.is_file(), reason=f"CUAD data not found at {MASTER}")


@cache
def reference() -> dict[str, dict[str, float]]:
    data: dict[str, dict[str, float]] = json.loads(PINNED.read_text(encoding="utf-8"))
    return data


@cache
def scored() -> list[tuple[Pair, float, float]]:
    """Every pair with assay's score and the reference's."""
    ref = reference()["scores"]
    return [
        (pair, score_field(pair[2], pair[3], pair[1]).score, ref[pair[0]])
        for pair in pairs(read_rows(MASTER))
    ]


def _texts(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _toks(value: object) -> set[str]:
    return {t for text in _texts(value) for t in tokens(text)}


# The documented differences (suites/extraction/docs.md, "Where the seed and llm-dojo-scoring v0.7.0
# differ"), each a test on one pair that disagrees in the match decision.


def _articles(pair: Pair, ours: float, _ref: float) -> bool:
    """SQuAD's normalization drops a/an/the: the reference on article-free text gives ours."""
    stripped = reference()["scores_without_articles"].get(pair[0])
    return stripped is not None and abs(stripped - ours) <= 1e-6


def _one_cent(pair: Pair, _ours: float, _ref: float) -> bool:
    """Exactly one cent apart: the reference's float ``abs(a - b) <= 0.01`` rejects it."""
    p, g = parse_money(pair[2]), parse_money(pair[3])
    return p is not None and g is not None and p != g and round(abs(p - g), 2) <= 0.01


def _amount_words(pair: Pair, _ours: float, _ref: float) -> bool:
    """ "$5 million", "USD 5,000,000.00", "5000000 dollars": amounts the reference cannot parse
    and scores by its name fallback."""
    text = f"{pair[2]} {pair[3]}".lower()
    return pair[1] == "money" and re.search(r"million|thousand|dollars|usd", text) is not None


def _perpetual(pair: Pair, _ours: float, _ref: float) -> bool:
    """CUAD's expiration answer "perpetual" is an answer, not a blank template (seed §3)."""
    return pair[1] == "date" and "perpetual" in str(pair[3]).lower()


def _cuad_partial_date(pair: Pair, _ours: float, _ref: float) -> bool:
    """CUAD's ``03/[]/2018`` (day or month unknown) parses to a partial date; the reference
    falls back to fuzzy name matching of the strings."""
    return pair[1] == "date" and "[]" in f"{pair[2]} {pair[3]}"


def _date_in_prose(pair: Pair, _ours: float, _ref: float) -> bool:
    """A date written in prose ("commence on the 1st of March, 2003", "20 March day of 1998") or
    a template ("November ___, 2006") is parsed and compared as a date (seed §3: ordinal prose,
    containment, partial credit); the reference scores such text by fuzzy name matching."""
    pred = str(pair[2])
    return (
        pair[1] == "date"
        and parse_date(pair[3]) is not None
        and (bool(date_candidates(pred)) or parse_date(pred) is not None)
    )


def _non_evidence(pair: Pair, _ours: float, _ref: float) -> bool:
    """Two names (of the lists) share only tokens that are no evidence of identity: a suffix,
    stopword or role word ("Agent" / "sales agent", "you as an Affiliate" / "You"; issue 16),
    or a generic word, domain label or one- or two-character token beside a more distinctive
    one ("Collectible Concepts Group" / "The ARC Group"; issue 34)."""

    def weak(p: str, g: str) -> bool:
        pt, gt = set(normalized_name(p).split()), set(normalized_name(g).split())
        shared = pt & gt
        return bool(shared) and shared <= non_evidence_tokens(pt) & non_evidence_tokens(gt)

    return pair[1].endswith("name") and any(
        weak(p, g) for p in _texts(pair[2]) for g in _texts(pair[3])
    )


def _suffixes(pair: Pair, _ours: float, _ref: float) -> bool:
    """The reference drops corporate suffixes before comparing ("CERUS" vs "CERES"); assay
    keeps them in the string."""
    return pair[1].endswith("name") and bool((_toks(pair[2]) | _toks(pair[3])) & SUFFIXES)


def _near_threshold(_pair: Pair, ours: float, ref: float) -> bool:
    """Both within 0.05 of the threshold: rapidfuzz's Indel ratio (true LCS) against difflib's
    SequenceMatcher (a longest-block heuristic) in the token-set ratio."""
    return abs(ours - THRESHOLD) <= 0.05 and abs(ref - THRESHOLD) <= 0.05


def _assignment(pair: Pair, ours: float, ref: float) -> bool:
    """Matching maximizes the number of pairs at or above the threshold, then their similarity
    (``matching.optimal_assignment``); the reference maximizes the total similarity and then
    thresholds, so one strong pairing can block two valid ones. Checked by doing the latter on
    assay's own similarity matrix and getting the reference's F1."""
    if not pair[1].startswith("entity_list") or ours <= ref:
        return False
    pred, gold = _texts(pair[2]), _texts(pair[3])
    sim = element_similarity_matrix(pred, gold, pair[1].split(":")[1])
    rows, cols = linear_sum_assignment(-sim)
    matched = int(np.count_nonzero(sim[rows, cols] >= THRESHOLD))
    return abs(2 * matched / (len(pred) + len(gold)) - ref) <= 1e-6


def _unicode_punctuation(pair: Pair, _ours: float, _ref: float) -> bool:
    """Curly quotes and dashes are punctuation (stripped); the reference keeps them."""
    return pair[1] == "id" and not f"{pair[2]}{pair[3]}".isascii()


DIFFERENCES: dict[str, Callable[[Pair, float, float], bool]] = {
    "articles": _articles,
    "one cent": _one_cent,
    "amount words": _amount_words,
    "perpetual": _perpetual,
    "CUAD partial date": _cuad_partial_date,
    "date parsed from prose": _date_in_prose,
    "non-evidence token": _non_evidence,
    "corporate suffix": _suffixes,
    "near the threshold": _near_threshold,
    "assignment": _assignment,
    "unicode punctuation": _unicode_punctuation,
}


def classify(pair: Pair, ours: float, ref: float) -> str | None:
    """The first documented difference that explains a decision disagreement (None: none)."""
    return next((name for name, test in DIFFERENCES.items() if test(pair, ours, ref)), None)


def decision_disagreements() -> Counter[tuple[str, str | None]]:
    out: Counter[tuple[str, str | None]] = Counter()
    for pair, ours, ref in scored():
        if (ours >= THRESHOLD) != (ref >= THRESHOLD):
            out[pair[1], classify(pair, ours, ref)] += 1
    return out


def test_every_pair_has_a_pinned_reference_score() -> None:
    keys = [pair[0] for pair in pairs(read_rows(MASTER))]
    assert len(keys) == len(set(keys)) == len(reference()["scores"])


def test_every_decision_disagreement_is_a_documented_difference() -> None:
    unexplained = [
        (pair[0], round(ours, 4), ref, str(pair[2])[:80], str(pair[3])[:80])
        for pair, ours, ref in scored()
        if (ours >= THRESHOLD) != (ref >= THRESHOLD) and classify(pair, ours, ref) is None
    ]
    assert unexplained == []


def agreement_table() -> list[str]:
    """Per field type: pairs, same score (±1e-6), same match decision (the docs' first table)."""
    total: Counter[str] = Counter()
    same: Counter[str] = Counter()
    decided: Counter[str] = Counter()
    for pair, ours, ref in scored():
        total[pair[1]] += 1
        same[pair[1]] += abs(ours - ref) <= 1e-6
        decided[pair[1]] += (ours >= THRESHOLD) == (ref >= THRESHOLD)
    return [
        f"| `{kind}` | {total[kind]:,} | {same[kind]:,} | {decided[kind]:,} |"
        for kind in sorted(total)
    ]


def difference_table() -> list[str]:
    """Decision disagreements per documented difference and field type (the second table)."""
    counts = decision_disagreements()
    return [
        f"| {name} | `{kind}` | {n} |"
        for (kind, name), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0][0]))
    ]


def test_the_docs_show_the_figures_this_test_computes() -> None:
    lines = {line.strip() for line in DOCS.read_text(encoding="utf-8").splitlines()}
    missing = [row for row in agreement_table() + difference_table() if row not in lines]
    assert missing == [], "suites/extraction/docs.md is out of date; rows:\n" + "\n".join(missing)


if __name__ == "__main__":  # print the two tables for suites/extraction/docs.md
    print("\n".join(agreement_table()), "\n")
    print("\n".join(difference_table()))
