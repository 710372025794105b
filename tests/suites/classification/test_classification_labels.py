"""normalize_label and the ERROR sentinel (seed 000 §1)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from assay.suites.classification import ERROR_PREFIX, is_error_output, normalize_label

VALID = ["contract", "corporate_record", "court_opinion", "memo", "letter"]


def test_lowercase_and_quotes() -> None:
    assert normalize_label("Contract") == "contract"
    assert normalize_label('"memo"') == "memo"
    assert normalize_label("  `letter`  ") == "letter"
    assert normalize_label("“memo”") == "memo"


def test_json_object_doc_type_preferred() -> None:
    assert normalize_label({"doc_type": "Memo", "confidence": 0.3}) == "memo"
    assert normalize_label('{"doc_type": "corporate_record"}') == "corporate_record"
    assert normalize_label('{"doc_type": "Corporate Record"}', VALID) == "corporate_record"


def test_word_boundary_fallback() -> None:
    assert normalize_label("Corporate Record", VALID) == "corporate_record"
    assert normalize_label("corporate record", VALID) == "corporate_record"
    assert normalize_label("corporate-record", VALID) == "corporate_record"
    assert normalize_label("This document is a court opinion.", VALID) == "court_opinion"
    # no partial-word matches: "memorandum" is not "memo"
    assert normalize_label("memorandum", VALID) == "memorandum"


def test_longest_match_wins() -> None:
    valid = ["contract", "employment_contract"]
    assert normalize_label("an employment contract", valid) == "employment_contract"


def test_non_string_labels() -> None:
    assert normalize_label(1) == "1"
    assert normalize_label(1.0) == "1"
    assert normalize_label(True) == "true"
    assert normalize_label(None) == ""


def test_error_sentinel() -> None:
    assert ERROR_PREFIX == "ERROR: "
    assert is_error_output("ERROR: timeout")
    assert not is_error_output("error: lowercase is an answer")
    assert not is_error_output(None)


@given(st.sampled_from(VALID), st.sampled_from(["{}", "{}.", "The answer: {}", '"{}"']))
def test_valid_label_recovered_from_wrapping(label: str, template: str) -> None:
    text = template.format(label.replace("_", " ").title())
    assert normalize_label(text, VALID) == label


@given(st.text(max_size=40))
def test_normalize_is_idempotent_without_valid_set(text: str) -> None:
    once = normalize_label(text)
    assert normalize_label(once) == once
