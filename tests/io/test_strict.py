"""Strict JSON and the bounded YAML loader (assay._io.strict): what Python's lenient parsers
accept and assay refuses, and that every valid value still reads back unchanged."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay._io.strict import (
    MAX_DEPTH,
    StrictJSONError,
    check_value,
    loads,
    loads_marked,
)

finite = st.floats(allow_nan=False, allow_infinity=False)
scalars = st.none() | st.booleans() | st.integers() | finite | st.text(max_size=20)


def _containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)


values = st.recursive(scalars, _containers, max_leaves=30)


@settings(max_examples=200, deadline=None)
@given(values)
def test_valid_json_reads_back_unchanged(value: Any) -> None:
    assert loads(json.dumps(value)) == value


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.text(min_size=1, max_size=5), min_size=1, max_size=6),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999"]),
)
def test_a_non_finite_number_is_named_by_its_field(keys: list[str], token: str) -> None:
    text = "".join('{"' + json.dumps(k)[1:-1] + '": ' for k in keys) + token + "}" * len(keys)
    with pytest.raises(StrictJSONError) as err:
        loads(text)
    assert "(field $" in str(err.value)
    assert token.lstrip("-") in str(err.value)


def test_depth_limit_and_huge_nesting() -> None:
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads(ok) is not None
    for depth in (MAX_DEPTH + 1, 5_000, 200_000):
        with pytest.raises(StrictJSONError, match=f"nested deeper than {MAX_DEPTH} levels"):
            loads("[" * depth + "]" * depth)


def test_value_size_limit() -> None:
    with pytest.raises(StrictJSONError, match=r"beyond the limit of 10 \(field \$\.a\)"):
        check_value({"a": "x" * 11}, max_chars=10)
    check_value({"a": "x" * 10}, max_chars=10)


def test_syntax_errors_stay_json_errors() -> None:
    with pytest.raises(json.JSONDecodeError):
        loads('{"a": ')
    with pytest.raises(json.JSONDecodeError):
        loads_marked("[1,")


@settings(max_examples=300, deadline=None)
@given(
    values,
    st.sampled_from(["", " ", "\n", "\t \r\n"]),
    st.sampled_from(["", " ", "\n", " \n", "x", ",1", "}", "  ]"]),
    st.integers(0, 3),
)
def test_scanner_fast_path_gives_json_loads_verdict(
    value: Any, before: str, after: str, cut: int
) -> None:
    """``loads`` reads through the C scanner, ``decode`` only when that does not take the
    whole text: either way, the value or the error json.loads gives (finite values)."""
    text = before + json.dumps(value) + after
    text = text[: len(text) - cut] if cut else text
    try:
        want: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        with pytest.raises(json.JSONDecodeError) as got:
            loads(text)
        assert (got.value.msg, got.value.pos) == (exc.msg, exc.pos)
        return
    assert loads(text) == want
