"""The deterministic matcher (the default; offline): a similarity matrix between reference and
extracted claims, then each reference claim's choice.

**Assignment.** ``many_to_one`` (default, the seed's matcher): each reference claim picks its
best eligible extracted claim, and several reference claims may pick the same one (an extraction
that merged them). ``one_to_one``: the optimal assignment (``assay._matching.optimal``), each
extracted claim serving at most one reference claim, for precision-style analyses.

**Similarity.** ``hybrid`` (default; semantic.py): a pair is eligible when its hubness-corrected
score reaches ``csls_threshold``, or ``mutual_threshold`` when the two claims are each other's
best (mutual nearest neighbours), or its blended score reaches ``match_threshold`` (near-copies,
whatever their neighbours), and its corrected score is at least ``share_ratio`` of the best
reference's for that candidate (a neighbour of a claim that was matched closely elsewhere is
not a merger); the pick is the eligible candidate with the highest corrected score. Then, with
``second_pass`` (many-to-one), :func:`second_pass`: a reference claim still unmatched takes its
best extracted claim among those nobody picked when it is that claim's best reference and their
corrected score reaches ``mutual_threshold`` (mutual best among the leftovers).
``token_f1`` / ``token_set_ratio`` (the earlier matcher): eligible at ``partial_threshold``,
the pick has the highest similarity.

**Fragments** (hybrid; issue 34). An extracted claim that copies part of a reference claim word
for word scores higher on both signals than the claim's own rewrite (TF-IDF in 110 of 111
reference claims, the embeddings in 109): nothing in a similarity measures whether the
candidate states the reference *as a whole*. So a candidate at least ``fragment_precision`` of
whose words are one run of the reference's, word for word, while covering at most
``fragment_recall`` of the reference's content words is a *fragment* of it (:func:`fragments`).
A fragment is no neighbour in the hubness correction (it would push the reference's whole
rewrite below the thresholds); it is eligible for no reference but its own best one; a
reference picks a fragment only when no eligible whole candidate exists, and when its best
candidate is a fragment its best whole one becomes eligible at ``mutual_threshold``; the second
pass never offers one (:func:`_prefer_whole`). A fragment kept is a ``partial`` match, "copies
part of the reference".

**Labels** (seed 003: partial = a strict subset or superset of the reference proposition).
Hybrid: a match is ``partial`` when its extracted claim was picked by several reference claims
(a superset of each), or when its grain differs from the paper's (``_grains``): its length over
the paper's typical length is at most ``narrower_ratio`` (a split claim's half) or at least
``broader_ratio`` (a merger); else ``exact``. Token similarities: ``exact`` at
``exact_threshold``, else ``partial``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from assay._fields.embedding import Embedder, cosine_matrix
from assay._matching.optimal import optimal_assignment
from assay._text import word_tokens
from assay.stats.quantiles import median
from assay.suites.claims._lib.model import Alignment, Claim, ClaimMatch, MatchQuality
from assay.suites.claims._lib.panels import panels_agree, parse_panels
from assay.suites.claims._lib.roles import roles_agree
from assay.suites.claims._lib.semantic import csls, hybrid_scores
from assay.suites.claims._lib.similarity import STOPWORDS, similarity_matrix
from assay.suites.claims.settings import ClaimsSettings

FloatMatrix = NDArray[np.float64]

#: calibrated hybrid thresholds (csls_threshold, mutual_threshold, match_threshold), with
#: embeddings (at the default lexical_weight 0.7, chosen with them) and without; chosen by
#: ``benchmarks/bench_claims.py --accuracy`` on the public round trips (suites/claims/docs.md has
#: the figures and the leave-one-paper-out ones)
CALIBRATED_WITH_EMBEDDINGS = (0.07, 0.03, 0.6)
CALIBRATED_LEXICAL = (0.05, 0.03, 0.6)


#: how far each deterministic configuration can be trusted: measured on the public round trips
#: (LLM rewrites of the 62 curated claims of 3 papers; with drops, splits, mergers and 2x
#: topic-related distractors), leave-one-paper-out; ``bench_claims.py --accuracy``
TRUST = {
    "hybrid+embeddings": "on LLM-rewritten claims (3 public papers; with drops, splits, mergers "
    "and 2x distractors) 90-95% of pairings right, recovery within 0.04 of the truth, "
    "exact/partial labels 90-98% right (leave-one-paper-out); for decisions that matter, check "
    "with --matcher llm",
    "hybrid": "without embeddings (install the [semantic] extra for wordllama): on "
    "LLM-rewritten claims 89-92% of pairings right, recovery within 0.05 of the truth "
    "(leave-one-paper-out)",
    "token": "token similarity matches near-copies only: on LLM-rewritten claims it recovers "
    "4% where the truth is 100% — do not use it for LLM-written extractions",
}


def trust_note(settings: ClaimsSettings, embeddings_on: bool) -> str:
    """The measured accuracy of the configured deterministic matcher (see TRUST)."""
    if settings.similarity != "hybrid":
        return TRUST["token"]
    return TRUST["hybrid+embeddings" if embeddings_on else "hybrid"]


def assign(scores: np.ndarray, threshold: float) -> dict[int, int]:
    """One-to-one: reference index → candidate index, the most pairs at or above ``threshold``,
    then the largest summed score, so the order of claims never changes how many match."""
    if scores.size == 0:
        return {}
    return {r: c for r, c, _ in optimal_assignment(scores, threshold).pairs}


def pick_each(scores: np.ndarray, eligible: NDArray[np.bool_]) -> dict[int, int]:
    """Many-to-one: each reference row picks its eligible column with the highest score (the
    first on ties); rows with no eligible column pick nothing."""
    out: dict[int, int] = {}
    for i in range(scores.shape[0]):
        row = np.where(eligible[i], scores[i], -np.inf)
        if row.size and np.isfinite(row.max()):
            out[i] = int(np.argmax(row))
    return out


@dataclass(frozen=True)
class _Scored:
    """The matrices one decision is taken on: ``rank`` orders candidates, ``raw`` is reported."""

    raw: FloatMatrix
    rank: FloatMatrix
    eligible: NDArray[np.bool_]
    method: str
    #: pairs the second pass may take: the candidate's best reference, at or above the mutual
    #: threshold and the similarity floor (None: no second pass)
    leftover: NDArray[np.bool_] | None = None
    #: pairs whose candidate is a verbatim fragment of the reference (None: not computed)
    fragment: NDArray[np.bool_] | None = None


def hybrid_thresholds(
    settings: ClaimsSettings, with_embeddings: bool
) -> tuple[float, float, float]:
    """(csls_threshold, mutual_threshold, match_threshold): the settings', else the calibrated
    defaults for the signal in use."""
    tc, tm, high = CALIBRATED_WITH_EMBEDDINGS if with_embeddings else CALIBRATED_LEXICAL
    return (
        tc if settings.csls_threshold is None else settings.csls_threshold,
        tm if settings.mutual_threshold is None else settings.mutual_threshold,
        high if settings.match_threshold is None else settings.match_threshold,
    )


def mutual_best(scores: FloatMatrix) -> NDArray[np.bool_]:
    """True where a pair is both its row's and its column's best (the first on ties)."""
    out = np.zeros(scores.shape, dtype=bool)
    if scores.size:
        best_col = scores.argmax(axis=1)
        best_row = scores.argmax(axis=0)
        rows = np.arange(scores.shape[0])
        out[rows, best_col] = best_row[best_col] == rows
    return out


def _score(
    ref_texts: Sequence[str],
    cand_texts: Sequence[str],
    s: ClaimsSettings,
    embedder: Embedder | None,
) -> _Scored:
    if s.similarity == "hybrid":
        h = hybrid_scores(
            ref_texts,
            cand_texts,
            embedder=embedder,
            lexical_weight=s.lexical_weight,
            k=s.hubness_k,
        )
        tc, tm, high = hybrid_thresholds(s, embedder is not None)
        fragment, coverage = fragments(ref_texts, cand_texts, s)
        corrected = h.csls
        if fragment.any():
            # a fragment is no neighbour: it would raise its reference's hubness term and
            # push the reference's whole rewrite below the thresholds
            corrected = csls(h.raw, s.hubness_k, exclude=fragment)
        eligible = (
            (corrected >= tc) | (h.raw >= high) | (mutual_best(corrected) & (corrected >= tm))
        )
        eligible &= corrected >= s.share_ratio * corrected.max(axis=0, keepdims=True)
        eligible &= h.raw >= s.min_similarity
        leftover = None
        if s.second_pass and corrected.size:
            best_ref = corrected.argmax(axis=0)
            leftover = (np.arange(corrected.shape[0])[:, None] == best_ref[None, :]) & (
                (corrected >= tm) & (h.raw >= s.min_similarity)
            )
        if fragment.any():
            eligible, leftover = _prefer_whole(
                corrected, h.raw, eligible, leftover, fragment, coverage, tm, s
            )
        return _Scored(h.raw, corrected, eligible, "hybrid", leftover, fragment)
    raw = similarity_matrix(
        ref_texts, cand_texts, method=s.similarity, drop_stopwords=s.drop_stopwords
    )
    if embedder is not None and raw.size:
        raw = np.maximum(raw, cosine_matrix(embedder, ref_texts, cand_texts))
    return _Scored(raw, raw, raw >= s.partial_threshold, s.similarity)


def _content(text: str) -> list[str]:
    words = word_tokens(text)
    return [w for w in words if w not in STOPWORDS] or words


def _longest_run(a: Sequence[str], b: Sequence[str]) -> int:
    """The longest run of consecutive words ``a`` and ``b`` share (dynamic programming)."""
    best, prev = 0, [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for k, y in enumerate(b, start=1):
            if x == y:
                cur[k] = prev[k - 1] + 1
                best = max(best, cur[k])
        prev = cur
    return best


def fragments(
    ref_texts: Sequence[str], cand_texts: Sequence[str], s: ClaimsSettings
) -> tuple[NDArray[np.bool_], FloatMatrix]:
    """(fragment, coverage): coverage is the share of the reference's distinct content words
    (stopwords dropped) the candidate holds; a pair is a fragment when the candidate copies the
    reference word for word — at least ``fragment_precision`` of its words are one run of
    consecutive words of the reference — and the coverage is at most ``fragment_recall``.

    Word for word, not merely in the reference's words: a faithful rewrite or summary often
    uses only the reference's words (one of kolb's rewrites holds 19% of its reference's
    content words, all of its own from it) but in its own order."""
    shape = (len(ref_texts), len(cand_texts))
    fragment, coverage = np.zeros(shape, dtype=bool), np.zeros(shape)
    ref_words = [word_tokens(t) for t in ref_texts]
    cand_words = [word_tokens(t) for t in cand_texts]
    refs = [set(_content(t)) for t in ref_texts]
    cands = [_content(t) for t in cand_texts]
    for i, r in enumerate(refs):
        if not r:
            continue
        for j, c in enumerate(cands):
            if not c:
                continue
            coverage[i, j] = len(r.intersection(c)) / len(r)
            inside = sum(w in r for w in c) / len(c)
            if inside < s.fragment_precision or coverage[i, j] > s.fragment_recall:
                continue
            words = cand_words[j]
            run = _longest_run(words, ref_words[i])
            fragment[i, j] = run >= s.fragment_precision * len(words)
    return fragment, coverage


def _prefer_whole(
    rank: FloatMatrix,
    raw: FloatMatrix,
    eligible: NDArray[np.bool_],
    leftover: NDArray[np.bool_] | None,
    fragment: NDArray[np.bool_],
    coverage: FloatMatrix,
    mutual: float,
    s: ClaimsSettings,
) -> tuple[NDArray[np.bool_], NDArray[np.bool_] | None]:
    """Eligibility with fragments last:

    - a fragment of its best reference is eligible for no other (it copies part of that one);
    - a reference with an eligible whole candidate whose best reference it is (its rewrite,
      not a neighbour's) loses its fragments;
    - one whose best candidate is a fragment gains its best such whole candidate when the
      corrected score reaches ``mutual`` (and the similarity floor);
    - one left with fragments only keeps those covering the most of it; with fragments and
      only neighbours' whole candidates, all compete as before (a claim split into two
      verbatim halves is matched by its halves).

    The second pass never offers a fragment."""
    best_ref = rank.argmax(axis=0)
    cols = np.arange(rank.shape[1])
    owned: NDArray[np.bool_] = np.asarray(fragment[best_ref, cols], dtype=bool)
    mine = np.arange(rank.shape[0])[:, None] == best_ref[None, :]
    out = eligible & (mine | ~owned[None, :])
    whole = ~fragment
    for i in range(rank.shape[0]):
        if not fragment[i].any():
            continue
        # whole candidates whose best reference is this one: its rewrite, not a neighbour's
        own_whole = whole[i] & mine[i]
        if not (out[i] & own_whole).any():
            best = int(np.argmax(rank[i]))
            if fragment[i, best] and own_whole.any():
                alt = int(np.argmax(np.where(own_whole, rank[i], -np.inf)))
                if rank[i, alt] >= mutual and raw[i, alt] >= s.min_similarity:
                    out[i, alt] = True
        if (out[i] & own_whole).any():
            out[i] &= whole[i]
        elif out[i].any() and not (out[i] & whole[i]).any():
            top = coverage[i][out[i]].max()
            out[i] &= coverage[i] >= top
    if leftover is None:
        return out, None
    return out, leftover & whole & ~owned[None, :]


def second_pass(
    pairs: dict[int, int], scores: FloatMatrix, leftover: NDArray[np.bool_]
) -> dict[int, int]:
    """Mutual best among the leftovers: each reference claim still unmatched looks at the
    extracted claims no reference picked and takes its best one when ``leftover`` allows the
    pair (that claim's best reference is this one, the scores are high enough); repeated until
    nothing changes, since a taken claim may make another reference's next best the mutual one.

    Why: in the first pass a reference whose best candidate went to a closer reference (two
    claims about the same experiment) has nothing; once the closer pairs are settled, the
    candidate it shares most with among those left is, when the two are each other's best,
    its rewrite rather than a neighbour's."""
    out = dict(pairs)
    changed = True
    while changed:
        changed = False
        free = np.ones(scores.shape[1], dtype=bool)
        free[list(out.values())] = False
        for i in range(scores.shape[0]):
            if i in out or not free.any():
                continue
            j = int(np.argmax(np.where(free, scores[i], -np.inf)))
            if leftover[i, j]:
                out[i] = j
                free[j] = False
                changed = True
    return out


def _choose(sc: _Scored, s: ClaimsSettings) -> dict[int, int]:
    if sc.raw.size == 0:
        return {}
    if s.assignment == "one_to_one":
        masked = np.where(sc.eligible, sc.rank, np.nan)
        return {r: c for r, c, _ in optimal_assignment(masked, -np.inf).pairs}
    pairs = pick_each(sc.rank, sc.eligible)
    if sc.leftover is not None:
        pairs = second_pass(pairs, sc.rank, sc.leftover)
    return pairs


def _words(text: str) -> int:
    return max(1, len(text.split()))


def _grains(
    pairs: dict[int, int], reference: Sequence[Claim], candidates: Sequence[Claim]
) -> dict[int, float]:
    """Each match's length over the paper's typical length: either extracted words over their
    median (the extraction writes claims of one size), or the extracted/reference word ratio over
    its median (the extraction's length follows the reference's), whichever of the two varies
    less across the paper's matches (the smaller spread of its logarithm)."""
    if not pairs:
        return {}
    rows = sorted(pairs)
    own = np.log([_words(candidates[pairs[i]].text) for i in rows])
    ratio = own - np.log([_words(reference[i].text) for i in rows])
    base = own if float(np.std(own)) <= float(np.std(ratio)) else ratio
    centred = np.exp(base - median(base))
    return {i: float(g) for i, g in zip(rows, centred, strict=True)}


def _labels(
    pairs: dict[int, int],
    sc: _Scored,
    reference: Sequence[Claim],
    candidates: Sequence[Claim],
    s: ClaimsSettings,
) -> dict[int, tuple[MatchQuality, str]]:
    """Each match's quality and, for a partial one, why (see the module docstring)."""
    if sc.method != "hybrid":
        return {
            i: ("exact" if sc.raw[i, j] >= s.exact_threshold else "partial", "")
            for i, j in pairs.items()
        }
    shared = Counter(pairs.values())
    grains = _grains(pairs, reference, candidates)
    out: dict[int, tuple[MatchQuality, str]] = {}
    for i, j in pairs.items():
        grain = grains[i]
        if sc.fragment is not None and sc.fragment[i, j]:
            out[i] = ("partial", "copies part of the reference")
        elif shared[j] > 1:
            out[i] = ("partial", f"{candidates[j].slug} also matches {shared[j] - 1} other(s)")
        elif grain <= s.narrower_ratio:
            out[i] = ("partial", f"narrower than the reference (grain {grain:.2f})")
        elif grain >= s.broader_ratio:
            out[i] = ("partial", f"broader than the reference (grain {grain:.2f})")
        else:
            out[i] = ("exact", "")
    return out


def _no_match_note(
    i: int,
    sc: _Scored,
    reference: Sequence[Claim],
    candidates: Sequence[Claim],
    owner: dict[int, int],
) -> str:
    """Why reference claim ``i`` has no match: nothing close enough, or its best went elsewhere."""
    if not candidates:
        return "no extracted claims"
    j = int(np.argmax(sc.rank[i]))
    if not sc.eligible[i, j]:
        detail = (
            f"corrected {sc.rank[i, j]:.2f}, blended {sc.raw[i, j]:.2f}"
            if sc.method == "hybrid"
            else f"{sc.raw[i, j]:.2f}"
        )
        return f"best candidate {candidates[j].slug} ({detail}) is below the match thresholds"
    return f"best candidate {candidates[j].slug} went to {reference[owner[j]].slug}"


def match_deterministic(
    reference: Sequence[Claim],
    candidates: Sequence[Claim],
    settings: ClaimsSettings,
    *,
    embedder: Embedder | None = None,
) -> Alignment:
    """One ClaimMatch per reference claim (see the module docstring); ``embedder`` is blended
    into ``hybrid`` and taken as max(string, cosine) by the token similarities."""
    sc = _score([c.text for c in reference], [c.text for c in candidates], settings, embedder)
    pairs = _choose(sc, settings)
    labels = _labels(pairs, sc, reference, candidates, settings)
    owner = {j: i for i, j in pairs.items()}
    matches: list[ClaimMatch] = []
    for i, ref in enumerate(reference):
        j = pairs.get(i)
        if j is None:
            note = _no_match_note(i, sc, reference, candidates, owner)
            matches.append(ClaimMatch(ref_slug=ref.slug, match_quality="none", notes=note))
            continue
        cand = candidates[j]
        quality, why = labels[i]
        panel = panels_agree(parse_panels(ref.panel), parse_panels(cand.panel), settings.panel_rule)
        role = roles_agree(ref.role, cand.role, settings.role_aliases)
        notes = [why] if why else []
        if panel is False:
            notes.append(f"panel {cand.panel!r} vs {ref.panel!r}")
        if role is False:
            notes.append(f"role {cand.role!r} vs {ref.role!r}")
        matches.append(
            ClaimMatch(
                ref_slug=ref.slug,
                cli_slug=cand.slug,
                match_quality=quality,
                panel_match=panel,
                role_match=role,
                notes="; ".join(notes),
                similarity=round(float(sc.raw[i, j]), 4),
            )
        )
    return Alignment(matcher="deterministic", matches=matches)
