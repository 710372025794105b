"""canonical_json: character for character what json.dumps gives with the canonical options."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from assay.core.provenance import canonical_json, canonical_parts, json_sha256


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
    assert canonical_parts({}) == [b"{", b"}"]
    assert b"".join(canonical_parts({2: "x", 1: None})) == reference({2: "x", 1: None}).encode()
