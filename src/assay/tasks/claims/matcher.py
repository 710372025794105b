"""The deterministic matcher (the default; offline): a similarity matrix between reference and
extracted claim texts, then an optimal one-to-one assignment.

Each reference claim gets at most one extracted claim and each extracted claim serves at most
one reference claim; pairs below ``partial_threshold`` are not matches. A match is ``exact`` at
``exact_threshold`` or above, else ``partial``. Limits: a reference claim the extraction split
into two narrower claims is matched to one half only (the other half is an unmatched extracted
claim); a claim paraphrased with different words can fall below the thresholds. The LLM matcher
has neither limit.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from assay.fields.embedding import Embedder, cosine_matrix
from assay.matching.optimal import optimal_assignment
from assay.tasks.claims.model import Alignment, Claim, ClaimMatch
from assay.tasks.claims.panels import panels_agree, parse_panels
from assay.tasks.claims.roles import roles_agree
from assay.tasks.claims.settings import ClaimsSettings
from assay.tasks.claims.similarity import similarity_matrix


def assign(scores: np.ndarray, threshold: float) -> dict[int, int]:
    """Reference index → candidate index: the most pairs at or above ``threshold``, then the
    largest summed similarity (``assay.matching.optimal``), so the order of claims never
    changes how many are recovered."""
    if scores.size == 0:
        return {}
    return {r: c for r, c, _ in optimal_assignment(scores, threshold).pairs}


def _no_match_note(
    i: int,
    scores: np.ndarray,
    reference: Sequence[Claim],
    candidates: Sequence[Claim],
    owner: dict[int, int],
    s: ClaimsSettings,
) -> str:
    """Why reference claim ``i`` has no match: nothing close enough, or its best went elsewhere."""
    if not candidates:
        return "no extracted claims"
    j = int(np.argmax(scores[i]))
    best = float(scores[i, j])
    if best < s.partial_threshold:
        return (
            f"best candidate {candidates[j].slug} at {best:.2f}, below the partial threshold "
            f"{s.partial_threshold:.2f}"
        )
    return f"best candidate {candidates[j].slug} ({best:.2f}) went to {reference[owner[j]].slug}"


def match_deterministic(
    reference: Sequence[Claim],
    candidates: Sequence[Claim],
    settings: ClaimsSettings,
    *,
    embedder: Embedder | None = None,
) -> Alignment:
    """One ClaimMatch per reference claim (see the module docstring). With an ``embedder``,
    each similarity is max(string similarity, embedding cosine): it never lowers a score."""
    s = settings
    ref_texts, cand_texts = [c.text for c in reference], [c.text for c in candidates]
    scores = similarity_matrix(
        ref_texts, cand_texts, method=s.similarity, drop_stopwords=s.drop_stopwords
    )
    if embedder is not None and scores.size:
        scores = np.maximum(scores, cosine_matrix(embedder, ref_texts, cand_texts))
    pairs = assign(scores, s.partial_threshold)
    owner = {j: i for i, j in pairs.items()}
    matches: list[ClaimMatch] = []
    for i, ref in enumerate(reference):
        j = pairs.get(i)
        if j is None:
            note = _no_match_note(i, scores, reference, candidates, owner, s)
            matches.append(ClaimMatch(ref_slug=ref.slug, match_quality="none", notes=note))
            continue
        cand = candidates[j]
        sim = float(scores[i, j])
        panel = panels_agree(parse_panels(ref.panel), parse_panels(cand.panel), s.panel_rule)
        role = roles_agree(ref.role, cand.role, s.role_aliases)
        notes = []
        if panel is False:
            notes.append(f"panel {cand.panel!r} vs {ref.panel!r}")
        if role is False:
            notes.append(f"role {cand.role!r} vs {ref.role!r}")
        matches.append(
            ClaimMatch(
                ref_slug=ref.slug,
                cli_slug=cand.slug,
                match_quality="exact" if sim >= s.exact_threshold else "partial",
                panel_match=panel,
                role_match=role,
                notes="; ".join(notes),
                similarity=round(sim, 4),
            )
        )
    return Alignment(matcher="deterministic", matches=matches)
