"""The seed's own examples (seed 000 §3) as unit tests."""

from __future__ import annotations

import pytest

from assay._fields import (
    FieldSettings,
    score_date_field,
    score_entity_list,
    score_field,
    score_money_field,
    score_name_field,
)


def test_franchise_agreement_title_is_contained() -> None:
    s = score_name_field(
        "Goosehead Insurance Agency, LLC Franchise Agreement", "FRANCHISE AGREEMENT"
    )
    assert s.score == 1.0
    assert "every expected token" in s.reason


def test_consultant_contained_label_is_instantiated() -> None:
    pred = ['Timothy Cabrera ("Consultant")']
    result = score_entity_list(pred, ["Timothy Cabrera", "Consultant"], partial_gt=True)
    assert result.score == 1.0
    assert result.matched == 1
    assert [rule for _, rule in result.instantiated] == ["contained label (defined-term alias)"]
    # raw numbers are kept for the audit: one of two labels matched one-to-one
    assert result.recall == 0.5 and result.precision == 1.0


def test_pronoun_alias_contained_label() -> None:
    pred = ['Goosehead Insurance Agency, LLC ("we," "us," or "our")']
    gold = ["Goosehead Insurance Agency, LLC", '"we," "us," or "our"']
    result = score_entity_list(pred, gold, partial_gt=True)
    assert result.score == 1.0
    # both labels sit verbatim inside the predicted item: each is covered by the rule
    assert result.instantiated == ((0, "contained label"), (1, "contained label"))


def test_role_word_label_needs_a_predicted_party() -> None:
    with_party = score_entity_list(["Acme Shipping Ltd"], ["Shipper."], partial_gt=True)
    assert with_party.score == 1.0
    assert with_party.instantiated == ((0, "role-word label"),)
    no_party = score_entity_list([], ["Shipper."], partial_gt=True)
    assert no_party.score == 0.0


def test_partial_gt_off_scores_f1() -> None:
    result = score_entity_list(
        ['Timothy Cabrera ("Consultant")'], ["Timothy Cabrera", "Consultant"]
    )
    # "Consultant" is contained too, but the one predicted item can match one label only
    assert result.score == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    "gold", ["_____ day of ____, 19", "Effective Date:", "the date of the Closing", "[]/[]/[]"]
)
def test_null_expectation_dates(gold: str) -> None:
    assert score_date_field(None, gold).score == 1.0
    assert score_date_field("", gold).score == 1.0
    assert score_date_field("March 3, 2024", gold).score == 0.0


@pytest.mark.parametrize("gold", ["11/4/10", "9/9/97", "[]/[]/2020"])
def test_parseable_expected_dates_are_never_null(gold: str) -> None:
    assert score_date_field(None, gold).score == 0.0


def test_money_is_exact_to_the_cent() -> None:
    assert score_money_field("$250,001", "$250,000").score == 0.0
    assert score_money_field("$250,000.00", "250000").score == 1.0
    # exactly one cent apart is within one cent (issue 16, case 8)
    assert score_money_field("$250,000.01", "$250,000").score == 1.0
    assert score_money_field("$250,000.02", "$250,000").score == 0.0
    assert score_money_field("$250,000.004", "$250,000").score == 1.0


def test_bare_year_never_earns_full_credit() -> None:
    # ... against a full date; an answer stating exactly what a year-only label states is full
    # credit (issue 16, case 7; llm-dojo-scoring v0.7.0 also gives 1.0)
    assert score_date_field("2024", "2024").score == 1.0
    assert score_date_field("2024", "[]/[]/2024").score == 1.0
    assert score_date_field("2024", "March 3, 2024").score == pytest.approx(0.33)
    assert score_date_field("March 3, 2024", "2024").score == pytest.approx(0.33)


def test_date_partial_credit() -> None:
    assert score_date_field("3/15/2024", "March 3, 2024").score == pytest.approx(0.67)
    assert score_date_field("February 20, 2024", "March 3, 2024").score == pytest.approx(0.67)
    assert score_date_field("December 31, 2024", "March 3, 2024").score == pytest.approx(0.33)
    assert score_date_field("March 3, 2023", "March 3, 2024").score == 0.0
    custom = FieldSettings(date_partial_month=0.5)
    assert score_date_field("3/15/2024", "March 3, 2024", custom).score == 0.5


def test_date_containment_of_several_dates() -> None:
    pred = "dated as of June 1, 2020 and effective July 1, 2020"
    assert score_date_field(pred, "7/1/2020").score == 1.0
    assert score_date_field("July 1, 2020", "June 1, 2020; July 1, 2020").score == 1.0


def test_unparseable_dates_fall_back_to_names() -> None:
    assert score_date_field("Perpetual", "perpetual").score == 1.0
    assert score_date_field("upon signing", "3/3/2024").score < 0.5


def test_dispatch_by_declared_type() -> None:
    assert score_field("$1.5M", "USD 1,500,000", "money").score == 1.0
    assert score_field(["b", "a"], ["a", "b"], "entity_list:name").score == 1.0
    with pytest.raises(ValueError, match="unknown field type"):
        score_field("a", "a", "colour")
