"""Front-matter metrics, each checked against its definition in seed 002."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.suites.biblio._lib.export import Author
from assay.suites.biblio._lib.front import (
    affiliation_sim,
    corresponding_acc,
    doi_match,
    email_f1,
    keywords_f1,
    match_authors,
    ned_similarity,
    orcid_f1,
    rouge_l,
    title_soft,
)


def _lcs(a: list[str], b: list[str]) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = (
                table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
            )
    return table[-1][-1]


class TestTitleSoft:
    def test_exact_after_normalization(self) -> None:
        assert (
            title_soft(
                "  PLACENTAL programming: of blood-pressure ",
                "Placental programming of blood pressure",
            )
            == 1.0
        )

    def test_prefix_keeping_70_percent(self) -> None:
        gold = "Pi sampling a methodical and flexible approach"
        assert title_soft("Pi sampling a methodical and flexible", gold) == 1.0  # 37/46 chars
        assert title_soft("Pi sampling a", gold) == 0.0  # a prefix, but far too short

    def test_prefix_must_be_word_aligned(self) -> None:
        assert title_soft("Placental program", "Placental programming") == 0.0

    def test_shorter_side_needs_two_words(self) -> None:
        assert title_soft("Cancer", "Cancer") == 1.0  # exact match needs no length
        assert title_soft("Cancerology", "Cancerology x") == 0.0

    def test_unspaced_scripts_need_six_characters(self) -> None:
        gold = "蛋白质结构预测方法：研究"  # the full-width colon is a word boundary
        assert title_soft("蛋白质结构预测方法", gold) == 1.0  # 9 of 11 characters
        assert title_soft("蛋白质结构预测方法", "蛋白质结构预测方法研究") == 0.0  # mid-word
        assert title_soft("蛋白质结构", "蛋白质结构：预") == 0.0  # five characters only

    def test_two_word_han_title_passes_on_words(self) -> None:
        # bibr: two words qualify the shorter side whatever the script (no 6-character rule)
        assert title_soft("蛋白 结构", "蛋白 结构 x") == 1.0

    def test_accents_are_kept(self) -> None:
        # bibr lower-cases and drops punctuation, nothing more: an accent is a difference
        assert title_soft("Etude des reseaux", "Étude des réseaux") == 0.0
        assert title_soft("ÉTUDE des réseaux", "Étude des réseaux") == 1.0

    def test_null_and_empty(self) -> None:
        assert title_soft("anything", None) is None
        assert title_soft("anything", "  ") is None
        assert title_soft(None, "A real title") == 0.0

    def test_superset_prediction(self) -> None:
        gold = (
            "Pi sampling: a methodical and flexible approach to initial crystallization screening"
        )
        assert title_soft("Biological Crystallography " + gold, gold) == 0.0


class TestDoiMatch:
    def test_normalized_equality(self) -> None:
        assert doi_match("https://doi.org/10.1000/ABC.1.", "doi:10.1000/abc.1") == 1.0

    def test_asserted_against_empty_gold_is_zero(self) -> None:
        assert doi_match("10.1000/x", None) == 0.0

    def test_both_empty_is_null(self) -> None:
        assert doi_match(None, "") is None

    def test_missing_prediction_is_zero(self) -> None:
        assert doi_match(None, "10.1000/x") == 0.0


class TestAbstract:
    def test_rouge_l_by_hand(self) -> None:
        # LCS of "a b c d" and "a c d e" is "a c d" (3): P = R = 3/4
        assert rouge_l("a b c d", "a c d e") == pytest.approx(0.75)

    def test_rouge_l_lower_cases(self) -> None:
        assert rouge_l("The CAT", "the cat") == 1.0
        assert rouge_l("the cat.", "the cat") == pytest.approx(0.5)  # tokens keep punctuation

    def test_rouge_l_null_and_empty(self) -> None:
        assert rouge_l("x", None) is None
        assert rouge_l("", "gold text") == 0.0

    @settings(max_examples=60, deadline=None)
    @given(
        st.lists(st.sampled_from("abcde"), max_size=12),
        st.lists(st.sampled_from("abcde"), min_size=1, max_size=12),
    )
    def test_rouge_l_matches_reference_lcs(self, p: list[str], g: list[str]) -> None:
        lcs = _lcs(p, g)
        expected = (
            0.0 if lcs == 0 else 2 * (lcs / len(p)) * (lcs / len(g)) / (lcs / len(p) + lcs / len(g))
        )
        assert rouge_l(" ".join(p), " ".join(g)) == pytest.approx(expected)

    def test_ned(self) -> None:
        assert ned_similarity("abcd", "abce") == pytest.approx(0.75)
        assert ned_similarity("  SAME text ", "same text") == 1.0  # trimmed, lower-cased
        assert ned_similarity("same  text", "same text") == pytest.approx(0.9)  # not collapsed
        assert ned_similarity(None, "gold") == 0.0
        assert ned_similarity("x", "") is None

    @settings(max_examples=60, deadline=None)
    @given(st.text(max_size=40), st.text(min_size=1, max_size=40).filter(str.strip))
    def test_ned_bounded(self, p: str, g: str) -> None:
        value = ned_similarity(p, g)
        assert value is not None and 0.0 <= value <= 1.0


def _authors(*names: str, **fields: object) -> list[Author]:
    out = []
    for name in names:
        given, _, family = name.rpartition(" ")
        out.append(Author(given=given or None, family=family, **fields))  # type: ignore[arg-type]
    return out


class TestAuthors:
    def test_full_name_ignores_given_family_split(self) -> None:
        gold = [Author(given="Louise", family="Wichmann Matthiessen")]
        pred = [Author(given="Louise Wichmann", family="Matthiessen")]
        m = match_authors(pred, gold)
        assert m.fullname_f1 == 1.0
        assert m.family_f1 == 0.0  # family names differ: authors_f1 sees the split

    def test_f1_counts(self) -> None:
        gold = _authors("Ann Lee", "Bo Chen", "Cy Diaz")
        pred = _authors("Ann Lee", "Bo Chen", "Zed Quux", "Yan Wu")
        m = match_authors(pred, gold)
        assert m.fullname_f1 == pytest.approx(2 * 2 / 7)
        assert m.first_author == 1.0

    def test_invented_authors_score_zero_both_empty_null(self) -> None:
        m = match_authors(_authors("Ann Lee"), [])
        assert (m.fullname_f1, m.family_f1, m.first_author) == (0.0, 0.0, 0.0)
        m = match_authors([], [])
        assert (m.fullname_f1, m.family_f1, m.first_author) == (None, None, None)
        m = match_authors([], _authors("Ann Lee"))
        assert (m.fullname_f1, m.family_f1, m.first_author) == (0.0, 0.0, 0.0)

    def test_initialised_given_name_matches(self) -> None:
        # Jaro-Winkler on "n king" ~ "nicole king" is 0.85; token_sort_ratio would give 71
        assert match_authors(_authors("N. King"), _authors("Nicole King")).fullname_f1 == 1.0

    def test_dropped_surname_fails_the_coverage_guard(self) -> None:
        gold = [Author(given="Kaisin", family="Yee")]
        assert match_authors([Author(full_name="Kaisin")], gold).fullname_f1 == 0.0

    def test_greedy_takes_best_pair_first(self) -> None:
        gold = _authors("Anna Smith", "Anne Smith")
        pred = _authors("Anne Smith")
        assert match_authors(pred, gold).pairs == {1: 0}

    def test_affiliation_sim(self) -> None:
        gold = [
            Author(family="Lee", affiliations=["Dept of Oncology, Herlev Hospital, Denmark"]),
            Author(family="Chen", affiliations=["MIT"]),
            Author(family="Diaz"),
        ]
        pred = [Author(family="Lee", affiliations=["Dept of Oncology, Herlev Hospital, Denmark"])]
        # Lee: 1.0; Chen unmatched: 0.0; Diaz has no gold affiliation: not counted
        assert affiliation_sim(pred, gold) == pytest.approx(0.5)
        assert affiliation_sim(pred, [Author(family="X")]) is None
        # several affiliations are one "; "-joined text, compared by token_set_ratio
        two = [Author(family="Lee", affiliations=["MIT", "Dept of Oncology, Herlev Hospital"])]
        assert affiliation_sim(pred, two) == pytest.approx(0.825)

    def test_email_orcid_f1(self) -> None:
        gold = [Author(family="A", email="A@x.org", orcid="https://orcid.org/0000-0002-1825-009X")]
        pred = [Author(family="A", email="mailto:a@x.org", orcid="0000000218250 09x")]
        assert email_f1(pred, gold) == 1.0
        assert orcid_f1(pred, gold) == 1.0
        assert email_f1(pred, [Author(family="A")]) is None
        assert orcid_f1([], gold) == 0.0

    def test_corresponding_acc(self) -> None:
        gold = [Author(family="A", corresponding=True), Author(family="B", corresponding=False)]
        pred = [Author(family="A", corresponding=False), Author(family="B")]
        # the set of flagged family names must equal gold's: flagging nobody scores 0
        assert corresponding_acc(pred, gold) == 0.0
        assert corresponding_acc([Author(family="a", corresponding=True)], gold) == 1.0
        assert corresponding_acc(pred, [Author(family="A")]) is None

    def test_keywords_f1(self) -> None:
        assert keywords_f1(["Electro  Chemotherapy", "skin"], ["electro chemotherapy"]) == (
            pytest.approx(2 / 3)
        )
        assert keywords_f1(["electro-chemotherapy"], ["electro chemotherapy"]) == 0.0
        assert keywords_f1(["a"], []) is None


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.text(alphabet="abcdefg ", min_size=1, max_size=12), max_size=6),
    # gold with at least one printed name: both sides empty is null by bibr's rule
    st.lists(
        st.text(alphabet="abcdefg ", min_size=1, max_size=12).filter(str.strip),
        min_size=1,
        max_size=6,
    ),
)
def test_author_f1_bounded_and_order_free(p: list[str], g: list[str]) -> None:
    pred = [Author(full_name=x) for x in p]
    gold = [Author(full_name=x) for x in g]
    first = match_authors(pred, gold).fullname_f1
    again = match_authors(list(reversed(pred)), gold).fullname_f1
    assert first is not None and 0.0 <= first <= 1.0
    assert again is not None and 0.0 <= again <= 1.0
