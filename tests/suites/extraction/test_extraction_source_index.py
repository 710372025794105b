"""The source index's token look-ups against the plain definition: a token is in the document
when it is one of the document's normalized word tokens (``tokens(text)``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay._fields.text import content_tokens, tokens
from assay.suites.extraction._lib import audit
from assay.suites.extraction._lib.audit import SourceIndex

#: words that occur inside one another ("co" in "corp" and "acme.co"), digits, a stopword
WORDS = ["co", "corp", "acme", "acme.co", "1", "10", "2019", "the", "pay", "payment", "café"]
DOC = st.lists(
    st.one_of(st.sampled_from(WORDS), st.sampled_from([" ", "\n", ", ", "-", "(", ")", "ACME"])),
    max_size=40,
).map("".join)
QUERY = st.sampled_from(
    ["co", "corp", "acme", "ACME", "1", "10", "2019", "the", "pay", "cafe", "x", "é"]
)


def _plain_coverage(text: str, item: str) -> float:
    want = content_tokens(item) or tokens(item)
    have = frozenset(tokens(text))
    return sum(1 for t in want if t in have) / len(want) if want else 0.0


@pytest.mark.parametrize(("misses", "inside"), [(16, 8), (16, 1), (16, 0), (1, 8), (0, 8)])
@given(doc=DOC, queries=st.lists(QUERY, max_size=8))
@settings(max_examples=150, deadline=None)
def test_has_token_equals_token_membership(
    doc: str, queries: list[str], misses: int, inside: int
) -> None:
    plain = frozenset(tokens(doc))
    with pytest.MonkeyPatch.context() as mp:
        # small limits send the look-ups down the fallback paths: the word form (after
        # `inside` occurrences inside longer words), the token set (after `misses` misses)
        mp.setattr(audit, "SCAN_MISSES", misses)
        mp.setattr(audit, "INSIDE_TRIES", inside)
        # the text alone, or with its bytes as a source document read as ASCII hands them
        raw = doc.encode("ascii") if doc.isascii() else None
        for index in (SourceIndex(doc), SourceIndex(doc, raw)):
            for q in queries:
                assert index.has_token(q) == (q in plain)
                assert index.has_token(q) == (q in plain)  # memoized answer
            assert index.token_set == plain


@given(doc=DOC, items=st.lists(st.lists(QUERY, max_size=5).map(" ".join), max_size=5))
@settings(max_examples=150, deadline=None)
def test_coverage_equals_the_plain_token_coverage(doc: str, items: list[str]) -> None:
    index = SourceIndex(doc)
    for item in items:
        assert index.coverage(item) == _plain_coverage(doc, item)
        assert index.grounds(item, "name", 0.7) == (_plain_coverage(doc, item) >= 0.7)


@given(
    doc=DOC,
    items=st.lists(st.lists(QUERY, max_size=6).map(" ".join), max_size=5),
    threshold=st.sampled_from([0.0, 0.25, 0.5, 2 / 3, 0.7, 0.75, 1.0, 1.5]),
)
@settings(max_examples=200, deadline=None)
def test_grounds_stopping_early_equals_the_full_coverage_test(
    doc: str, items: list[str], threshold: float
) -> None:
    # a fresh index per item: nothing memoized by an earlier full coverage
    for item in items:
        expected = _plain_coverage(doc, item) >= threshold
        assert SourceIndex(doc).grounds(item, "name", threshold) == expected


def test_a_query_that_is_no_token_is_absent() -> None:
    index = SourceIndex("Acme Corp. pays the fee")
    for query in ("acme corp", "corp ", "", "the fee", " "):
        assert not index.has_token(query)
    assert index.has_token("corp") and index.has_token("fee")


def test_a_token_inside_longer_words_only_is_absent() -> None:
    index = SourceIndex("Acme Corp., acme.co and 2019-10-01; payment")
    assert index.has_token("co")  # "acme.co" writes the token "co"
    assert not index.has_token("pay")  # only inside "payment"
    assert index.has_token("10") and index.has_token("corp") and index.has_token("acme")
    assert not index.has_token("x")
