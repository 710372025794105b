"""Unicode normalization and tokenization shared by every task suite."""

from assay._text.normalize import normalize_text, strip_latin_diacritics
from assay._text.tokenize import whitespace_tokens, word_tokens

__all__ = ["normalize_text", "strip_latin_diacritics", "whitespace_tokens", "word_tokens"]
