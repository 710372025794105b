"""Token helpers shared by the field scorers (all built on ``assay.text``), cached per string."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from assay.text import word_tokens

#: English function words ignored by the containment scorer (seed 000 §3, "stopword-filtered")
STOPWORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "been", "by", "for", "from", "has", "have",
    "he", "her", "his", "i", "in", "is", "it", "its", "of", "on", "or", "our", "shall", "she",
    "that", "the", "their", "them", "they", "this", "to", "was", "were", "which", "will",
    "with", "we", "you", "your",
})  # fmt: skip
#: removed by SQuAD's answer normalization before token F1
ARTICLES = frozenset({"a", "an", "the"})


def as_text(value: Any) -> str:
    """A field value as text: None → "", numbers without a trailing ".0", lists joined by "; "."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list | tuple):
        return "; ".join(as_text(v) for v in value)
    if isinstance(value, dict):
        for key in ("value", "text", "name"):
            if key in value:
                return as_text(value[key])
        return "; ".join(f"{k}: {as_text(v)}" for k, v in sorted(value.items()))
    return str(value)


def is_blank(value: Any) -> bool:
    """None, an empty or whitespace string, or an empty list: the field was not populated."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, list | tuple | dict):
        return len(value) == 0
    return False


@lru_cache(maxsize=65536)
def tokens(text: str) -> tuple[str, ...]:
    """Normalized word tokens (``assay.text.word_tokens``), cached."""
    return tuple(word_tokens(text))


@lru_cache(maxsize=65536)
def token_set(text: str) -> frozenset[str]:
    return frozenset(tokens(text))


@lru_cache(maxsize=65536)
def squad_tokens(text: str) -> tuple[str, ...]:
    """SQuAD answer normalization: lowercase, punctuation and articles removed, split."""
    return tuple(t for t in tokens(text) if t not in ARTICLES)


@lru_cache(maxsize=65536)
def content_tokens(text: str) -> tuple[str, ...]:
    """Tokens without stopwords (the containment scorer's unit)."""
    return tuple(t for t in tokens(text) if t not in STOPWORDS)


def token_f1(pred: str, gold: str) -> float:
    """SQuAD token F1 over multisets: 2·P·R/(P+R) with P = overlap/|pred|, R = overlap/|gold|.

    Both empty → 1.0; exactly one empty → 0.0 (SQuAD's convention).
    """
    p, g = squad_tokens(pred), squad_tokens(gold)
    if not p or not g:
        return float(p == g)
    overlap = sum((Counter(p) & Counter(g)).values())
    if overlap == 0:
        return 0.0
    precision, recall = overlap / len(p), overlap / len(g)
    return 2 * precision * recall / (precision + recall)


def coverage(expected: str, prediction: str) -> float | None:
    """Share of ``expected``'s stopword-filtered tokens present in ``prediction``'s tokens.

    None when the expected text has no content tokens (nothing to cover).
    """
    want = content_tokens(expected) or tokens(expected)
    if not want:
        return None
    have = token_set(prediction)
    return sum(1 for t in want if t in have) / len(want)


@lru_cache(maxsize=65536)
def joined_tokens(text: str) -> str:
    """The tokens joined by single spaces with a space at each end: phrase containment of
    token sequences becomes substring search (" a b " in " x a b y ")."""
    return " " + " ".join(tokens(text)) + " "


def contains_phrase(haystack: str, needle: str) -> bool:
    """True when ``needle``'s tokens occur contiguously, in order, in ``haystack``'s tokens."""
    if not tokens(needle):
        return False
    return joined_tokens(needle) in joined_tokens(haystack)
