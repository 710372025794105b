"""Pairing keys: DOI normalization with filename fallback."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assay._engine.keys import doi_or_filename_key, normalize_doi
from assay._io.records import SourceRecord


@pytest.mark.parametrize(
    ("raw", "doi"),
    [
        ("10.7554/eLife.00001", "10.7554/elife.00001"),
        ("https://doi.org/10.7554/eLife.00001", "10.7554/elife.00001"),
        ("http://dx.doi.org/10.1000/ABC.", "10.1000/abc"),
        ("doi: 10.1000/x%2Fy", "10.1000/x/y"),
        ("not a doi", None),
        ("", None),
        (None, None),
        (12, None),
    ],
)
def test_normalize_doi(raw: object, doi: str | None) -> None:
    assert normalize_doi(raw) == doi


def test_doi_key_with_filename_fallback() -> None:
    with_doi = SourceRecord("x", {"metadata": {"doi": "DOI:10.1234/AbC"}}, "d/p1.json", None)
    assert doi_or_filename_key(with_doi, "metadata.doi") == "10.1234/abc"
    without = SourceRecord("x", {"metadata": {}}, "d/paper-7.tei.json", None)
    assert doi_or_filename_key(without, "metadata.doi") == "paper-7"


@given(st.from_regex(r"10\.[0-9]{4,6}/[A-Za-z0-9._-]{1,20}", fullmatch=True))
def test_normalization_is_idempotent(doi: str) -> None:
    once = normalize_doi(doi)
    # None only when nothing but trailing punctuation follows the slash
    assert (once is None) == (doi.split("/", 1)[1].rstrip(".,;:)]}>\"'") == "")
    if once is not None:
        assert normalize_doi(once) == once
    assert normalize_doi("https://doi.org/" + doi) == once


def test_a_prefix_with_only_punctuation_after_the_slash_is_no_doi() -> None:
    assert normalize_doi("10.0000/.") is None
    assert normalize_doi("see 10.1000/)") is None
    assert normalize_doi("10.1000/a.") == "10.1000/a"
