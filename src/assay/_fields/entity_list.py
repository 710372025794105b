"""Entity-list fields (seed 000 §3): similarity matrix, optimal assignment, P / R / F1.

Every predicted item is compared with every expected item by the element scorer; the Hungarian
algorithm (``assay._matching.optimal``) pairs them one-to-one over pairs at or above
``bipartite_match_threshold`` (0.6). precision = matched / n_predicted, recall = matched /
n_expected, F1 = 2PR / (P + R). A reordered list scores the same.

Partial ground truth (``partial_gt_fields``: CUAD labels sample the list, they do not exhaust
it): the score is GT coverage, the share of expected items matched or *instantiated*:

- a role-word label ("Shipper.", "the Seller") is instantiated when any party is predicted;
- a contained label, 3–6 tokens verbatim and contiguous inside a predicted item, or a defined-term
  alias quoted inside one ("Consultant" in 'Timothy Cabrera ("Consultant")'), is instantiated
  unconditionally (the containing item is the evidence).

Coverage = (instantiated labels + a maximum matching of the other labels) / n_expected: every
label a rule instantiates counts whatever the matching does, so coverage never depends on the
order of either list.

A free_text element whose expected clause is ≥ ``span_coverage_match`` (0.7) token-covered by
one predicted item matches it (seed 000 §16: a span is scored "as the scorer would: string
token coverage first"): a clause quoted inside a longer predicted item is not a miss. For the
containment element type the similarity already is that coverage.

Raw precision / recall / F1 are always kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay._fields._text import (
    STOPWORDS,
    as_text,
    is_blank,
    token_lists,
    tokens,
)
from assay._fields.containment import coverage_matrix
from assay._fields.dates import score_date_field
from assay._fields.durations import score_duration_field
from assay._fields.embedding import Embedder, rescue_matrix
from assay._fields.free_text import token_f1_matrix
from assay._fields.ids import score_id_field
from assay._fields.money import score_money_field
from assay._fields.names import name_similarity_matrix, normalized_name
from assay._fields.result import EntityListScore, FieldScore
from assay._fields.settings import DEFAULT_FIELD_SETTINGS, FieldSettings
from assay._matching.optimal import Assignment, optimal_assignment

FloatMatrix = NDArray[np.float64]
ScalarScorer = Callable[[Any, Any, FieldSettings], FieldScore]

#: element scorers without a vectorized matrix: scored pair by pair
_PAIRWISE: dict[str, ScalarScorer] = {
    "id": score_id_field,
    "date": score_date_field,
    "money": score_money_field,
    "duration": score_duration_field,
}
ELEMENT_TYPES = ("name", "free_text", "containment", "id", "date", "money", "duration")
_RESCUED = ("name", "free_text")
#: the characters that open a quoted alias (``_QUOTED``)
_QUOTE_CHARS = ('"', "“", "”", "'", "‘", "’", "(")
_QUOTED = re.compile(r"[\"“”'‘’(]\s*([^\"“”'‘’()]{1,80}?)\s*[\"“”'‘’)]")


def as_items(value: Any) -> list[str]:
    """A list field's items as texts: a list (blank items dropped), a scalar as one item.

    A list of plain strings skips the generic conversion: the same items
    (``test_as_items_equals_its_definition``), 1.9x on the benchmark's party lists."""
    if type(value) is list and set(map(type, value)) == {str}:
        # a list of plain strings (the common case): blank items dropped, nothing converted
        return [v for v in value if v.strip()]
    if is_blank(value):
        return []
    if isinstance(value, list | tuple):
        # plain strings (the common case) skip the generic conversion
        return [
            v if type(v) is str else as_text(v)
            for v in value
            if (v.strip() if type(v) is str else not is_blank(v))
        ]
    return [as_text(value)]


def element_similarity_matrix(
    pred: Sequence[str],
    gold: Sequence[str],
    element: str = "name",
    settings: FieldSettings = DEFAULT_FIELD_SETTINGS,
    *,
    embedder: Embedder | None = None,
) -> FloatMatrix:
    """Similarity of every (predicted i, expected j) pair under the element scorer.

    Entry (i, j) is ``score_<element>_field(pred[i], gold[j]).score`` — for free_text,
    raised to the coverage where expected j is ≥ ``span_coverage_match`` token-covered by
    predicted i (``covered_spans_match``); name, free_text and containment are vectorized, other
    element types are scored pair by pair. Exactly, for every type: names
    (``names.name_similarity_matrices``) and free text (``free_text.token_f1_matrix``) compute
    the scalar rule's value bit for bit since issue 34, so no value on a threshold falls on
    the other side of it (``test_matrices_equal_scalar_scorers``).
    """
    if element not in ELEMENT_TYPES:
        raise ValueError(f"unknown entity-list element type {element!r}; known: {ELEMENT_TYPES}")
    if element == "name":
        sim = name_similarity_matrix(pred, gold)
    elif element == "free_text":
        sim = covered_spans_match(token_f1_matrix(pred, gold), pred, gold, settings)
    elif element == "containment":
        sim = coverage_matrix(pred, gold)
    else:
        scorer = _PAIRWISE[element]
        sim = np.array(
            [[scorer(p, g, settings).score for g in gold] for p in pred], dtype=np.float64
        ).reshape(len(pred), len(gold))
    if element in _RESCUED:
        sim = rescue_matrix(sim, embedder, pred, gold, settings)
    return sim


def covered_spans_match(
    sim: FloatMatrix,
    pred: Sequence[str],
    gold: Sequence[str],
    settings: FieldSettings = DEFAULT_FIELD_SETTINGS,
    *,
    cov: FloatMatrix | None = None,
) -> FloatMatrix:
    """Free-text similarity with the span rule of seed 000 §16: an expected clause whose
    content tokens are ≥ ``span_coverage_match`` covered by one predicted item (the clause
    quoted inside a longer item, e.g. with its neighbouring clause) is a match —
    max(token F1, coverage) there, the token F1 elsewhere. ``cov``: the pair's
    ``coverage_matrix``, when it was computed already."""
    if not len(pred) or not len(gold):
        return sim
    if cov is None:
        cov = coverage_matrix(pred, gold)
    return np.where(cov >= settings.span_coverage_match, np.maximum(sim, cov), sim)


@lru_cache(maxsize=64)
def _role_vocabulary(role_words: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """The role words lowercased, and with the stopwords added."""
    roles = frozenset(w.lower() for w in role_words)
    return roles, roles | STOPWORDS


@lru_cache(maxsize=65536)
def _aliases(item: str) -> frozenset[str]:
    return frozenset(normalized_name(m.group(1)) for m in _QUOTED.finditer(item)) - {""}


def _instantiated(
    pred: Sequence[str], gold: Sequence[str], candidates: Iterable[int], s: FieldSettings
) -> list[tuple[int, str]]:
    """Expected items (among ``candidates``) the partial-GT rules cover, with the rule's name.

    A role-word label is one whose content tokens (stopwords removed) are all role words:
    every token is a role word or a stopword, and not every token is a stopword.

    Twins: ``_plain_instantiated_roles`` and ``_plain_contained`` in
    tests/fields/test_fields_fast_paths.py, and ``test_instantiated_equals_the_plain_rules``
    (tests/suites/extraction). ~0.1 s per 1,000 benchmark documents, most of it splitting
    ~70,000 labels (``token_lists``), which the rules need. A label equal to a whole item is
    found by a set lookup before the substring search (commit 588efc2). Tried and left out:
    four other exact rewrites and a candidate pre-filter (the same time), a regex shortlist
    of the labels (slower than splitting), splitting long labels from a prefix (two splits
    cost more than one).
    """
    _, role_or_stop = _role_vocabulary(tuple(s.role_words))
    aliases: frozenset[str] | None = None  # built on first use
    # every predicted item's tokens in one string, items fenced by NUL so that a label's
    # " a b c " can only be found inside one item: one substring search per label (the
    # items' joined tokens and the string are built on first use)
    items: list[str] | None = None
    whole: set[str] = set()
    haystack = ""
    lo, hi = s.contained_label_min_tokens, s.contained_label_max_tokens
    # labels are split into at most `limit` tokens and a rest: a longer label is never a
    # contained label, and it is a role-word label only if its first tokens already are role
    # words or stopwords (only then is it split in full)
    limit = max(hi, 0)
    found: list[tuple[int, str]] = []
    labels = list(candidates)
    heads = token_lists([gold[j] for j in labels], limit)
    for j, head in zip(labels, heads, strict=True):
        words: Sequence[str] | None = head if len(head) <= limit else None
        if words is not None:
            n = len(words)
            if lo <= n <= hi:
                if items is None:
                    items = list(map(" ".join, token_lists(pred)))
                    whole = set(items)
                phrase = " ".join(words)
                # a label equal to a whole item is inside it: one set lookup before the search
                if phrase in whole or " " + phrase + " " in (
                    haystack := haystack or "\0".join([" " + x + " " for x in items])
                ):
                    found.append((j, "contained label"))
                    continue
            if not n:
                continue
        if aliases is None:
            # one search over all items first: most lists quote nothing
            joined = "".join(pred)
            quoted = any(q in joined for q in _QUOTE_CHARS)
            aliases = frozenset().union(*map(_aliases, pred)) if quoted else frozenset()
        if aliases:
            words = words if words is not None else tokens(gold[j])
            # " ".join(words) is the label's normalized_name
            if " ".join(words) in aliases:
                found.append((j, "contained label (defined-term alias)"))
                continue
        if not pred:
            continue
        if words is None:
            if not role_or_stop.issuperset(head[:limit]):
                continue
            words = tokens(gold[j])
        if role_or_stop.issuperset(words) and not STOPWORDS.issuperset(words):
            found.append((j, "role-word label"))
    return found


#: free expected items ``_rest_matching`` augments from before it calls the solver instead
AUGMENT_LIMIT = 16


def _rest_matching(
    similarity: FloatMatrix,
    pairs: Sequence[tuple[int, int, float]],
    rest: list[int],
    instantiated: set[int],
    s: FieldSettings,
) -> int:
    """The size of a maximum matching of the predicted items to the expected items ``rest``
    over pairs at or above the threshold (what ``optimal_assignment`` of those columns finds).

    The full matching's pairs outside the ``instantiated`` columns are a matching of ``rest``;
    it is grown by augmenting paths from each unmatched column once (Kuhn's algorithm: a
    column without an augmenting path never gets one later), which leaves it maximum. With
    more than ``AUGMENT_LIMIT`` such columns the solver is run instead. Twin:
    ``optimal_assignment(similarity[:, rest], threshold).matched``
    (``test_rest_matching_equals_a_fresh_assignment``); 1.5x it on the benchmark's party
    lists with every other label instantiated (1.2 vs 1.8 ms for 64 documents).
    """
    ok = similarity[:, rest] >= s.bipartite_match_threshold
    position = {j: k for k, j in enumerate(rest)}
    col_of_row = {i: position[j] for i, j, _ in pairs if j not in instantiated}
    matched_cols = set(col_of_row.values())
    free = [k for k in np.flatnonzero(ok.any(axis=0)).tolist() if k not in matched_cols]
    if not free:
        return len(col_of_row)
    if len(free) > AUGMENT_LIMIT:
        return optimal_assignment(similarity[:, rest], s.bipartite_match_threshold).matched
    rows_of: dict[int, list[int]] = {}

    def augment(k: int, seen: set[int]) -> bool:
        if k not in rows_of:
            rows_of[k] = np.flatnonzero(ok[:, k]).tolist()
        for i in rows_of[k]:
            if i in seen:
                continue
            seen.add(i)
            if i not in col_of_row or augment(col_of_row[i], seen):
                col_of_row[i] = k
                return True
        return False

    for k in free:
        augment(k, set())
    return len(col_of_row)


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def score_entity_list(
    pred: Any,
    gold: Any,
    settings: FieldSettings = DEFAULT_FIELD_SETTINGS,
    *,
    element: str = "name",
    partial_gt: bool = False,
    embedder: Embedder | None = None,
) -> EntityListScore:
    """List score: F1 of the optimal matching, or GT coverage for partial-GT fields.

    Both lists empty → 1.0; one side empty → 0.0. See the module docstring for the rules.
    """
    p_items, g_items = as_items(pred), as_items(gold)
    kind = f"entity_list:{element}"
    n_p, n_g = len(p_items), len(g_items)
    if n_p == 0 or n_g == 0:
        score = float(n_p == n_g)
        reason = (
            "both lists empty"
            if n_p == n_g
            else ("no items predicted" if n_g else "no items expected")
        )
        return EntityListScore(
            score, reason, kind, precision=None if n_p == 0 else 0.0,
            recall=None if n_g == 0 else 0.0, f1=score if n_p == n_g else 0.0,
            n_predicted=n_p, n_expected=n_g, partial_gt=partial_gt,
        )  # fmt: skip
    sim = element_similarity_matrix(p_items, g_items, element, settings, embedder=embedder)
    return entity_list_from_similarity(
        p_items, g_items, sim, settings, element=element, partial_gt=partial_gt
    )


def entity_list_from_similarity(
    pred_items: Sequence[str],
    gold_items: Sequence[str],
    similarity: FloatMatrix,
    settings: FieldSettings = DEFAULT_FIELD_SETTINGS,
    *,
    element: str = "name",
    partial_gt: bool = False,
    assignment: Assignment | None = None,
) -> EntityListScore:
    """``score_entity_list`` from a precomputed (n_predicted × n_expected) similarity matrix of
    two non-empty item lists (so a caller that also audits the items computes it once), and
    its ``optimal_assignment`` at ``bipartite_match_threshold`` when that was computed too
    (``optimal_assignments`` of many lists)."""
    p_items, g_items = pred_items, gold_items
    n_p, n_g = len(p_items), len(g_items)
    kind = f"entity_list:{element}"
    if assignment is None:
        assignment = optimal_assignment(similarity, settings.bipartite_match_threshold)
    matched = assignment.matched
    precision, recall = matched / n_p, matched / n_g
    f1 = 2 * precision * recall / (precision + recall) if matched else 0.0
    instantiated: list[tuple[int, str]] = []
    if partial_gt:
        # labels the partial-GT rules instantiate are covered whatever the matching does; the
        # rest are covered by a maximum matching of their own, so coverage is the largest
        # possible and no reordering of either list changes it
        instantiated = _instantiated(p_items, g_items, range(n_g), settings)
        covered_by_rule = {j for j, _ in instantiated}
        rest = [j for j in range(n_g) if j not in covered_by_rule]
        if len(rest) == n_g:  # no label instantiated: the matching above is that matching
            rest_matched = matched
        elif rest:
            rest_matched = _rest_matching(
                similarity, assignment.pairs, rest, covered_by_rule, settings
            )
        else:
            rest_matched = 0
        covered = rest_matched + len(instantiated)
        score = covered / n_g
        reason = (
            f"GT coverage {covered}/{n_g} "
            f"({rest_matched} matched, {len(instantiated)} instantiated); {n_p} predicted"
        )
    else:
        score = f1
        reason = f"{matched} matched of {n_p} predicted and {n_g} expected: F1 {f1:.3f}"
    return EntityListScore(
        score,
        reason,
        kind,
        precision=precision,
        recall=recall,
        f1=f1,
        n_predicted=n_p,
        n_expected=n_g,
        matched=matched,
        pairs=assignment.pairs,
        instantiated=tuple(instantiated),
        partial_gt=partial_gt,
    )
