"""Tokenizers for overlap metrics: normalized word tokens, and raw whitespace tokens."""

from __future__ import annotations

import functools
import re
import unicodedata

from assay._text.normalize import _char_set, normalize_text

# Scripts written without spaces: every code point becomes a token of its own.
# Han: CJK Unified Ideographs, Extension A, Compatibility Ideographs, 々〆〇 (3005-3007) and
# planes 2-3 (Extensions B and later, Compatibility Supplement). Kana: Hiragana, Katakana,
# Katakana Phonetic Extensions, half-width Katakana. Thai: the whole Thai block.
_SPLIT = (
    r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005-\u3007\U00020000-\U0003ffff"
    r"\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f"
    r"\u0e00-\u0e7f"
)

_ASCII_WORD = re.compile(r"[a-z0-9]+")  # what the full pattern matches in lower-cased ASCII


@functools.cache
def _token_re() -> re.Pattern[str]:
    """One token: a single split-script character, or a word run with its combining marks."""
    marks = _char_set(lambda ch: unicodedata.category(ch).startswith("M"))
    single = rf"(?=[^\W_]|{marks})[{_SPLIT}]"
    word = rf"[^\W_{_SPLIT}](?:[^\W_{_SPLIT}]|(?![{_SPLIT}]){marks})*"
    return re.compile(f"{word}|{single}")


def word_tokens(text: str) -> list[str]:
    """Tokens of `normalize_text(text)` for word-overlap metrics (F1, ROUGE on normalized text).

    Rule: runs of word characters split on ``[\\W_]+``, except that combining marks (category M)
    continue a word, so Devanagari vowel signs and Arabic harakat do not break words; a mark
    cannot start a token. Each Han, Hiragana, Katakana and Thai letter, digit or mark is a
    token of its own; punctuation in those blocks (・, ฿, ๏) separates like any other.
    """
    normalized = normalize_text(text)
    if normalized.isascii():
        return _ASCII_WORD.findall(normalized)
    return _token_re().findall(normalized)


def whitespace_tokens(text: str) -> list[str]:
    """``text.split()`` with no normalization, as the paper-metadata suite's ROUGE-L expects."""
    return text.split()
