"""Tests for assay._text.tokenize: normalized word tokens and raw whitespace tokens."""

from __future__ import annotations

import re
import string
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assay._text import normalize_text, whitespace_tokens, word_tokens
from assay._text.tokenize import _SPLIT, _token_re

_SPLIT_CHAR = re.compile(f"[{_SPLIT}]")
_WORD_CHAR = re.compile(r"[^\W_]")

_TRICKY = (
    "abcXYZ019_ -.,;!?'\"\t\n"
    "ÅéüßŁłđœ"
    "ελληνικάЙод"
    "हिन्दीمَدْرَسَة"
    "東京大阪々〇𠮷ひらがなカタカナーｶﾞ・"
    "ภาษาไทยที่ำ฿๏๑"
    "\u0301\u0308\u0338\u3099\u0e48\ufe0f\u200d"
    "ﬁＡ①℃"
)
_texts = st.text(alphabet=st.sampled_from(_TRICKY) | st.characters(), max_size=30)
_padding = st.text(alphabet=string.whitespace + string.punctuation, max_size=5)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("", []),
        ("   \t\n ", []),
        ("Hello, World!", ["hello", "world"]),
        ("foo_bar__baz", ["foo", "bar", "baz"]),
        ("route 66, 3.14 and x2", ["route", "66", "3", "14", "and", "x2"]),
        ("Ångström Straße ﬁle ＡＢＣ", ["angstrom", "strasse", "file", "abc"]),
        ("Tiếng Việt; Łódź; Příliš žluťoučký", ["tieng", "viet", "łodz", "prilis", "zlutoucky"]),
        # Latin, Cyrillic, Greek, Arabic and Devanagari words stay whole, marks included.
        ("Ελληνικά Йод-ёж", ["ελληνικά", "йод", "ёж"]),
        ("مَدْرَسَة كبيرة", ["مَدْرَسَة", "كبيرة"]),
        ("हिन्दी भाषा", ["हिन्दी", "भाषा"]),
        # Han and kana: one token per character; Latin runs stay whole.
        ("東京タワー abc", ["東", "京", "タ", "ワ", "ー", "abc"]),
        ("abc東京def", ["abc", "東", "京", "def"]),
        ("ひらがな", ["ひ", "ら", "が", "な"]),
        ("ｶﾞｷﾞ", ["ガ", "ギ"]),
        ("𠮷野家", ["𠮷", "野", "家"]),
        # The katakana middle dot is punctuation and separates.
        ("東京・大阪", ["東", "京", "大", "阪"]),
        # Thai: one token per code point, vowel and tone marks included.
        ("ภาษาไทย", ["ภ", "า", "ษ", "า", "ไ", "ท", "ย"]),
        ("ที่นี่", ["ท", "ี", "่", "น", "ี", "่"]),
        # Thai punctuation and the baht sign separate; Thai digits are tokens of their own.
        ("๏ ราคา ฿๑๐", ["ร", "า", "ค", "า", "๑", "๐"]),
        # A combining mark with no base is dropped rather than starting a token.
        ("\u0301abc \u0301", ["abc"]),
    ],
)
def test_word_tokens_examples(raw: str, expected: list[str]) -> None:
    assert word_tokens(raw) == expected


def test_whitespace_tokens_does_not_normalize() -> None:
    assert whitespace_tokens("  Ångström,  ＡＢＣ\tfoo_bar\n") == ["Ångström,", "ＡＢＣ", "foo_bar"]
    assert whitespace_tokens("") == []


def _is_single_split_token(token: str) -> bool:
    return len(token) == 1 and _SPLIT_CHAR.match(token) is not None


@given(_texts)
def test_tokens_are_non_empty_words(text: str) -> None:
    for token in word_tokens(text):
        assert token
        if _is_single_split_token(token):
            continue
        # A multi-character token starts with a word character (not "_"), contains only word
        # characters and combining marks, and never a Han/kana/Thai character.
        assert _WORD_CHAR.match(token[0])
        for ch in token:
            assert _WORD_CHAR.match(ch) or unicodedata.category(ch).startswith("M")
            assert not _SPLIT_CHAR.match(ch)


@given(_texts)
def test_tokens_come_from_normalized_text(text: str) -> None:
    normalized = normalize_text(text)
    tokens = word_tokens(text)
    assert set("".join(tokens)) <= set(normalized)
    position = 0
    for token in tokens:  # tokens are disjoint substrings, in order
        position = normalized.index(token, position) + len(token)


@given(_texts, _padding, _padding)
def test_surrounding_whitespace_and_punctuation_do_not_matter(
    text: str, before: str, after: str
) -> None:
    assert word_tokens(before + text + after) == word_tokens(text)


@given(st.text(alphabet=st.characters(codec="ascii")))
def test_ascii_fast_path_matches_full_pattern(text: str) -> None:
    assert word_tokens(text) == _token_re().findall(normalize_text(text))
