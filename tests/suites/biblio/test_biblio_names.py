"""The full-name matcher (bibr's rule): Jaro-Winkler on name keys, sorted-token variant,
token-coverage guard, globally greedy matching."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.suites.biblio._lib.names import (
    match_names,
    name_key,
    name_similarity,
    tokens_covered,
)

WORD = st.text(alphabet="abcdefghijklmnop", min_size=1, max_size=8)
NAME = st.lists(WORD, min_size=1, max_size=4).map(" ".join)


def test_name_key() -> None:
    assert name_key("  José GARCÍA ") == "jose garcia"
    assert name_key("Fre´ de´ ric") == "fre  de  ric"  # NFKD splits a spacing accent


@pytest.mark.parametrize(
    "pred, gold, match",
    [
        ("n. king", "nicole king", True),  # an initialised given name
        ("bent schmidt nielsen", "bent schmidt-nielsen", True),  # hyphen or space
        ("oloda oluwatayo felix", "oluwatayo felix oloda", True),  # family-first byline
        ("louise wichmann matthiessen", "louise wichmann matthiessen", True),
        ("kaisin", "kaisin yee", False),  # a dropped surname: the coverage guard
        ("ann lee", "bo chen", False),
    ],
)
def test_decisions(pred: str, gold: str, match: bool) -> None:
    assert bool(match_names([gold], [pred], full_names=True)) is match


def test_family_names_use_plain_jaro_winkler() -> None:
    # the family diagnostic keeps the boundary disagreement a full-name match forgives
    assert match_names(["wichmann matthiessen"], ["matthiessen"], full_names=False) == {}


def test_greedy_prefers_the_better_pair() -> None:
    gold = ["anna smith", "anne smith"]
    assert match_names(gold, ["anne smith"], full_names=True) == {1: 0}


@settings(max_examples=80, deadline=None)
@given(NAME, NAME)
def test_similarity_bounded_and_symmetric(a: str, b: str) -> None:
    s = name_similarity(a, b)
    assert 0.0 <= s <= 1.0
    assert s == pytest.approx(name_similarity(b, a))


@settings(max_examples=80, deadline=None)
@given(st.lists(WORD, min_size=1, max_size=4), st.randoms())
def test_token_order_does_not_matter(words: list[str], rnd: object) -> None:
    shuffled = list(words)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert name_similarity(" ".join(shuffled), " ".join(words)) == pytest.approx(1.0)
    assert tokens_covered(" ".join(shuffled), " ".join(words))


@settings(max_examples=60, deadline=None)
@given(st.lists(NAME, min_size=1, max_size=5, unique=True))
def test_every_name_matches_itself(names: list[str]) -> None:
    assert len(match_names(names, names, full_names=True)) == len(names)
