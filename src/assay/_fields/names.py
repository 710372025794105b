"""Name fields (seed 000 §3): containment first, then max(Jaro–Winkler, token-set ratio).

Jaro–Winkler is trusted only when the two token sets share a token of evidence: it is
dangerously lenient on disjoint short-vs-long names. Strings are compared in the normalized
form of ``assay._text.word_tokens`` joined by spaces (a dotted corporate suffix collapsed
first: "L.P." is "lp", :mod:`assay._fields.suffixes`), and rapidfuzz is called with
``processor=None`` so no second, different normalization happens inside it.

The rules, in order (``name_similarity``; issue 16 and issue 34 for what is assay's own):

1. an empty side: 1.0 against another empty side, else 0.0;
2. **defined-term alias**: one side, whole, is a term the other defines in quotes
   ('United Airlines, Inc. ("Sponsor")' and "Sponsor"): 1.0 — what the seed's containment and
   token-set ratio give this shape, which rule 3 would otherwise deny;
3. **no evidence shared**: when every token the two share is no evidence of identity on both
   sides (``non_evidence_tokens``: corporate suffixes, stopwords and role words always; domain
   labels, generic business words and tokens of one or two characters in a name that has a
   more distinctive token), the pair scores as if it shared nothing: the Indel similarity of
   what each side has alone;
4. containment: every expected token in the prediction → 1.0;
5. max(Jaro–Winkler, token-set ratio).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from functools import lru_cache
from itertools import chain, count
from typing import Any

import numpy as np
from numpy.typing import NDArray
from rapidfuzz import fuzz, process
from rapidfuzz.distance import Indel, JaroWinkler

from assay._fields import _order
from assay._fields._order import unique_inverse
from assay._fields._text import (
    FENCED_BYTE_WORDS,
    LOW_BYTES,
    STOPWORDS,
    as_text,
    is_blank,
    key_pairs,
    token_lists,
    tokens,
)
from assay._fields.embedding import Embedder, rescue
from assay._fields.result import FieldScore
from assay._fields.settings import (
    DEFAULT_CORPORATE_SUFFIXES,
    DEFAULT_FIELD_SETTINGS,
    DEFAULT_ROLE_WORDS,
    FieldSettings,
)
from assay._fields.suffixes import collapse_dotted_suffixes

FloatMatrix = NDArray[np.float64]

#: tokens that are never the evidence of name identity (issue 16, case 1): corporate suffixes
#: ("Inc", "Corp", "LLC", "SpA", "Holdings"), stopwords and bare role words. A pair whose only
#: shared tokens are these is scored as a pair sharing no token: no containment, no
#: Jaro–Winkler, the token-set ratio of disjoint sets (the Indel similarity of the sorted token
#: strings).
NON_EVIDENCE_TOKENS = frozenset(
    {w.lower() for w in DEFAULT_CORPORATE_SUFFIXES} | STOPWORDS | set(DEFAULT_ROLE_WORDS)
)
#: domain labels: "About.com, Inc." and "ebix.com, Inc." share "com" and nothing else
DOMAIN_LABELS = frozenset({"com", "net", "org", "biz", "info"})
#: words many distinct firms' names hold (chosen from the most frequent tokens of CUAD's party
#: names, issue 34): no evidence in a name that has a more distinctive token
GENERIC_NAME_WORDS = frozenset({
    "america", "american", "bank", "capital", "communication", "communications", "energy",
    "enterprise", "enterprises", "financial", "fund", "global", "health", "industries",
    "industry", "international", "lab", "laboratories", "laboratory", "labs", "media",
    "network", "networks", "partners", "pharmaceutical", "pharmaceuticals", "resources",
    "service", "services", "software", "solutions", "system", "systems", "technologies",
    "technology", "trust", "usa", "ventures",
})  # fmt: skip
#: the most characters of a token that is no evidence in a name with a longer one ("e" of
#: "e.l.f.", "ab" of "AB Wately")
SHORT_TOKEN = 2


def is_weak_token(token: str) -> bool:
    """A token that is evidence of identity only in a name without a more distinctive one: a
    domain label, a generic business word, or one or two characters."""
    return len(token) <= SHORT_TOKEN or token in DOMAIN_LABELS or token in GENERIC_NAME_WORDS


def non_evidence_tokens(name_tokens: Collection[str]) -> frozenset[str]:
    """The tokens of one name that are no evidence of its identity: ``NON_EVIDENCE_TOKENS``
    always; its weak tokens (``is_weak_token``) when it has another token besides them
    ("Sanofi Pasteur" makes "sa" nothing; "Health Net" and "3M" keep theirs: they are the
    name)."""
    fixed = NON_EVIDENCE_TOKENS.intersection(name_tokens)
    weak = {t for t in name_tokens if t not in fixed and is_weak_token(t)}
    if weak and len(fixed) + len(weak) < len(set(name_tokens)):
        return fixed | weak
    return fixed


#: a term defined in quotes: ("Sponsor"), (the "Company"), “Agent”
_DEFINED = re.compile(r"[\"“”]\s*([^\"“”()]{1,80}?)\s*[\"“”]")


@lru_cache(maxsize=65536)
def defined_terms(text: str) -> frozenset[str]:
    """The normalized terms ``text`` defines in double quotes ('United Airlines, Inc.
    ("Sponsor")' → {"sponsor"}), each also without a leading "the" ('("the Customer")' →
    {"the customer", "customer"}); empty for most names."""
    if '"' not in text and "“" not in text and "”" not in text:
        return frozenset()
    terms = {normalized_name(m.group(1)) for m in _DEFINED.finditer(text)}
    terms |= {t[4:] for t in terms if t.startswith("the ")}
    return frozenset(terms - {""})


@lru_cache(maxsize=65536)
def normalized_name(text: str) -> str:
    """Lowercased, accent-free tokens joined by single spaces, a dotted corporate suffix
    collapsed ("ACME, Inc." → "acme inc", "Borealis L.P." → "borealis lp")."""
    return " ".join(tokens(collapse_dotted_suffixes(text)))


def name_similarity(pred: str, gold: str) -> tuple[float, str]:
    """The name similarity in [0, 1] and which rule produced it (see the module docstring)."""
    p, g = normalized_name(pred), normalized_name(gold)
    if not p or not g:
        return float(p == g), "empty"
    if p in defined_terms(gold) or g in defined_terms(pred):
        return 1.0, "defined-term alias"
    ptoks, gtoks = set(p.split()), set(g.split())
    shared = ptoks & gtoks
    if not shared - (non_evidence_tokens(ptoks) & non_evidence_tokens(gtoks)):
        # no shared token, or only suffixes / stopwords / role words / weak tokens: the
        # token-set ratio's difference term alone (for disjoint sets, the ratio itself)
        tsr = _difference_ratio(ptoks, gtoks)
        note = " (shared only non-name tokens)" if shared else ""
        return tsr, f"token-set ratio {tsr:.3f}{note}"
    if gtoks <= ptoks:
        return 1.0, "every expected token in the prediction"
    tsr = fuzz.token_set_ratio(p, g, processor=None) / 100.0
    jw = _jaro_winkler(p, g)
    if jw > tsr:
        return jw, f"Jaro–Winkler {jw:.3f}"
    return tsr, f"token-set ratio {tsr:.3f}"


def _jaro_winkler(a: str, b: str) -> float:
    """Jaro–Winkler of two normalized names, by rapidfuzz's scalar function."""
    return float(JaroWinkler.normalized_similarity(a, b, processor=None))


def _difference_ratio(a: set[str] | frozenset[str], b: set[str] | frozenset[str]) -> float:
    """Indel similarity of the sorted tokens only ``a`` has and the sorted tokens only ``b``
    has: what a pair sharing no name token is worth (1.0 when neither has a token of its own)."""
    return float(
        Indel.normalized_similarity(
            " ".join(sorted(a - b)), " ".join(sorted(b - a)), processor=None
        )
    )


def score_name_field(
    pred: Any,
    gold: Any,
    settings: FieldSettings = DEFAULT_FIELD_SETTINGS,
    *,
    embedder: Embedder | None = None,
) -> FieldScore:
    """1.0 when every expected token is in the prediction, else max(JW if tokens shared, TSR);
    with an embedder, a score below ``embedding_rescue_below`` becomes max(score, cosine).

    "FRANCHISE AGREEMENT" inside "Goosehead Insurance Agency, LLC Franchise Agreement" → 1.0.
    """
    if is_blank(pred):
        return FieldScore(float(is_blank(gold)), "no prediction", "name")
    ptext, gtext = as_text(pred), as_text(gold)
    score, reason = name_similarity(ptext, gtext)
    score, rescued = rescue(score, ptext, gtext, embedder, settings)
    if rescued:
        reason = f"embedding cosine {score:.3f} (string: {reason})"
    return FieldScore(score, reason, "name")


#: how far below the best term so far a pair's token-set ratio bound may be and the ratio still
#: be computed: wider than any rounding between the bound and rapidfuzz's ratio, so a ratio
#: left uncomputed is below the best term and changes no entry
_BOUND_SLACK = 1e-9
_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"
#: histogram bin of each code point below 128 (a-z, 0-9, else the last, "other" bin); code
#: points from 128 up are clipped to index 128, the "other" bin
_BINS = np.array(
    [_ALPHABET.find(chr(c)) if chr(c) in _ALPHABET else len(_ALPHABET) for c in range(128)]
    + [len(_ALPHABET)],
    dtype=np.int64,
)


def name_similarity_matrix(pred: Sequence[str], gold: Sequence[str]) -> FloatMatrix:
    """``name_similarity`` for every (predicted, expected) pair (``name_similarity_matrices``)."""
    return name_similarity_matrices([(pred, gold)])[0]


def name_similarity_matrices(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
) -> list[FloatMatrix]:
    """``name_similarity`` for every (predicted, expected) pair of every list pair, bit for bit.

    Every pair of every list pair is one entry of flat arrays, so the numpy and rapidfuzz calls
    are a fixed number per batch. From the batch's distinct strings (``_NameTable``): shared
    tokens and their characters by one join of the token occurrences on (list pair, token)
    (``key_pairs``), so only pairs of the same list pair share a token, and which of them are
    evidence (``non_evidence_tokens``, per string); containment; the token-set ratio's
    length-only terms ``sect`` vs ``sect + diff``; for disjoint pairs the ratio itself, the
    Indel similarity of the sorted token strings; Jaro–Winkler where tokens are shared; the
    defined-term aliases (``_defined_term_pairs``). The remaining term, the Indel similarity of
    the two ``diff`` strings, is computed only where its upper bound (from the L1 distance of
    character histograms, a lower bound on the Indel distance) is within ``_BOUND_SLACK`` of
    the best other term or above it: a term left uncomputed is below that term, so it changes
    no entry.

    Exact (issue 34): rapidfuzz's ``cdist``/``cpdist`` are asked for float64 (they returned
    float32 before, each value up to 3.8e-8 off the scalar's, in 65-82% of the cells, so a
    Jaro–Winkler of exactly 0.7 fell under ``embedding_rescue_below`` here and not in the
    scalar rule); the length terms use rapidfuzz's own arithmetic (a [0, 100] score, then
    / 100); Jaro–Winkler comes from rapidfuzz's scalar function pair by pair (its batch
    kernel rounded 8 of 31,628 CUAD party cells one ulp otherwise). Checked on every cell of
    CUAD's party lists and of random strings (``test_the_batch_is_the_scalar_rule_bit_for_bit``)
    and on a similarity exactly on the rescue threshold
    (``test_a_similarity_on_the_rescue_threshold_decides_as_the_scalar_rule``). The same time
    as before on those lists (34.7 vs 35.4 ms, 31,628 cells).

    Twin: ``name_similarity`` cell by cell (``test_name_matrix_equals_the_pairwise_rule``,
    tests/fields/test_fields_fast_paths.py); 17x it on 64 benchmark documents' party lists
    (9.6 vs 165 ms, 70,883 cells). Why: the name matrices were the largest kernel of
    extraction's ``score_batch`` (15-20% of it). They went 0.80 → 0.46-0.50 ms a benchmark
    document when only the pairs sharing a name token (6% of a document's ~1,130) carried
    the token-set terms (commit 9099326); 0.23 → 0.17 s per 1,000 documents (0517d01); then
    ~0.75x (d00774c, the table) and ~0.85-0.9x (557333f, the histograms): ~0.65x together.
    """
    sizes = [(len(p), len(g)) for p, g in pairs]
    if not any(n and m for n, m in sizes):
        return [np.zeros(size, dtype=np.float64) for size in sizes]
    pred = [x for p, _ in pairs for x in p]
    gold = [x for _, g in pairs for x in g]
    n_pairs = np.array([n * m for n, m in sizes], dtype=np.int64)
    m_of = np.array([m for _, m in sizes], dtype=np.int64)
    p_start = np.cumsum([0] + [n for n, _ in sizes])[:-1]
    g_start = np.cumsum([0] + [m for _, m in sizes])[:-1]
    pair_start = np.cumsum(n_pairs) - n_pairs
    size = int(n_pairs.sum())

    def pair_of(k: NDArray[np.int64]) -> NDArray[np.int64]:
        """The list pair d of each flat pair ``k``."""
        return np.searchsorted(pair_start, k, side="right") - 1  # empty pairs share a start

    def strings_of(k: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The predicted and expected string of each flat pair ``k`` (entry k of the flat
        arrays: list pair d, its row-major cell k - pair_start[d]); only the pairs that need
        more than the shared-token counts are located, not all of them."""
        d = pair_of(k)
        local, width = k - pair_start[d], np.maximum(m_of[d], 1)
        return p_start[d] + local // width, g_start[d] + local % width

    table = _NameTable(pred + gold)
    p_str, g_str = table.of[: len(pred)], table.of[len(pred) :]
    p_n, g_n = table.n_tokens[p_str], table.n_tokens[g_str]
    p_chars, g_chars = table.chars[p_str], table.chars[g_str]
    # a shared token counts as evidence only when it is a name token (not a suffix, stopword
    # or role word); only when both sides have such tokens can a shared one be one of them
    mixed = bool(table.has_non_evidence[p_str].any() and table.has_non_evidence[g_str].any())
    p_doc = np.repeat(np.arange(len(sizes), dtype=np.int64), [n for n, _ in sizes])
    g_doc = np.repeat(np.arange(len(sizes), dtype=np.int64), [m for _, m in sizes])
    at, shared, sect_chars, ev_shared = _shared_tokens(
        table, (p_str, p_doc, p_start), (g_str, g_doc, g_start), pair_start, m_of, size,
        evidence=mixed,
    )  # fmt: skip
    # the pairs sharing a name token (``idx``), and those sharing only non-evidence tokens
    idx, sh, sc = at, shared, sect_chars
    weak, w_shared = at[:0], shared[:0]
    if ev_shared is not None:
        named = ev_shared > 0
        idx, sh, sc = at[named], shared[named], sect_chars[named]
        weak, w_shared = at[~named], shared[~named]
    # the token-set ratio's length terms, only where a name token is shared (elsewhere the
    # whole-batch formula gave 0.0): the same elementwise arithmetic on those entries
    pi, gj = strings_of(idx)
    n_a, n_b = p_n[pi], g_n[gj]
    chars_a, chars_b = p_chars[pi], g_chars[gj]
    n_ab, n_ba = n_a - sh, n_b - sh
    ab_len = chars_a - sc + np.maximum(n_ab - 1, 0)
    ba_len = chars_b - sc + np.maximum(n_ba - 1, 0)
    sect_len = sc + np.maximum(sh - 1, 0)
    one = np.ones(idx.size, dtype=np.bool_)  # ``has`` on these entries
    sect_ab_len = sect_len + one + ab_len
    sect_ba_len = sect_len + one + ba_len
    with np.errstate(divide="ignore", invalid="ignore"):
        # rapidfuzz's arithmetic (a score in [0, 100], then / 100 as the scalar rule), so the
        # entry is the scalar's bit for bit
        sab = (100 - 100 * (one + ab_len) / (sect_len + sect_ab_len)) / 100.0
        sba = (100 - 100 * (one + ba_len) / (sect_len + sect_ba_len)) / 100.0
    # pairs sharing only suffixes / stopwords / role words ("weak"): the difference term
    # alone, the Indel similarity of the two evidence strings unless one string has a
    # non-evidence token the other lacks (``odd``: fewer shared tokens than it has)
    w_rows, w_cols = strings_of(weak)
    w_p, w_g = p_str[w_rows], g_str[w_cols]
    odd = (w_shared != table.n_non_evidence[w_p]) | (w_shared != table.n_non_evidence[w_g])
    common = weak[~odd]
    # disjoint pairs: the token-set ratio is the Indel similarity of the sorted token
    # strings; both by rapidfuzz's cdist per list pair (its many-strings kernel beats a flat
    # cpdist, even counting the entries it computes for nothing)
    n_pairs_of = n_pairs.tolist()
    n_has = np.bincount(pair_of(idx), minlength=len(sizes)).tolist()
    n_common = np.bincount(pair_of(common), minlength=len(sizes)).tolist()
    indel = np.zeros(size, dtype=np.float64)
    by_evidence = np.zeros(size if common.size else 0, dtype=np.float64)
    sorted_string = np.array(table.sorted_string, dtype=object)
    sp, sg = sorted_string[p_str].tolist(), sorted_string[g_str].tolist()
    if common.size:
        evidence_string = np.array(table.evidence_string, dtype=object)
        ep, eg = evidence_string[p_str].tolist(), evidence_string[g_str].tolist()
    starts = zip(pair_start.tolist(), p_start.tolist(), g_start.tolist(), strict=True)
    for d, (lo, p0, g0) in enumerate(starts):
        if n_has[d] == n_pairs_of[d]:  # no disjoint pair (or no pair)
            continue
        (n, m), hi = sizes[d], lo + n_pairs_of[d]
        indel[lo:hi] = process.cdist(
            sp[p0 : p0 + n],
            sg[g0 : g0 + m],
            scorer=Indel.normalized_similarity,
            processor=None,
            dtype=np.float64,
        ).ravel()
        if n_common[d]:
            by_evidence[lo:hi] = process.cdist(
                ep[p0 : p0 + n],
                eg[g0 : g0 + m],
                scorer=Indel.normalized_similarity,
                processor=None,
                dtype=np.float64,
            ).ravel()
    best = indel  # disjoint pairs; the others are set below
    best[idx] = np.maximum(sab, sba)
    best[common] = by_evidence[common]
    if odd.any():
        o_p, o_g = w_p[odd].tolist(), w_g[odd].tolist()
        at = np.arange(len(o_p), dtype=np.int64)
        best[weak[odd]] = _difference_ratios(
            list(map(table.distinct_tokens, o_p)), list(map(table.distinct_tokens, o_g)), at, at
        )
    within = (n_ba == 0) | (n_ab == 0)  # of the entries ``idx``: contained pairs
    contained = idx[within]
    part = ~within
    partial = idx[part]
    if partial.size:
        # Jaro–Winkler (float32, as rapidfuzz returns it) where tokens are shared; contained
        # pairs score 1.0 whatever it says
        normalized = np.array(table.normalized, dtype=object)
        rows, cols = pi[part], gj[part]
        p_rows, g_cols = normalized[p_str[rows]], normalized[g_str[cols]]
        # Jaro–Winkler by rapidfuzz's scalar function, pair by pair: its batch kernels
        # (cpdist) round some values one ulp otherwise (8 of 31,628 CUAD party cells), and
        # this entry must be the scalar rule's bit for bit; these pairs are the few that
        # share a name token without containment
        jw = np.fromiter(
            map(_jaro_winkler, p_rows.tolist(), g_cols.tolist()),
            dtype=np.float64,
            count=p_rows.size,
        )
        best[partial] = np.maximum(best[partial], jw)
        # the difference term is at most 1 - l1 / total, l1 the L1 distance of the diff
        # strings' character histograms (at least their Indel distance; the histograms differ
        # exactly as the two token sets' do) plus their space-count difference: it is computed
        # only where that bound exceeds every other term. (No length-only bound first: l1 is
        # at least the length difference, so that bound drops no pair this one keeps, and it
        # dropped almost none.)
        total = (sect_ab_len + sect_ba_len)[part]
        spaces = np.abs(n_ab - n_ba)[part]
        a, b = p_str[rows], g_str[cols]
        asked = np.zeros(table.n_tokens.size, dtype=np.bool_)
        asked[a] = asked[b] = True
        which = np.flatnonzero(asked)
        slot = np.zeros(asked.size, dtype=np.int64)
        slot[which] = np.arange(which.size)
        hist = table.histograms(which)
        l1 = np.abs(hist[slot[a]] - hist[slot[b]]).sum(1) + spaces
        with np.errstate(divide="ignore", invalid="ignore"):
            upper = np.where(total > 0, 1 - l1 / total, 0.0)
        need = np.flatnonzero(upper > best[partial] - _BOUND_SLACK)
        if need.size:
            tsr = process.cpdist(
                p_rows[need].tolist(),
                g_cols[need].tolist(),
                scorer=fuzz.token_set_ratio,
                processor=None,
                dtype=np.float64,
            )
            at = partial[need]
            best[at] = np.maximum(best[at], np.asarray(tsr, dtype=np.float64) / 100.0)
    best[contained] = 1.0
    _defined_term_pairs(best, table, p_str, g_str, sizes, pair_start, p_start, g_start)
    if not (p_n.all() and g_n.all()):
        # a string without tokens: 0.0 against any string, 1.0 against another such string
        e_rows, e_cols = strings_of(np.arange(size, dtype=np.int64))
        empty_p, empty_g = p_n[e_rows] == 0, g_n[e_cols] == 0
        best[empty_p | empty_g] = 0.0
        best[empty_p & empty_g] = 1.0
    return [
        best[start : start + n * m].reshape(n, m)
        for start, (n, m) in zip(pair_start.tolist(), sizes, strict=True)
    ]


def _defined_term_pairs(
    best: FloatMatrix,
    table: _NameTable,
    p_str: NDArray[np.int64],
    g_str: NDArray[np.int64],
    sizes: Sequence[tuple[int, int]],
    pair_start: NDArray[np.int64],
    p_start: NDArray[np.int64],
    g_start: NDArray[np.int64],
) -> None:
    """1.0 in ``best`` for every pair one of whose strings is a term the other defines in
    quotes (``name_similarity``'s rule 2), pair by pair over the list pairs holding a string
    that defines one: such lists are few and short (a contract's parties)."""
    terms = table.terms
    has = np.fromiter(map(bool, terms), np.bool_, len(terms))
    if not has.any():
        return
    p_has, g_has = has[p_str], has[g_str]
    normalized = table.normalized
    for d, (n, m) in enumerate(sizes):
        p0, g0, lo = int(p_start[d]), int(g_start[d]), int(pair_start[d])
        if not (n and m and (p_has[p0 : p0 + n].any() or g_has[g0 : g0 + m].any())):
            continue
        rows, cols = p_str[p0 : p0 + n].tolist(), g_str[g0 : g0 + m].tolist()
        for i, a in enumerate(rows):
            for j, b in enumerate(cols):
                if normalized[a] in terms[b] or normalized[b] in terms[a]:
                    best[lo + i * m + j] = 1.0


#: most distinct non-evidence tokens ``_difference_ratios`` sets as bits of one int64 mask
_MASK_BITS = 62


def _difference_ratios(
    ptoks: Sequence[Sequence[str]],
    gtoks: Sequence[Sequence[str]],
    rows: NDArray[np.int64],
    cols: NDArray[np.int64],
    *,
    non_evidence: tuple[Sequence[frozenset[str]], Sequence[frozenset[str]]] | None = None,
    evidence_strings: tuple[Sequence[str], Sequence[str]] | None = None,
) -> FloatMatrix:
    """``_difference_ratio`` of every (ptoks[rows[k]], gtoks[cols[k]]) pair that shares only
    non-evidence tokens, with one rapidfuzz call (in float64, as the scalar function).

    Such a pair's tokens of its own are each string's sorted distinct tokens without the
    shared ones, and the shared ones are non-evidence tokens: the bits of a mask over the
    batch's non-evidence tokens (the AND of the two strings' masks). When the mask holds all
    the string's non-evidence tokens (the common case: one suffix), what is left are its
    evidence tokens joined (``evidence_strings``, each side's strings' tokens without the
    non-evidence ones joined by spaces); the other (string, mask)s are joined once each.
    ``non_evidence`` (each string's non-evidence tokens) and ``evidence_strings`` are
    computed here when not given.

    Twin: ``_difference_ratio`` pair by pair, exactly
    (``test_difference_ratios_equal_the_scalar_ratio``); 2.2x it on 20,000 such pairs of
    the benchmark's party names (20.6 vs 45.0 ms). Why: ~158,000 pairs per 1,000 benchmark
    documents share only a suffix, each a Python call before (commit 2c30652). Tried and
    left out: a block ``cdist`` of evidence strings (as costly as this one ``cpdist``).
    """
    if non_evidence is None:
        non_evidence = (
            [non_evidence_tokens(t) for t in ptoks],
            [non_evidence_tokens(t) for t in gtoks],
        )
    p_ne, g_ne = non_evidence
    sets = {*p_ne, *g_ne}  # the distinct non-evidence sets: most strings share a few
    present = sorted(frozenset().union(*sets))
    bits = len(present)
    if bits > _MASK_BITS or max(len(ptoks), len(gtoks)) >= 1 << (_MASK_BITS - bits):
        return np.array(
            [
                _difference_ratio(frozenset(ptoks[a]), frozenset(gtoks[b]))
                for a, b in zip(rows.tolist(), cols.tolist(), strict=True)
            ],
            dtype=np.float64,
        )
    bit = {t: 1 << k for k, t in enumerate(present)}
    mask = {ne: sum(map(bit.__getitem__, ne)) for ne in sets}  # each distinct set's once
    p_full = np.fromiter(map(mask.__getitem__, p_ne), dtype=np.int64, count=len(p_ne))
    g_full = np.fromiter(map(mask.__getitem__, g_ne), dtype=np.int64, count=len(g_ne))
    shared = p_full[rows] & g_full[cols]
    strings = evidence_strings
    if strings is None:
        strings = (
            [
                " ".join(t for t in toks if t not in ne)
                for toks, ne in zip(ptoks, p_ne, strict=True)
            ],
            [
                " ".join(t for t in toks if t not in ne)
                for toks, ne in zip(gtoks, g_ne, strict=True)
            ],
        )

    def own(
        toks: Sequence[Sequence[str]],
        joined: Sequence[str],
        full: NDArray[np.int64],
        which: NDArray[np.int64],
    ) -> list[str]:
        out = np.array(joined, dtype=object)[which]
        rare = np.flatnonzero(shared != full[which])
        if rare.size:
            seen: dict[tuple[int, int], str] = {}
            for k, r, m in zip(
                rare.tolist(), which[rare].tolist(), shared[rare].tolist(), strict=True
            ):
                text = seen.get((r, m))
                if text is None:
                    text = " ".join(t for t in toks[r] if not bit.get(t, 0) & m)
                    seen[(r, m)] = text
                out[k] = text
        result: list[str] = out.tolist()
        return result

    ratios: FloatMatrix = process.cpdist(
        own(ptoks, strings[0], p_full, rows),
        own(gtoks, strings[1], g_full, cols),
        scorer=Indel.normalized_similarity,
        processor=None,
        dtype=np.float64,
    )
    return ratios


def _token_ids(
    texts: Sequence[str],
) -> tuple[list[str], NDArray[np.int64], NDArray[np.int64], list[str]]:
    """The tokens (``tokens``) of every text as ids of their distinct words: the words (in no
    particular order), each token's text and word id (the texts' tokens end to end, in
    order), and each text's tokens joined by spaces (``normalized_name``).

    ASCII texts without NUL by whole-batch operations on their bytes (``_ascii_token_ids``);
    the others, or when those fail, word by word through ``token_lists`` (the twin:
    ``test_token_ids_are_each_texts_tokens``, and the hash fallback forced by
    ``test_ascii_token_ids_fall_back_when_words_hash_alike``).
    """
    fast = _ascii_token_ids(texts)
    if fast is not None:
        return fast
    toks = token_lists(texts)
    n_occ = np.fromiter(map(len, toks), np.int64, len(toks))
    vocab: dict[str, int] = {}  # each word's first position
    pos = np.fromiter(
        map(vocab.setdefault, chain.from_iterable(toks), count()), np.int64, int(n_occ.sum())
    )
    compact = np.zeros(pos.size, dtype=np.int64)
    compact[np.fromiter(vocab.values(), np.int64, len(vocab))] = np.arange(len(vocab))
    owner = np.repeat(np.arange(len(toks), dtype=np.int64), n_occ)
    return list(vocab), owner, compact[pos], list(map(" ".join, toks))


def _ascii_token_ids(
    texts: Sequence[str],
) -> tuple[list[str], NDArray[np.int64], NDArray[np.int64], list[str]] | None:
    """``_token_ids`` of ASCII texts without NUL, or None for other texts (and words of more
    than 24 characters, or two words hashed alike).

    The texts joined by NUL are byte-translated as ``token_lists`` does (a token is then a
    run of bytes above the space); each token's bytes, zero-padded to three 8-byte words,
    are hashed to 32 bits and tokens grouped by the hash, checked against the bytes.
    """
    joined = "\0".join(texts)
    if not (texts and joined.isascii() and joined.count("\0") == len(texts) - 1):
        return None
    raw = np.frombuffer(joined.encode("ascii").translate(FENCED_BYTE_WORDS), dtype=np.uint8)
    word = np.zeros(raw.size + 2, dtype=np.int8)
    np.greater(raw, 32, out=word[1:-1])
    edge = word[1:] - word[:-1]
    starts, ends = np.flatnonzero(edge == 1), np.flatnonzero(edge == -1)
    owner = np.searchsorted(np.flatnonzero(raw == 0), starts, side="right")  # NULs before
    lengths = ends - starts
    n_cols = -(-int(lengths.max(initial=1)) // 8)
    mix = _order.MIX  # read at each call (a test makes words hash alike)
    if n_cols > mix.size:
        return None
    # each token's bytes as n_cols little-endian 8-byte words, zero past its end: read through
    # a view of the bytes with an 8-byte item at every byte offset
    padded = np.zeros(raw.size + 8 * n_cols, dtype=np.uint8)
    padded[: raw.size] = raw
    at = np.ndarray((padded.size - 7,), dtype="<u8", buffer=padded, strides=(1,))
    columns = [
        at[starts + 8 * c] & LOW_BYTES[np.clip(lengths - 8 * c, 0, 8)] for c in range(n_cols)
    ]
    mixed = columns[0] * mix[0]
    for column, m in zip(columns[1:], mix[1:], strict=False):
        mixed += column * m
    _, ids = unique_inverse((mixed >> np.uint64(32)).astype(np.int64), 1 << 32)
    n_words = int(ids.max(initial=-1)) + 1
    first = np.zeros(n_words, dtype=np.int64)
    first[ids[::-1]] = np.arange(ids.size - 1, -1, -1)  # each word's first token
    if any((column != column[first[ids]]).any() for column in columns):
        return None  # two words hashed alike
    # the words: their first tokens' bytes, each NUL-padded, then split apart
    spelled = np.zeros((n_words, 8 * n_cols + 1), dtype=np.uint8)
    spelled[:, :-1] = np.stack([column[first] for column in columns], axis=1).view(np.uint8)
    words = spelled.tobytes().decode("ascii").replace("\0", " ").split()
    # the tokens joined: word bytes, NULs, and the space before each text's later tokens
    keep = raw != 32
    keep[starts[1:][owner[1:] == owner[:-1]] - 1] = True
    normalized = raw[keep].tobytes().decode("ascii").split("\0")
    return words, owner, ids, normalized


def _word_ends(words: Sequence[str]) -> NDArray[np.object_] | None:
    """The pieces ``_join_runs`` joins: each word and a space, then each word and a newline
    (word t ending a run is piece t + len(words)); None when a word holds the newline. Built
    once per vocabulary, not once per join."""
    if "\n" in "".join(words):
        return None
    return np.array([*(w + " " for w in words), *(w + "\n" for w in words)], dtype=object)


def _join_runs(
    words: Sequence[str],
    ends: NDArray[np.object_] | None,
    token: NDArray[np.int64],
    owner: NDArray[np.int64],
    n: int,
) -> list[str]:
    """``[" ".join(words[t] for t, o in zip(token, owner) if o == k) for k in range(n)]``
    (``owner`` ascending, in [0, n)), by one join of all the words and one split: no Python
    work per run. ``ends`` is ``_word_ends(words)``. Twin: that comprehension
    (``test_join_runs_joins_each_owners_words``)."""
    out = [""] * n
    if not token.size:
        return out
    last = np.empty(token.size, dtype=np.bool_)  # a run's last word: the split point
    last[-1] = True
    np.not_equal(owner[1:], owner[:-1], out=last[:-1])
    if ends is None:
        # a word holds the separator: join run by run
        pieces = np.array(words, dtype=object)[token].tolist()
        stops = (np.flatnonzero(last) + 1).tolist()
        parts = list(map(" ".join, map(pieces.__getitem__, map(slice, [0, *stops], stops))))
    else:
        parts = "".join(ends[token + last * len(words)].tolist()).split("\n")
        parts.pop()  # after the last run's separator
    if len(parts) == n:  # every run present (the common case)
        return parts
    for k, text in zip(owner[last].tolist(), parts, strict=True):
        out[k] = text
    return out


class _NameTable:
    """The distinct strings of a batch (both sides together) and what the kernel reads of
    each, computed once per distinct string and mostly by whole-batch numpy operations: its
    sorted distinct tokens (as ids into ``words``, the batch's vocabulary sorted, and on demand
    as lists: ``distinct``), their joined string (the token-set ratio's sorted string), its
    ``normalized_name``, its non-evidence tokens as a bit mask and its evidence tokens
    joined; token and character counts, and the character histogram over ``_ALPHABET`` (its
    last bin: any other character).

    Twin: each string's forms computed on their own from ``tokens``
    (``test_name_table_holds_each_strings_forms``). Built per distinct string instead of per
    occurrence, name matrices of 1,000 benchmark documents took 0.23 → 0.17 s (commit
    0517d01); by whole-batch numpy work, ~0.75x again (d00774c).
    """

    def __init__(self, strings: Sequence[str]):
        texts = list(dict.fromkeys(strings))
        n = len(texts)
        index = dict(zip(texts, count()))
        #: each given string's index among the distinct strings
        self.of = np.fromiter(map(index.__getitem__, strings), np.int64, len(strings))
        seen, owner, ids, self.normalized = _token_ids(list(map(collapse_dotted_suffixes, texts)))
        #: the terms each string defines in quotes (``defined_terms``; empty for most)
        self.terms = list(map(defined_terms, texts))
        # every token occurrence as the rank of its word in the sorted vocabulary
        by_word = sorted(range(len(seen)), key=seen.__getitem__)
        #: the batch's vocabulary, sorted: a token id is a word's index here
        self.words: list[str] = list(map(seen.__getitem__, by_word))
        self.n_vocab = width = len(seen)
        rank = np.zeros(width, dtype=np.int64)
        rank[by_word] = np.arange(width)
        # each string's distinct tokens in sorted order: the distinct (string, rank) keys
        keys = np.sort(owner * max(width, 1) + rank[ids], kind="stable")  # nearly sorted
        new = np.empty(keys.size, dtype=np.bool_)
        new[:1] = True
        np.not_equal(keys[1:], keys[:-1], out=new[1:])
        keys = keys[new]
        string_of_token = keys // max(width, 1)
        self.token = keys - string_of_token * width
        self.n_tokens = np.bincount(string_of_token, minlength=n).astype(np.int64)
        self.offset = np.cumsum(self.n_tokens) - self.n_tokens
        self.word_len = np.fromiter(map(len, self.words), np.int64, width)
        #: each word: never evidence (``NON_EVIDENCE_TOKENS``); weak (``is_weak_token``)
        self.word_non_evidence = np.fromiter(
            map(NON_EVIDENCE_TOKENS.__contains__, self.words), np.bool_, width
        )
        self.word_weak = np.fromiter(map(is_weak_token, self.words), np.bool_, width)
        self.word_weak &= ~self.word_non_evidence
        #: the pieces of ``_join_runs`` over ``words`` (``_word_ends``)
        self.word_ends = _word_ends(self.words)
        self.sorted_string = self.join(self.token, string_of_token, n)
        # a string's weak tokens are no evidence when it has a token that is neither
        # (``non_evidence_tokens``): one flag per (string, distinct token) entry
        fixed, weak = self.word_non_evidence[self.token], self.word_weak[self.token]
        strong = np.bincount(string_of_token[~(fixed | weak)], minlength=n) > 0
        non_evidence = fixed | (weak & strong[string_of_token])
        #: whether each (string, distinct token) entry of ``token`` is no evidence there
        self.entry_non_evidence = non_evidence
        #: how many of each string's distinct tokens are non-evidence tokens
        self.n_non_evidence = np.bincount(string_of_token[non_evidence], minlength=n)
        self.has_non_evidence = self.n_non_evidence > 0
        evidence = ~non_evidence
        #: the sorted distinct tokens without the non-evidence ones, joined
        self.evidence_string = self.join(self.token[evidence], string_of_token[evidence], n)
        token_len = self.word_len[self.token]
        self.chars = np.bincount(string_of_token, weights=token_len, minlength=n)
        #: each word's first character in ``self.words`` joined, and the histogram bin of
        #: every character there (``_BINS``): what ``histograms`` counts
        self.word_start = np.cumsum(self.word_len) - self.word_len
        code = np.frombuffer("".join(self.words).encode("utf-32-le", "surrogatepass"), np.uint32)
        self.char_bin = _BINS[np.minimum(code, 128)]

    def histograms(self, strings: NDArray[np.int64]) -> NDArray[np.integer[Any]]:
        """The character histogram of the distinct tokens of each of the distinct strings
        ``strings`` (bins ``_BINS``), in the smallest integer type that holds the counts
        exactly (less to gather per pair).

        One ``bincount`` of (position in ``strings``, bin) over the characters of those
        tokens, read from ``char_bin`` at each word's ``word_start`` plus 0 .. length - 1.
        """
        owner, ids = self.occurrences(strings)
        lengths = self.word_len[ids]
        ends = np.cumsum(lengths)
        n_chars = int(ends[-1]) if ends.size else 0
        k = len(_ALPHABET) + 1
        at = np.repeat(self.word_start[ids] - (ends - lengths), lengths) + np.arange(n_chars)
        keys = np.repeat(owner * k, lengths) + self.char_bin[at]
        out = np.bincount(keys, minlength=strings.size * k).reshape(strings.size, k)
        small = np.int16 if int(out.max(initial=0)) < 1 << 14 else np.int64
        return out.astype(small)

    def join(self, token: NDArray[np.int64], owner: NDArray[np.int64], n: int) -> list[str]:
        """The words ``token`` of each owner in [0, n) joined by spaces (``_join_runs``)."""
        return _join_runs(self.words, self.word_ends, token, owner, n)

    def distinct_tokens(self, at: int) -> list[str]:
        """The sorted distinct tokens of distinct string ``at``, as a list."""
        start = int(self.offset[at])
        return list(map(self.words.__getitem__, self.token[start : start + int(self.n_tokens[at])]))

    def occurrences(
        self, strings: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The distinct tokens of the distinct strings ``strings``, end to end: each one's
        position in ``strings`` and its token id."""
        owner, entry = self.entries(strings)
        return owner, self.token[entry]

    def entries(self, strings: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """``occurrences`` as (position in ``strings``, index into ``token``)."""
        n = self.n_tokens[strings]
        owner = np.repeat(np.arange(strings.size, dtype=np.int64), n)
        within = np.arange(int(n.sum()), dtype=np.int64) - np.repeat(np.cumsum(n) - n, n)
        return owner, self.offset[strings][owner] + within


#: the most (list pair, token) keys ``_shared_tokens`` joins on as they are: up to 2^16,
#: ``key_pairs`` sorts them in one radix pass and counts them in a small array (numbering
#: only the keys present would cost more than it saves)
_RADIX_KEYS = 1 << 16

#: one side's strings of a batch: their distinct-string indices (``_NameTable.of``), each
#: string's list pair, and each list pair's first string
_Side = tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]


def _shared_tokens(
    table: _NameTable,
    pred: _Side,
    gold: _Side,
    pair_start: NDArray[np.int64],
    m_of: NDArray[np.int64],
    size: int,
    *,
    evidence: bool = False,
) -> tuple[NDArray[np.int64], NDArray[np.int64], FloatMatrix, NDArray[np.int64] | None]:
    """The flat pairs whose two strings share a token (ascending) and, for each: how many
    tokens they share, their characters, and (with ``evidence``, else None) how many of the
    shared tokens are evidence on at least one side (``entry_non_evidence``), from the one
    join.

    Columns are (list pair, token), so the join pairs strings of one list pair only. Checked
    through the kernel's twin (``name_similarity``) and with the keys numbered or not
    (``test_shared_tokens_join_on_raw_or_numbered_keys_alike``).
    """
    (p_str, p_doc, p_start), (g_str, g_doc, g_start) = pred, gold
    p_owner, p_entry = table.entries(p_str)
    g_owner, g_entry = table.entries(g_str)
    p_tok, g_tok = table.token[p_entry], table.token[g_entry]
    width = max(table.n_vocab, 1)
    column = np.concatenate([p_doc[p_owner] * width + p_tok, g_doc[g_owner] * width + g_tok])
    n_cols = max(m_of.size, 1) * width
    if n_cols > _RADIX_KEYS:
        # numbered by the (list pair, token) keys present, for ``key_pairs``'s counts and sort
        _, column = unique_inverse(column, n_cols)
        n_cols = int(column.max()) + 1 if column.size else 0
    # every (predicted token, expected token) occurrence pair of one column: a shared token
    left, right = key_pairs(column[: p_tok.size], column[p_tok.size :], n_cols)
    # the flat index of (row r, column c) of list pair d, pair_start[d] + (r - p_start[d]) *
    # m_of[d] + (c - g_start[d]): a part per predicted and a part per expected string
    row_base = pair_start[p_doc] + (np.arange(p_doc.size) - p_start[p_doc]) * m_of[p_doc]
    col_at = np.arange(g_doc.size) - g_start[g_doc]
    flat = row_base[p_owner][left] + col_at[g_owner][right]
    # flat ascends within each shared token's run: a stable sort of it is quick
    order = np.argsort(flat, kind="stable")
    flat = flat[order]
    first = np.empty(flat.size, dtype=np.bool_)
    first[:1] = True
    np.not_equal(flat[1:], flat[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    shared = np.diff(starts, append=flat.size)
    if not starts.size:
        none = np.zeros(0, dtype=np.int64)
        return none, none, np.zeros(0, dtype=np.float64), none if evidence else None
    # each shared token's length in the low 32 bits, 1 above them if it is evidence on either
    # side (no evidence only when neither string counts it): one sum per pair counts both
    # (sums of whole numbers: exact in any order)
    left, right = left[order], right[order]
    named = ~(table.entry_non_evidence[p_entry[left]] & table.entry_non_evidence[g_entry[right]])
    weight = table.word_len[p_tok[left]] + named.astype(np.int64) * (1 << 32)
    sums = np.add.reduceat(weight, starts)
    chars = (sums & 0xFFFFFFFF).astype(np.float64)
    if not evidence:
        return flat[starts], shared, chars, None
    named = sums >> 32
    return flat[starts], shared, chars, named
