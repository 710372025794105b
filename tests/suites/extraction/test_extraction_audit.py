"""The factuality audit's fast paths against their plain definitions: ``audit_items`` (shared
one-item records, batched item tokenization, the row maxima) against a per-item loop over the
plain token coverage, and the source index's lowered bytes (no copy when there is no capital)
against ``bytes.lower``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from numpy.typing import NDArray

from assay._fields import parse_date
from assay._fields.text import content_tokens, tokens
from assay.suites.extraction._lib import audit
from assay.suites.extraction._lib.audit import Audit, SourceIndex, _has_upper, audit_items

#: words inside one another, capitals, digits, stopwords, punctuation, a non-ASCII word, dates
WORDS = [
    "co", "corp", "Corp.", "acme", "ACME", "acme.co", "1", "10", "$1", "2019", "the", "of", "pay",
    "payment", "café", "Zeta", "zeta-9", "2019-10-01", "October 1, 2019", "1/10/2019", "(a)",
]  # fmt: skip
SEPARATORS = [" ", "\n", ", ", "-", "; "]
DOC = st.lists(st.sampled_from(WORDS + SEPARATORS), max_size=40).map("".join)
ITEM = st.lists(st.sampled_from(WORDS), max_size=5).map(" ".join) | st.sampled_from(WORDS)
ELEMENT = st.sampled_from(["name", "free_text", "date", "money"])
THRESHOLD = st.sampled_from([0.0, 0.5, 2 / 3, 0.7, 1.0, 1.5])


def _plain_coverage(text: str, item: str) -> float:
    want = content_tokens(item) or tokens(item)
    have = frozenset(tokens(text))
    return sum(1 for t in want if t in have) / len(want) if want else 0.0


def _plain_audit(
    items: list[str],
    similarity: NDArray[np.float64] | None,
    matched: set[int],
    element: str,
    doc: str | None,
    match_threshold: float,
    coverage_threshold: float,
) -> dict[str, Any]:
    """The seed's record item by item: matched, a row maximum reaching the threshold (NaN
    never does), a date the document writes, or the plain token coverage."""
    true_items = len(matched)
    for i, item in enumerate(items):
        if i in matched:
            continue
        near = (
            similarity is not None
            and similarity.shape[1] > 0
            and bool(similarity[i].max() >= match_threshold)
        )
        grounded = False
        if doc is not None:
            parsed = parse_date(item) if element == "date" else None
            if parsed is not None and parsed.full:
                # the date search itself is checked against its plain definition elsewhere
                grounded = SourceIndex(doc).has_date(parsed)
            else:
                grounded = _plain_coverage(doc, item) >= coverage_threshold
        true_items += near or grounded
    n = len(items)
    return {
        "n_predicted": n,
        "matched_gt": len(matched),
        "verified_in_doc": true_items,
        "true_items": true_items,
        "verified_precision": true_items / n if n else None,
        "hallucinated": n - true_items,
        "hallucination_rate": (n - true_items) / n if n else None,
        "doc_verification": doc is not None,
    }


@st.composite
def _cases(draw: st.DrawFn) -> tuple[Any, ...]:
    items = draw(st.lists(ITEM, max_size=6))
    n = len(items)
    columns = draw(st.integers(0, 3))
    similarity = draw(
        st.none()
        | arrays(
            np.float64,
            (n, columns),
            elements=st.sampled_from([0.0, 0.3, 0.59, 0.6, 0.61, 1.0, float("nan")]),
        )
    )
    matched = draw(st.sets(st.integers(0, max(n - 1, 0)), max_size=n)) if n else set()
    return items, similarity, matched


@given(
    case=_cases(),
    element=ELEMENT,
    doc=st.none() | DOC,
    match_threshold=st.sampled_from([0.6, 1.0]),
    coverage_threshold=THRESHOLD,
    with_bytes=st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_audit_items_equals_the_item_by_item_definition(
    case: tuple[Any, ...],
    element: str,
    doc: str | None,
    match_threshold: float,
    coverage_threshold: float,
    with_bytes: bool,
) -> None:
    items, similarity, matched = case
    raw = doc.encode("ascii") if with_bytes and doc is not None and doc.isascii() else None
    source = None if doc is None else SourceIndex(doc, raw)
    expected = _plain_audit(
        items, similarity, matched, element, doc, match_threshold, coverage_threshold
    )
    # twice on one index: the second audit answers from the memoized look-ups
    for _ in range(2):
        got = audit_items(
            items,
            similarity,
            matched,
            element,
            source,
            match_threshold=match_threshold,
            coverage_threshold=coverage_threshold,
        )
        assert got.to_json() == expected
        assert list(got.to_json()) == list(audit.AUDIT_KEYS)


@given(doc=DOC, items=st.lists(ITEM, max_size=6), element=ELEMENT, threshold=THRESHOLD)
@settings(max_examples=200, deadline=None)
def test_count_grounded_equals_grounds_item_by_item(
    doc: str, items: list[str], element: str, threshold: float
) -> None:
    expected = sum(SourceIndex(doc).grounds(item, element, threshold) for item in items)
    assert SourceIndex(doc).count_grounded(items, element, threshold) == expected


def test_one_item_records_are_shared_and_their_json_is_a_fresh_dict() -> None:
    index = SourceIndex("Acme Corp pays the fee")
    first = audit_items(
        ["acme"], None, set(), "name", index, match_threshold=0.6, coverage_threshold=0.7
    )
    again = audit_items(
        ["fee"], None, set(), "name", index, match_threshold=0.6, coverage_threshold=0.7
    )
    assert first is again and first == Audit(1, 0, 1, 1, True)
    record = first.to_json()
    record["true_items"] = 99
    assert first.to_json()["true_items"] == 1 and first.to_json() is not record
    missing = audit_items(
        ["zeta"], None, set(), "name", index, match_threshold=0.6, coverage_threshold=0.7
    )
    assert missing.to_json()["hallucinated"] == 1 and missing == Audit(1, 0, 0, 0, True)


ASCII_TEXT = st.binary(max_size=64).map(lambda b: bytes(c & 0x7F for c in b))


@pytest.mark.parametrize("head", [0, 1, 3, 4096])
@given(raw=st.binary(max_size=64) | ASCII_TEXT, capital_at=st.none() | st.integers(0, 80))
@settings(max_examples=150, deadline=None)
def test_has_upper_equals_a_change_by_lower(raw: bytes, capital_at: int | None, head: int) -> None:
    if capital_at is not None:  # one capital, before, at or after the head's end
        raw = raw.lower()[:capital_at] + b"Q" + raw.lower()[capital_at:]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(audit, "_HEAD", head)
        assert _has_upper(raw) == (raw.lower() != raw)
        # the bytes next to "A" - "Z" and to "a" - "z", and the ends of the byte values
        assert not _has_upper(raw.lower() + b"@[`{\x00\x7f\x80\xff")


@given(doc=DOC.map(str.lower) | DOC, with_bytes=st.booleans())
@settings(max_examples=150, deadline=None)
def test_lowered_bytes_equal_bytes_lower(doc: str, with_bytes: bool) -> None:
    if not doc.isascii():
        return
    raw = doc.encode("ascii")
    index = SourceIndex(doc, raw if with_bytes else None)
    assert index._lowered == raw.lower()
    plain = frozenset(tokens(doc))
    for query in ["co", "corp", "acme", "zeta", "9", "10", "pay", "the", "x"]:
        assert index.has_token(query) == (query in plain)
