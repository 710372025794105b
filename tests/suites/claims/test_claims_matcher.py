"""The deterministic matcher on the real claim trees against constructed copies."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.suites.claims import Claim, ClaimsSettings, match_deterministic, paper_counts
from assay.suites.claims._lib.matcher import assign
from tests.suites.claims.claims_copies import CLAIM_TREE, load_reference, make_copy

pytestmark = pytest.mark.skipif(
    not CLAIM_TREE.is_dir(), reason="../shared/data/claims is not laid beside the clone"
)
S = ClaimsSettings()


@pytest.fixture(scope="module")
def reference() -> list:
    return load_reference()


def test_real_claim_trees_load(reference: list) -> None:
    assert [p.paper for p in reference] == [
        "artiushin-2026-spider-atlas",
        "ejdrup-2026-dopamine",
        "kolb-2026-igabasnfr2",
    ]
    assert sum(len(p.claims) for p in reference) == 62


@pytest.mark.parametrize("index", [0, 1, 2])
def test_copy_recovery_reflects_what_was_dropped(reference: list, index: int) -> None:
    paper = reference[index]
    extracted, exp = make_copy(paper)
    alignment = match_deterministic(paper.claims, extracted, S)
    by_quality: dict[str, set[str]] = {"exact": set(), "partial": set(), "none": set()}
    for m in alignment.matches:
        by_quality[m.match_quality].add(m.ref_slug)
    assert by_quality["none"] == exp.dropped
    assert by_quality["exact"] == exp.exact
    assert by_quality["partial"] == exp.partial
    counts = paper_counts(alignment, len(paper.claims), extracted)
    assert counts.recovery == pytest.approx(exp.recovery)
    matched = {m.ref_slug for m in alignment.matches if m.recovered}
    assert counts.panel_agreement == pytest.approx(len(exp.panel_true) / len(matched))
    assert counts.role_agreement == pytest.approx(len(exp.role_true) / len(matched))
    # the second halves of split claims and the spurious claims stay unmatched
    assert len(counts.unmatched_extracted) == len(exp.partial) + 2
    assert {"spurious-0", "spurious-1"} <= set(counts.unmatched_extracted)


def test_dropping_more_never_raises_recovery(reference: list) -> None:
    paper = reference[1]
    recoveries = []
    for drop_every in (50, 9, 6, 4):
        extracted, exp = make_copy(paper, drop_every=drop_every)
        counts = paper_counts(match_deterministic(paper.claims, extracted, S), 25, extracted)
        assert counts.recovery == pytest.approx(exp.recovery)
        recoveries.append(counts.recovery)
    assert recoveries == sorted(recoveries, reverse=True)


def test_identical_copy_is_fully_exact(reference: list) -> None:
    for paper in reference:
        alignment = match_deterministic(paper.claims, paper.claims, S)
        assert all(
            m.match_quality == "exact" and m.cli_slug == m.ref_slug for m in alignment.matches
        )
        assert all(m.panel_match is True and m.role_match is True for m in alignment.matches)


def test_no_candidates_and_notes() -> None:
    ref = [Claim("a", "Dopamine release increases in the ventral striatum after reward.")]
    alignment = match_deterministic(ref, [], S)
    assert alignment.matches[0].match_quality == "none"
    assert alignment.matches[0].notes == "no extracted claims"
    far = [Claim("b", "Spiders have eight legs and silk glands.")]
    note = match_deterministic(ref, far, S).matches[0].notes
    assert "below the match thresholds" in note


def test_one_to_one_assignment_prefers_the_optimum() -> None:
    import numpy as np

    # greedy would give ref 0 → cand 0 (0.9) and leave ref 1 with nothing above 0.5
    scores = np.array([[0.9, 0.8], [0.85, 0.1]])
    assert assign(scores, 0.5) == {0: 1, 1: 0}
    assert assign(np.zeros((0, 3)), 0.5) == {}


_WORDS = st.sampled_from(
    [
        "dopamine",
        "release",
        "striatum",
        "receptor",
        "occupancy",
        "burst",
        "tonic",
        "model",
        "clearance",
        "spider",
        "neuropil",
        "serotonin",
        "sensor",
        "affinity",
        "kinetics",
    ]
)
_TEXT = st.lists(_WORDS, min_size=3, max_size=12).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(refs=st.lists(_TEXT, min_size=1, max_size=6), cands=st.lists(_TEXT, max_size=6))
def test_alignment_properties(refs: list[str], cands: list[str]) -> None:
    """The earlier matcher (token F1, one-to-one) keeps its properties."""
    reference = [Claim(f"r{i}", t, "empirical", "fig1") for i, t in enumerate(refs)]
    candidates = [Claim(f"c{i}", t, "empirical", "fig1") for i, t in enumerate(cands)]
    S = ClaimsSettings(similarity="token_f1", assignment="one_to_one")
    alignment = match_deterministic(reference, candidates, S)
    assert [m.ref_slug for m in alignment.matches] == [c.slug for c in reference]
    chosen = [m.cli_slug for m in alignment.matches if m.cli_slug]
    assert len(chosen) == len(set(chosen))  # one-to-one
    assert len(chosen) <= min(len(refs), len(cands))
    for m in alignment.matches:
        if m.recovered:
            assert m.similarity is not None and m.similarity >= S.partial_threshold
            assert (m.match_quality == "exact") == (m.similarity >= S.exact_threshold)
    counts = paper_counts(alignment, len(reference), candidates)
    assert 0.0 <= (counts.recovery or 0.0) <= 1.0
    assert counts.matched + len(counts.unmatched_extracted) == len(candidates)
    # order invariance: shuffling candidates keeps the recovered reference claims' count
    reversed_alignment = match_deterministic(reference, candidates[::-1], S)
    assert sum(m.recovered for m in reversed_alignment.matches) == counts.matched


@settings(max_examples=60, deadline=None)
@given(refs=st.lists(_TEXT, max_size=4), cands=st.lists(_TEXT, max_size=4))
def test_similarity_matrix_matches_the_pairwise_definitions(
    refs: list[str], cands: list[str]
) -> None:
    from assay.suites.claims._lib.similarity import (
        claim_tokens,
        similarity_matrix,
        token_f1,
        token_set_ratio,
    )

    for method, fn in (("token_f1", token_f1), ("token_set_ratio", token_set_ratio)):
        matrix = similarity_matrix(refs, cands, method=method)
        for i, r in enumerate(refs):
            for j, c in enumerate(cands):
                assert matrix[i, j] == pytest.approx(fn(claim_tokens(r), claim_tokens(c)))
                assert 0.0 <= matrix[i, j] <= 1.0


class _TopicEmbedder:
    """A stand-in sentence embedder: texts about the same topic word get the same vector."""

    TOPICS = ("kinase", "membrane")

    def encode(self, sentences: list[str]) -> list[list[float]]:
        return [[float(t in s.lower()) for t in self.TOPICS] for s in sentences]


def test_embeddings_raise_similarity_and_never_lower_it() -> None:
    reference = [Claim("a", "The kinase phosphorylates its substrate in vivo.")]
    paraphrase = [Claim("x", "In living cells, this kinase adds phosphate groups to targets.")]
    s = ClaimsSettings(similarity="token_f1", embedding_model=None)
    plain = match_deterministic(reference, paraphrase, s)
    assert plain.matches[0].match_quality == "none"  # little token overlap
    rescued = match_deterministic(reference, paraphrase, s, embedder=_TopicEmbedder())
    assert rescued.matches[0].match_quality == "exact"  # cosine 1.0 ≥ the exact threshold
    same = [Claim("y", "The kinase phosphorylates its substrate in vivo.")]
    orthogonal = match_deterministic(reference, same, s, embedder=_TopicEmbedder())
    assert orthogonal.matches[0].match_quality == "exact"  # a string match is kept


def test_embeddings_off_is_recorded() -> None:
    from assay.suites.claims._lib.align import embedding_status

    embedder, status = embedding_status(ClaimsSettings(embedding_model=None))
    assert embedder is None and "no embedding_model configured" in status.line()
    embedder, status = embedding_status(ClaimsSettings(embedding_model="none"))
    assert embedder is None and not status.enabled
    embedder, status = embedding_status(ClaimsSettings(embedding_model="some/model"))
    assert embedder is None and not status.enabled  # sentence-transformers is not installed


@settings(max_examples=60, deadline=None)
@given(refs=st.lists(_TEXT, min_size=1, max_size=6), cands=st.lists(_TEXT, max_size=6))
def test_many_to_one_properties(refs: list[str], cands: list[str]) -> None:
    """Hybrid, many-to-one: one verdict per reference claim, in order; a shared extracted claim
    is partial for every reference claim that took it; the recovered count does not depend on
    the order of the extracted claims; one-to-one never recovers more."""
    reference = [Claim(f"r{i}", t, "empirical", "fig1") for i, t in enumerate(refs)]
    candidates = [Claim(f"c{i}", t, "empirical", "fig1") for i, t in enumerate(cands)]
    alignment = match_deterministic(reference, candidates, S)
    assert [m.ref_slug for m in alignment.matches] == [c.slug for c in reference]
    taken = Counter(m.cli_slug for m in alignment.matches if m.cli_slug)
    for m in alignment.matches:
        if m.cli_slug and taken[m.cli_slug] > 1:
            assert m.match_quality == "partial"
    recovered = sum(m.recovered for m in alignment.matches)
    flipped = match_deterministic(reference, candidates[::-1], S)
    assert sum(m.recovered for m in flipped.matches) == recovered
    one = match_deterministic(
        reference, candidates, S.model_copy(update={"assignment": "one_to_one"})
    )
    assert sum(m.recovered for m in one.matches) <= recovered
    chosen = [m.cli_slug for m in one.matches if m.cli_slug]
    assert len(chosen) == len(set(chosen))


def test_many_to_one_lets_references_share_a_merged_claim() -> None:
    """Two reference claims the extraction merged into one both recover it, as partial; the
    one-to-one assignment recovers only one of them."""
    reference = [
        Claim("da", "Dopamine transporter nanoclusters slow dopamine clearance in the striatum."),
        Claim("d2", "D2 receptor occupancy integrates dopamine over several seconds."),
        Claim("fly", "Spiders have a protocerebral bridge with layered transmitters."),
    ]
    merged = Claim(
        "m",
        "Transporter nanoclusters slow dopamine clearance in the striatum, and D2 receptor "
        "occupancy integrates dopamine over several seconds.",
    )
    candidates = [merged, Claim("x", "Spiders have a layered protocerebral bridge.")]
    many = match_deterministic(reference, candidates, S)
    assert [(m.cli_slug, m.match_quality) for m in many.matches[:2]] == [
        ("m", "partial"),
        ("m", "partial"),
    ]
    one = match_deterministic(
        reference, candidates, S.model_copy(update={"assignment": "one_to_one"})
    )
    assert sum(m.cli_slug == "m" for m in one.matches) == 1
