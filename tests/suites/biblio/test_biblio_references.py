"""Reference matching cascade, field accuracies and their sparse-field rules (seed 002)."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay._matching import greedy_match
from assay.suites.biblio._lib.export import Reference
from assay.suites.biblio._lib.normalize import normalize_doi
from assay.suites.biblio._lib.references import (
    FieldCount,
    cascade_weights,
    first_surname,
    match_references,
    score_references,
)
from assay.suites.biblio.settings import BiblioSettings
from tests.conftest import SHARED

S = BiblioSettings()


def R(**kw: object) -> Reference:
    people = kw.pop("authors", ())
    return Reference(authors=[{"family": a} for a in people], **kw)  # type: ignore[arg-type,list-item]


class TestGreedy:
    def test_global_best_first_not_row_order(self) -> None:
        # row 0 would take col 0 first in a row-by-row greedy; the global greedy takes (1, 0)
        m = greedy_match([[0.8, 0.7], [0.9, 0.1]])
        assert [(x.row, x.col) for x in m] == [(0, 1), (1, 0)]

    def test_ties_lowest_row_then_col(self) -> None:
        m = greedy_match([[1.0, 1.0], [1.0, 1.0]])
        assert [(x.row, x.col) for x in m] == [(0, 0), (1, 1)]

    def test_min_score_and_nan(self) -> None:
        assert greedy_match([[0.0, np.nan]]) == []
        assert greedy_match(np.zeros((0, 3))) == []

    @settings(max_examples=50, deadline=None)
    @given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 10_000))
    def test_one_to_one_and_maximal(self, r: int, c: int, seed: int) -> None:
        scores = np.random.default_rng(seed).random((r, c))
        matches = greedy_match(scores)
        assert len({m.row for m in matches}) == len(matches) == len({m.col for m in matches})
        assert len(matches) == min(r, c)  # every score > 0: greedy leaves nothing matchable
        best = max(matches, key=lambda m: m.score)
        assert best.score == pytest.approx(scores.max())


class TestCascade:
    def test_levels(self) -> None:
        gold = [
            R(doi="10.1000/a", title="Alpha beta gamma"),
            R(title="Deep learning for protein structure prediction"),
            R(title="Something", authors=("Smith",), year="2001"),
            R(raw="Jones K. Citations in the wild. Journal of Things 1999;12:3-4."),
        ]
        pred = [
            R(raw="Jones K, Citations in the wild, J Things 1999 12 3-4", title="Citations wild"),
            R(authors=("Smith",), year="2001", title="Totally different words"),
            R(title="Deep learning for protein-structure prediction."),
            R(doi="https://doi.org/10.1000/A", title="Unrelated"),
        ]
        m = match_references(gold, pred, S)
        assert {(g, p): lv for g, p, lv in m.pairs} == {
            (0, 3): "doi",
            (1, 2): "title",
            (2, 1): "author_year",
            (3, 0): "raw",
        }
        assert m.f1 == 1.0

    def test_weights_follow_the_first_level_met(self) -> None:
        gold = [R(doi="10.1000/a", title="Same title here")]
        pred = [R(doi="10.1000/a", title="Same title here")]
        weights, level = cascade_weights(gold, pred, S)
        assert weights[0, 0] == 1.0 and level[0, 0] == 0

    def test_doi_beats_title_in_greedy(self) -> None:
        gold = [R(doi="10.1000/a", title="Protein folding in vivo")]
        pred = [R(title="Protein folding in vivo"), R(doi="10.1000/a", title="x")]
        assert match_references(gold, pred, S).pairs == ((0, 1, "doi"),)

    def test_author_year_needs_both(self) -> None:
        gold = [R(authors=("Smith",), year="2001")]
        assert match_references(gold, [R(authors=("Smith",), year="2002")], S).pairs == ()

    def test_f1_invented_references_zero_both_empty_null(self) -> None:
        assert match_references([], [R(title="x")], S).f1 == 0.0  # bibr: invented refs are wrong
        assert match_references([], [], S).f1 is None
        assert match_references([R(title="x")], [], S).f1 == 0.0

    def test_f1_counts(self) -> None:
        gold = [R(doi=f"10.1000/{i}") for i in range(4)]
        pred = [R(doi="10.1000/0"), R(doi="10.1000/1"), R(doi="10.9000/z")]
        assert match_references(gold, pred, S).f1 == pytest.approx(2 * 2 / 7)


class TestFields:
    def test_field_accuracies(self) -> None:
        gold = [
            R(
                doi="10.1000/a",
                title="Cutaneous metastatic disease",
                year="1995",
                authors=("Schwartz", "Lee"),
                container="J Am Acad Dermatol",
                volume="33",
                pages="161-82",
            ),
            R(doi="10.1000/b", title="Tumor invasion of the skin", year="2008", pages="89-102"),
        ]
        pred = [
            R(
                doi="10.1000/a",
                title="Cutaneous metastatic disease.",
                year="1995",
                authors=("Schwartz",),
                container="J. Am. Acad. Dermatol.",
                volume="33",
                pages="161–82",
            ),
            R(doi="10.1000/b", title="Tumour invasion", year="2009", pages="89"),
        ]
        s = score_references(gold, pred, S)
        assert s.fields["ref_title_acc"] == FieldCount(2, 2, 1)
        assert s.fields["ref_year_acc"] == FieldCount(2, 2, 1)
        assert s.fields["ref_author_acc"] == FieldCount(1, 1, 0)  # Lee not recalled
        assert s.fields["ref_journal_acc"] == FieldCount(1, 1, 1)
        assert s.fields["ref_volume_acc"] == FieldCount(1, 1, 1)
        # pages as printed: 161-82 = 161–82 (any dash); 89 ≠ 89-102; nothing is expanded
        assert s.fields["ref_pages_acc"] == FieldCount(2, 2, 1)
        assert s.doi_recall == 1.0

    def test_sparse_rules(self) -> None:
        # gold carries titles; extraction lost the bibliography: score 0, micro counts misses
        lost = FieldCount(with_field=5, matched=0, correct=0)
        assert lost.score == 0.0 and lost.micro == (0, 5)
        # gold lacks the field: null, counted nowhere
        absent = FieldCount(0, 0, 0)
        assert absent.score is None and absent.micro == (0, 0)
        ok = FieldCount(5, 4, 3)
        assert ok.score == 0.75 and ok.micro == (3, 4)

    def test_paper_with_no_matched_pair_carrying_the_field(self) -> None:
        gold = [R(title="A long title about things", volume="3")]
        s = score_references(gold, [], S)
        assert s.fields["ref_volume_acc"].score == 0.0
        assert s.fields["ref_volume_acc"].micro == (0, 1)
        assert s.fields["ref_pages_acc"].score is None

    def test_doi_recall_counts_unmatched_as_misses(self) -> None:
        gold = [R(doi="10.1000/a"), R(doi="10.1000/b"), R(title="no doi here at all")]
        s = score_references(gold, [R(doi="10.1000/a")], S)
        assert s.doi_recall == 0.5
        assert s.doi.micro == (1, 2)
        assert score_references([R(title="x y")], [], S).doi_recall is None

    def test_count_ratio(self) -> None:
        s = score_references([R(title="a b")] * 4, [R(title="a b")] * 2, S)
        assert s.count_ratio == 0.5
        assert score_references([], [R(title="a")], S).count_ratio == 0.0
        assert score_references([], [], S).count_ratio is None


GLUTTON = SHARED / "data/biblio/biblio_glutton/references-doi-matching.json.gz"


@pytest.mark.skipif(
    not GLUTTON.exists(), reason="../shared/data/biblio is not laid beside the clone"
)
def test_glutton_raw_strings_match_their_own_gold() -> None:
    """Raw reference strings against structured gold: with DOIs on both sides every pair is a
    DOI match; with raw strings only, the cascade's matches are overwhelmingly the right pairs."""
    with gzip.open(GLUTTON) as f:
        rows = json.loads(f.read())[:400]
    gold = [
        Reference(
            title=r.get("atitle"),
            authors=[{"family": r["firstAuthor"]}] if r.get("firstAuthor") else [],
            container=r.get("jtitle"),
            volume=r.get("volume"),
            pages=r.get("firstPage"),
            doi=r["doi"],
        )
        for r in rows
    ]
    for k in range(0, 400, 40):
        g = gold[k : k + 40]
        with_doi = [Reference(raw=r["reference"], doi=r["doi"]) for r in rows[k : k + 40]][::-1]
        m = match_references(g, with_doi, S)
        assert len(m.pairs) == 40 and all(lv == "doi" for *_, lv in m.pairs)
        assert all(
            normalize_doi(g[gi].doi) == normalize_doi(with_doi[pi].doi) for gi, pi, _ in m.pairs
        )
    correct = total = 0
    for k in range(0, 400, 40):
        g = [x.model_copy(update={"doi": None}) for x in gold[k : k + 40]]
        raw = [Reference(raw=r["reference"]) for r in rows[k : k + 40]][::-1]
        m = match_references(g, raw, S)
        total += len(m.pairs)
        correct += sum(1 for gi, pi, _ in m.pairs if gi == 39 - pi)
    assert total > 0
    assert correct / total > 0.9


GROUP = "National High Blood Pressure Education Program Working Group on Blood Pressure"


@pytest.mark.parametrize(
    "authors",
    [
        {"authors_text": GROUP + ", Smith J."},  # printed
        {"authors": [{"full_name": GROUP}, {"family": "Smith"}]},  # a list, a group author
        {"authors": [{"family": GROUP}]},  # a list, the group as a family (bibr 12's literal)
        {"authors": [GROUP, "Smith, J."]},  # a list of strings
    ],
)
def test_first_surname_is_bibrs_first_word_whatever_the_shape(authors: dict[str, object]) -> None:
    """bibr reads the first word of the printed list, or of the first author's family (a dict)
    or name (a string): a group author is "national" in every shape (issue 34)."""
    reference = Reference.model_validate({"title": "The fourth report", "year": "2004", **authors})
    assert first_surname(reference) == "national"


def test_a_group_author_pairs_whatever_the_shape_of_either_side() -> None:
    """CERMINE's apa0100-0653: the gold's group author as a family-less name, the prediction's
    as a shorter printed string, its title polluted: paired by first author + year."""
    gold = Reference.model_validate(
        {"title": "The fourth report on the diagnosis", "year": "2004",
         "authors": [{"full_name": GROUP}]}
    )  # fmt: skip
    for pred_authors in (
        {"authors_text": "National High Blood Pressure Education Program Working"},
        {"authors": [{"family": "National High Blood Pressure Education Program Working"}]},
    ):
        pred = Reference.model_validate(
            {"title": "Group on Blood Pressure. Report", "year": "2004", **pred_authors}
        )
        matching = match_references([gold], [pred], BiblioSettings(weight_raw=0.0))
        assert [level for _, _, level in matching.pairs] == ["author_year"]
