"""The scalar scorers' fast paths against the straightforward definitions written here: the
date pre-check of ``writes_date``, token F1's multiset overlap (its identical-text shortcut is
checked in test_fields_fast_paths.py), the article-free SQuAD tokens, the plain dollar amounts,
the id scorer's single normalization and ``score_field``'s dispatch."""

from __future__ import annotations

import re
from collections import Counter
from itertools import filterfalse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay._fields import DEFAULT_FIELD_SETTINGS, FIELD_SCORERS, score_field
from assay._fields import dates as dates_module
from assay._fields import money as money_module
from assay._fields._text import (
    ARTICLES,
    multiset_intersection,
    squad_tokens,
    tokens,
)
from assay._fields.dates import ParsedDate, date_candidates, parse_date, writes_date
from assay._fields.ids import normalize_id, score_id_field

#: pieces of date texts: numbers (with OCR letters), month names in several cases, ordinal
#: words and suffixes, separators, blanks and a non-ASCII letter
DATE_PIECE = st.sampled_from(
    [
        *("3", "03", "14", "2005", "05", "1", "12", "31", "2O05", "l4", "1|", "o3", "10", "4"),
        *("March", "mar", "MAR.", "Sept", "december", "Dec", "May", "june", "Oct", "Jan"),
        *("fourteenth", "third", "first", "twenty-first", "day", "of", "OF", "in the year"),
        *("th", "st", "t h", "/", "-", ".", ",", " ", "  ", "\n", "[]", "__", "x", "é"),
    ]
)
DATE_TEXT = st.lists(DATE_PIECE, max_size=12).map("".join) | st.lists(DATE_PIECE, max_size=8).map(
    " ".join
)
FULL_DATE = st.builds(
    ParsedDate, st.sampled_from([2005, 2014, 1999]), st.integers(1, 12), st.integers(1, 31)
)


@given(text=DATE_TEXT, date=FULL_DATE | st.sampled_from([ParsedDate(2005, 3, 14)]))
@settings(max_examples=600, deadline=None)
def test_writes_date_equals_membership_in_the_candidates(text: str, date: ParsedDate) -> None:
    # the definition: the date is among those the regular expressions find in the text
    assert writes_date(text, date) == (date in date_candidates(text))
    assert writes_date(text.lower(), date) == (date in date_candidates(text.lower()))


@pytest.mark.parametrize(
    ("text", "date", "written"),
    [
        ("effective 3/14/2005", ParsedDate(2005, 3, 14), True),
        ("effective 4/16/2005", ParsedDate(2005, 1, 4), False),  # month and day digits there
        ("the fourteenth day of March, 2005", ParsedDate(2005, 3, 14), True),  # day from words
        ("the 14th day of MAR. 2005", ParsedDate(2005, 3, 14), True),
        ("signed on l4 Mar 2O05", ParsedDate(2005, 3, 14), True),  # OCR letters
        ("signed on 14 Apr 2005", ParsedDate(2005, 3, 14), False),
        ("3/14/2005", ParsedDate(2005, 13, 14), False),  # no month 13 is ever written
        ("3/14/2005", ParsedDate(2005, 3, 0), False),
    ],
)
def test_writes_date_examples(text: str, date: ParsedDate, written: bool) -> None:
    assert writes_date(text, date) is written
    assert (date in date_candidates(text)) is written


WORD = st.sampled_from(["price", "fee", "the", "a", "an", "The", "x", "2024", "é", "fee,"])
PHRASE = st.lists(WORD, max_size=12).map(" ".join)


@given(a=st.lists(WORD, max_size=15), b=st.lists(WORD, max_size=15))
@settings(max_examples=300, deadline=None)
def test_multiset_intersection_is_the_counter_intersection(a: list[str], b: list[str]) -> None:
    assert multiset_intersection(a, b) == sum((Counter(a) & Counter(b)).values())


@given(text=PHRASE)
@settings(max_examples=200, deadline=None)
def test_squad_tokens_are_the_tokens_without_articles(text: str) -> None:
    assert squad_tokens(text) == tuple(filterfalse(ARTICLES.__contains__, tokens(text)))


AMOUNT = st.one_of(
    st.integers(0, 10**10).map(lambda n: f"${n:,}"),
    st.integers(0, 10**10).map(str),
    st.tuples(st.integers(0, 10**7), st.integers(0, 999)).map(lambda t: f"${t[0]:,}.{t[1]}"),
    st.text(st.sampled_from("$0123456789,. kmMB"), max_size=14),
)


@given(text=AMOUNT)
@settings(max_examples=400, deadline=None)
def test_plain_amounts_parse_as_the_general_parser_reads_them(text: str) -> None:
    fast = money_module.parse_money(text)
    money_module._parse.cache_clear()
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(money_module, "_PLAIN", re.compile(r"(?!)"))  # never matches
            general = money_module.parse_money(text)
    finally:
        money_module._parse.cache_clear()
    assert repr(fast) == repr(general)


@given(pred=PHRASE | st.sampled_from(["No. 12-cv-0345", "Acme Corp.", " "]), same=st.booleans())
@settings(max_examples=200, deadline=None)
def test_id_score_equals_its_definition(pred: str, same: bool) -> None:
    gold = pred if same else pred.upper() + " Inc"
    result = score_id_field(pred, gold)
    p, g = normalize_id(pred), normalize_id(gold)
    if not pred.strip():
        return
    assert result.score == float(p == g)
    assert result.reason == (
        f"normalized ids equal ({g})" if p == g else f"normalized ids differ ({p} ≠ {g})"
    )


@pytest.mark.parametrize("kind", sorted(FIELD_SCORERS))
@pytest.mark.parametrize(
    ("pred", "gold"), [("3/14/2005", "March 14, 2005"), ("$1.5M", "1,500,000"), ("", "x")]
)
def test_score_field_dispatches_to_the_scalar_scorer(kind: str, pred: str, gold: str) -> None:
    direct = FIELD_SCORERS[kind](pred, gold, DEFAULT_FIELD_SETTINGS)
    assert score_field(pred, gold, kind) == direct


def test_parse_date_of_text_and_of_other_values() -> None:
    assert parse_date("3/14/2005") == ParsedDate(2005, 3, 14)
    assert parse_date(["3/14/2005", "x"]) == ParsedDate(2005, 3, 14)
    assert dates_module._parse("3/14/2005") == (ParsedDate(2005, 3, 14), True)
    assert dates_module._parse("on 3/14/2005") == (ParsedDate(2005, 3, 14), False)
