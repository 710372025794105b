"""Parsers and the scalar scorers: dates, money, durations, ids, free text, containment."""

from __future__ import annotations

import pytest

from assay._fields import (
    FieldSettings,
    ParsedDate,
    date_candidates,
    infer_field_type,
    is_null_expectation,
    normalize_id,
    parse_date,
    parse_duration_days,
    parse_money,
    score_containment_field,
    score_duration_field,
    score_free_text_field,
    score_id_field,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-03-03", ParsedDate(2024, 3, 3)),
        ("03/03/2024", ParsedDate(2024, 3, 3)),
        ("5/8/2014", ParsedDate(2014, 5, 8)),
        ("11/4/10", ParsedDate(2010, 11, 4)),
        ("9/9/97", ParsedDate(1997, 9, 9)),
        ("March 3, 2024", ParsedDate(2024, 3, 3)),
        ("Mar. 3rd, 2024", ParsedDate(2024, 3, 3)),
        ("3 March 2024", ParsedDate(2024, 3, 3)),
        ("10th day of January 2000", ParsedDate(2000, 1, 10)),
        ("this 1st day of July, 1999", ParsedDate(1999, 7, 1)),
        ("the 3rd of March, 2024", ParsedDate(2024, 3, 3)),
        ("2O24-O3-O3", ParsedDate(2024, 3, 3)),
        ("March 2024", ParsedDate(2024, 3)),
        ("2024", ParsedDate(2024)),
        ("[]/[]/2020", ParsedDate(2020)),
        ("le 3 mars 2024", ParsedDate(2024, 3, 3)),
    ],
)
def test_parse_date(text: str, expected: ParsedDate) -> None:
    assert parse_date(text) == expected


@pytest.mark.parametrize(
    "text", ["", "perpetual", "Section 5", "[]/[]/19[]", "_____ day of ____, 19"]
)
def test_no_date(text: str) -> None:
    assert parse_date(text) is None


def test_missing_parts_never_come_from_today() -> None:
    # dateutil alone would fill the day (and a missing year) from the clock
    assert parse_date("March 2024") == ParsedDate(2024, 3, None)
    assert parse_date("June 5") is None


def test_date_candidates_in_a_document() -> None:
    text = "Signed 1/2/2003. Effective as of March 4, 2003, until [ ]/[ ]/2005."
    assert date_candidates(text) == [
        ParsedDate(2003, 1, 2),
        ParsedDate(2003, 3, 4),
        ParsedDate(2005),
    ]


def test_label_only_and_word_answers() -> None:
    assert is_null_expectation("Effective Date:")
    assert not is_null_expectation("perpetual")
    assert not is_null_expectation("")


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("$250,000", 250_000.0),
        ("250K", 250_000.0),
        ("$2.5mm", 2_500_000.0),
        ("USD 1.5 million", 1_500_000.0),
        ("EUR 10 bn", 10_000_000_000.0),
        ("One Million U.S. Dollars ($1,000,000)", 1_000_000.0),
        ("1,234.56 dollars", 1234.56),
        (1200, 1200.0),
    ],
)
def test_parse_money(text: object, amount: float) -> None:
    assert parse_money(text) == pytest.approx(amount)


def test_money_prose_is_not_an_amount() -> None:
    assert parse_money("up to $5,000 per month after the first year") is None
    assert parse_money("a reasonable fee") is None


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("2 years", 730.5),
        ("thirty-six (36) months", 1095.75),
        ("90 days", 90.0),
        ("successive 1 year", 365.25),
        ("for a period of two years", 730.5),
        ("6 weeks", 42.0),
        ("24 months", 730.5),
    ],
)
def test_parse_duration(text: str, days: float) -> None:
    assert parse_duration_days(text) == pytest.approx(days)


def test_duration_scorer() -> None:
    assert score_duration_field("24 months", "2 years").score == 1.0
    assert score_duration_field("1 year", "2 years").score == 0.0
    assert score_duration_field("perpetual", "Perpetual").score == 1.0


def test_id_normalization() -> None:
    assert normalize_id("Acme Corp.") == "ACME"
    assert normalize_id("12-cv-0345 ") == "12CV0345"
    assert score_id_field("12 CV 0345", "12-cv-0345").score == 1.0
    assert score_id_field("12-cv-0346", "12-cv-0345").score == 0.0
    s = FieldSettings(corporate_suffixes=[])
    assert normalize_id("Acme Corp.", s) == "ACMECORP"


def test_free_text_is_squad_f1() -> None:
    assert score_free_text_field("the cat sat", "a cat sat").score == 1.0
    # pred {cat, sat, down}, gold {cat, sat}: P = 2/3, R = 1, F1 = 0.8
    assert score_free_text_field("cat sat down", "cat sat").score == pytest.approx(0.8)
    assert score_free_text_field("dog", "cat").score == 0.0


def test_containment_ignores_stopwords_and_riders() -> None:
    gold = "This Agreement shall be governed by the laws of the State of Texas."
    pred = gold + " See Section 12.4 for venue; Exhibit B applies."
    assert score_containment_field(pred, gold).score == 1.0
    # content tokens: agreement, governed, laws, state, texas
    assert score_containment_field("Texas", gold).score == pytest.approx(1 / 5)


def test_name_heuristic() -> None:
    assert infer_field_type("effective_date") == "date"
    assert infer_field_type("contract_value") == "money"
    assert infer_field_type("notice_period") == "duration"
    assert infer_field_type("docket_number") == "id"
    assert infer_field_type("governing_law") == "containment"
    assert infer_field_type("parties") == "entity_list:name"
    assert infer_field_type("key_obligations") == "entity_list:free_text"
    assert infer_field_type("products", ["a", "b"]) == "entity_list:name"
    assert infer_field_type("document_name") == "name"
