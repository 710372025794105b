"""canonical_json: character for character what json.dumps gives with the canonical options."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay._engine import provenance
from assay._engine.provenance import (
    _short_flat,
    canonical_json,
    canonical_parts,
    json_sha256,
    surface_fingerprint,
    surface_fingerprint_streamed,
)


def reference(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


#: long strings take the replacement path: mostly ASCII text with every character json escapes
special = st.sampled_from(['"', "\\", "\n", "\t", "\r", "\b", "\f", "\x00", "\x01", "\x1f", "\x7f"])
long_ascii = st.lists(
    st.one_of(st.text(alphabet="abc xyz/'", min_size=1, max_size=40), special), min_size=60
).map("".join)
long_text = st.one_of(
    long_ascii, long_ascii.map(lambda s: s + "é"), st.text(min_size=256, max_size=400)
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    long_text,
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=8), long_ascii), inner, max_size=4),
    ),
    max_leaves=12,
)


@given(values)
@settings(max_examples=150, deadline=None)
def test_canonical_json_equals_json_dumps(value: Any) -> None:
    assert canonical_json(value) == reference(value)


@given(st.binary(max_size=600), st.booleans())
@settings(max_examples=150, deadline=None)
def test_the_special_bytes_found_are_those_present(raw: bytes, without_numpy: bool) -> None:
    """``_specials`` (numpy's comparison, or without numpy the deleting translation) against
    the plain definition: every byte json escapes that occurs in the text."""
    want = {b for b in raw if b < 0x20 or b in b'"\\'}
    with pytest.MonkeyPatch.context() as mp:
        if without_numpy:
            mp.delitem(sys.modules, "numpy", raising=False)
        assert provenance._specials(raw) == want


#: a source document's shape: text whose only escaped character is the newline, or not quite
documents = st.lists(
    st.one_of(st.text(alphabet="ab c.", min_size=1, max_size=40), st.just("\n")), min_size=60
).map("".join)


@given(st.one_of(documents, long_ascii, documents.map(lambda s: s + "\t")), st.booleans())
@settings(max_examples=150, deadline=None)
def test_escaped_bytes_are_the_json_string(text: str, without_numpy: bool) -> None:
    """``_escaped`` (newlines only, checked by numpy's minimum; else the set of specials) is
    json's escaping of the text, with numpy loaded or not."""
    with pytest.MonkeyPatch.context() as mp:
        if without_numpy:
            mp.delitem(sys.modules, "numpy", raising=False)
        assert provenance._escaped(text.encode("ascii")) == reference(text)[1:-1].encode()


def test_nested_values_with_non_ascii_or_a_backslash_u_keep_their_characters() -> None:
    """The ASCII-escaping encoder's text is kept only without a ``\\u``: a non-ASCII string (or
    a literal backslash-u, a false alarm) is written by the canonical encoder."""
    for nested in ({"a": "é" * 3, "b": ["x"]}, {"a": "x\\u0041"}, ["\x01", "ok"], {"b": 1.5}):
        value = {"_source_text": "x" * 300, "nested": nested}
        assert b"".join(canonical_parts(value)) == reference(value).encode("utf-8")


def test_a_deferred_texts_own_bytes_digest_as_its_text() -> None:
    class Read(provenance.DeferredText):
        def __init__(self, text: str, raw: bytes | None) -> None:
            self._value, self._raw = text, raw

        def text(self) -> str:
            return self._value

        def ascii_bytes(self) -> bytes | None:
            return self._raw

    text = 'Clause "1".\n\tback\\slash \x01 ' * 30
    want = reference({"_source_text": text, "n": 1}).encode("utf-8")
    for deferred in (Read(text, text.encode("ascii")), Read(text, None)):
        assert b"".join(canonical_parts({"_source_text": deferred, "n": 1})) == want


def test_backslash_escaped_before_the_escapes_that_add_backslashes() -> None:
    text = "a\\n" * 100 + '\n"\\"\t\x01'
    assert canonical_json({"t": text}) == reference({"t": text})
    assert json.loads(canonical_json(text * 3)) == text * 3


def test_objects_json_cannot_encode_go_through_str() -> None:
    value = {"path": Path("/x/y"), "long": "x" * 300 + "\n", "n": [1.5, None]}
    assert canonical_json(value) == reference(value)
    assert json_sha256(value) == json_sha256(json.loads(reference(value)))


#: a gold record's shape: string keys at the top, long documents among the values
records = st.dictionaries(
    st.one_of(st.text(max_size=8), long_ascii), st.one_of(values, long_text, long_ascii), max_size=5
)


@given(st.one_of(records, values))
@settings(max_examples=200, deadline=None)
def test_canonical_parts_are_the_canonical_bytes(value: Any) -> None:
    assert b"".join(canonical_parts(value)) == reference(value).encode("utf-8")
    assert json_sha256(value) == hashlib.sha256(reference(value).encode("utf-8")).hexdigest()


def test_canonical_parts_of_a_record_with_a_document_and_odd_values() -> None:
    text = ('Clause 1.\n\t"quoted" back\\slash \x01\x1f ' * 40) + "end"
    value = {"_source_text": text, "_object": {"b": [1.5, float("nan"), None], "a": Path("/p")}}
    assert b"".join(canonical_parts(value)) == reference(value).encode("utf-8")
    assert canonical_parts({}) == [b"{}"]  # a small flat record: one C call, one piece
    assert canonical_parts({"id": "a", "label": "b"}) == [b'{"id":"a","label":"b"}']
    assert b"".join(canonical_parts({2: "x", 1: None})) == reference({2: "x", 1: None}).encode()


#: the small records the C-escaping path takes: a few scalars and strings under 256 characters
flat_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=255),
    st.text(alphabet=st.sampled_from(['"', "\\", "\n", "\x00", "\x1f", "é", "a"]), max_size=40),
)
flat = st.one_of(
    st.dictionaries(st.text(max_size=30), flat_scalars, max_size=32),
    st.lists(flat_scalars, max_size=32),
)


@given(flat)
@settings(max_examples=300, deadline=None)
def test_small_flat_records_take_c_escaping_and_give_the_same_characters(value: Any) -> None:
    assert _short_flat(value)
    assert canonical_json(value) == reference(value)


def test_what_is_not_small_and_flat_takes_the_replacement_path() -> None:
    assert not _short_flat({"a": "x" * 256})
    assert not _short_flat({"a": [1]})
    assert not _short_flat(list(range(33)))
    assert not _short_flat({1: "a"})
    assert not _short_flat("text")
    for value in ({"a": "x" * 256 + '"'}, {"a": [1, "b"]}, list(range(33))):
        assert canonical_json(value) == reference(value)


@given(values)
@settings(max_examples=150, deadline=None)
def test_the_c_escaping_encoder_gives_the_canonical_characters_for_any_value(value: Any) -> None:
    # which encoder a value takes is a matter of speed only
    assert "".join(provenance._FAST(value, 0)) == reference(value)


@given(
    st.lists(st.text(max_size=300), unique=True, max_size=40),
    st.sampled_from([1, 3, 4096]),
)
@settings(max_examples=100, deadline=None)
def test_the_streamed_fingerprint_in_chunks_is_the_whole_one(ids: list[str], chunk: int) -> None:
    digests = {i: hashlib.sha256(i.encode("utf-8", "surrogatepass")).hexdigest() for i in ids}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(provenance, "_PAIRS_AT_ONCE", chunk)
        streamed = surface_fingerprint_streamed(ids, lambda k: digests[ids[k]])
    whole = [[i, digests[i]] for i in sorted(ids)]
    assert streamed == hashlib.sha256(reference(whole).encode("utf-8", "surrogatepass")).hexdigest()
    assert streamed == surface_fingerprint(ids, digests)
