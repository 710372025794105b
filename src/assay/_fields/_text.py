"""Token helpers shared by the field scorers (all built on ``assay._text``), cached per string."""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache
from itertools import chain, count, filterfalse
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from assay._fields._order import stable_argsort
from assay._text import word_tokens

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
    if type(value) is str:  # the common case first
        return value
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
    if type(value) is str:  # the common case first
        return not value.strip()
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, list | tuple | dict):
        return len(value) == 0
    return False


#: ASCII letters and digits lowercased, every other ASCII character a space: the tokens of
#: ``word_tokens`` (runs of [a-z0-9] in lowercased ASCII text) are then the ``split()`` of the
#: translated text (a test checks the equivalence)
_ASCII_WORDS = str.maketrans(
    {chr(c): chr(c).lower() if chr(c).isalnum() else " " for c in range(128)}
)
#: ``_ASCII_WORDS`` as a byte table (bytes.translate is much faster than str.translate)
BYTE_WORDS = bytes(ord(_ASCII_WORDS[c]) for c in range(128)) + bytes(range(128, 256))
#: ``BYTE_WORDS`` except that NUL stays NUL: texts joined by NUL are tokenized by one
#: ``translate`` and cut apart again at the NULs (``token_lists``)
FENCED_BYTE_WORDS = b"\0" + BYTE_WORDS[1:]


@lru_cache(maxsize=65536)
def tokens(text: str) -> tuple[str, ...]:
    """Normalized word tokens (``assay._text.word_tokens``), cached; ASCII text directly."""
    return tuple(uncached_tokens(text))


def uncached_tokens(text: str) -> list[str]:
    """``tokens`` without the cache (for long texts seen once, such as source documents):
    ASCII text byte-translated and split at C speed, other text through ``word_tokens``.

    Twin: ``assay._text.word_tokens``, exactly (``test_tokens_equal_word_tokens``); 2.2x it
    on the extraction benchmark's list items (4.3 vs 9.4 ms for 64 documents' obligations).
    """
    if text.isascii():
        return text.encode("ascii").translate(BYTE_WORDS).decode("ascii").split()
    return list(word_tokens(text))


def token_lists(texts: Sequence[str], limit: int | None = None) -> list[Sequence[str]]:
    """``[tokens(t) for t in texts]`` (as lists or tuples), ASCII texts without NUL through one
    ``translate`` of them all, joined by NUL, and no per-text cache.

    With ``limit``, a text of more than ``limit`` tokens may come back as its first ``limit``
    tokens and one more element (the rest unsplit): enough to know it is longer.

    Twin: the comprehension above (``test_token_lists_equal_tokens``, in
    tests/suites/extraction); 2.3x ``word_tokens`` per text on 64 benchmark documents' items.
    It serves the name table and the partial-GT label rules (~70,000 labels per 1,000
    documents, ~22 µs a call there).
    """
    joined = "\0".join(texts)
    if joined.isascii() and joined.count("\0") == len(texts) - 1:
        parts = joined.encode("ascii").translate(FENCED_BYTE_WORDS).decode("ascii").split("\0")
        if limit is None:
            return [part.split() for part in parts]
        return [part.split(None, limit) for part in parts]
    return [tokens(text) for text in texts]


@lru_cache(maxsize=65536)
def token_set(text: str) -> frozenset[str]:
    return frozenset(tokens(text))


@lru_cache(maxsize=65536)
def squad_tokens(text: str) -> tuple[str, ...]:
    """SQuAD answer normalization: lowercase, punctuation and articles removed, split (the
    cached ``tokens`` themselves when none is an article: no copy)."""
    words = tokens(text)
    if ARTICLES.isdisjoint(words):
        return words
    return tuple(filterfalse(ARTICLES.__contains__, words))


@lru_cache(maxsize=65536)
def content_tokens(text: str) -> tuple[str, ...]:
    """Tokens without stopwords (the containment scorer's unit)."""
    return tuple(filterfalse(STOPWORDS.__contains__, tokens(text)))


def token_f1(pred: str, gold: str) -> float:
    """SQuAD token F1 over multisets: 2·P·R/(P+R) with P = overlap/|pred|, R = overlap/|gold|,
    computed as 2·overlap / (|pred| + |gold|), the same value correctly rounded.

    SQuAD's own arithmetic, 2PR/(P+R) in floats, can land one ulp off the exact ratio (9
    shared tokens of 13 and 17: 0.5999999999999999 for 18/30 = 0.6); this form is the one
    the matrix kernels (``token_f1_matrix``, ``token_f1_matrices``) use, so the scalar and the
    batched rule agree bit for bit and no decision on a threshold can differ between them
    (``test_token_f1_and_its_matrix_decide_alike_on_the_match_threshold``). Against SQuAD's
    arithmetic: within 1 ulp (``test_token_f1_is_squads_within_an_ulp``).

    Both empty → 1.0; exactly one empty → 0.0 (SQuAD's convention). Equal texts are 1.0
    untokenized, equal token sequences without the overlap: bit for bit the plain formula
    (``_plain_token_f1`` in tests/fields/test_fields_fast_paths.py).
    """
    if pred == gold:
        # the same tokens: 1.0 when both are empty, else overlap = |p| = |g| and P = R = 1.0,
        # 2·1·1/(1 + 1) = 1.0 exactly (no tokenizing)
        return 1.0
    p, g = squad_tokens(pred), squad_tokens(gold)
    if not p or not g:
        return float(p == g)
    if p == g:
        return 1.0
    overlap = multiset_intersection(p, g)
    if overlap == 0:
        return 0.0
    return 2.0 * overlap / (len(p) + len(g))


def multiset_intersection(a: Sequence[str], b: Sequence[str]) -> int:
    """|a ∩ b| as multisets: Σ_t min(count_a(t), count_b(t)), ``sum((Counter(a) &
    Counter(b)).values())``.

    Each element of ``b`` takes one still unmatched occurrence of itself in ``a`` when there is
    one: a token t is taken min(count_a(t), count_b(t)) times. One plain dict and two loops:
    3.1x the twin, two Counters and their ``&`` (Python code around the counting;
    ``test_multiset_intersection_is_the_counter_intersection``), on the benchmark's
    free-text items. For the scalar free-text fields (commit b614049).
    """
    left: dict[str, int] = {}
    get = left.get
    for token in a:
        left[token] = get(token, 0) + 1
    taken = 0
    for token in b:
        count = get(token)
        if count:
            left[token] = count - 1
            taken += 1
    return taken


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


def token_columns(
    token_lists: Sequence[Sequence[str]],
) -> tuple[NDArray[np.int64], list[str]]:
    """Token counts of each list over their shared vocabulary (rows: lists, columns: distinct
    tokens) and the column tokens, built with C-level loops only (twin: a ``Counter`` per
    list, ``test_token_columns_are_counts``)."""
    flat = list(chain.from_iterable(token_lists))
    n = len(token_lists)
    if not flat:
        return np.zeros((n, 1), dtype=np.int64), []
    # first position of each distinct token (dict.setdefault keeps the first), then compacted
    vocab: dict[str, int] = {}
    first = np.fromiter(map(vocab.setdefault, flat, count()), dtype=np.int64, count=len(flat))
    v = len(vocab)
    compact = np.zeros(len(flat), dtype=np.int64)
    compact[np.fromiter(vocab.values(), dtype=np.int64, count=v)] = np.arange(v)
    lengths = np.fromiter(map(len, token_lists), dtype=np.int64, count=n)
    row = np.repeat(np.arange(n, dtype=np.int64), lengths)
    counts = np.bincount(row * v + compact[first], minlength=n * v).reshape(n, v)
    return counts, list(vocab)


def token_count_matrix(token_lists: Sequence[Sequence[str]]) -> NDArray[np.int64]:
    """The counts of ``token_columns`` alone."""
    return token_columns(token_lists)[0]


def multiset_overlap(a: NDArray[np.int64], b: NDArray[np.int64]) -> NDArray[np.float64]:
    """Σ_t min(a[i, t], b[j, t]) for every row pair, exactly (integer counts).

    min(x, y) = Σ_k≥1 [x ≥ k][y ≥ k]: one 0/1 matrix product (float32, exact below 2**24) per
    level k. When some token repeats more than ``_MAX_LEVELS`` times on both sides, only the
    first level is a product over the tokens not repeated on both sides, and the repeated
    ones add their minimum counts directly, in blocks of bounded size. Twin: the Counter
    intersection of each pair (``test_multiset_overlap_is_sum_of_minimum_counts``).
    """
    out = np.zeros((a.shape[0], b.shape[0]), dtype=np.float64)
    if a.size == 0 or b.size == 0:
        return out
    levels = int(min(a.max(), b.max()))
    if levels <= _MAX_LEVELS:
        for k in range(1, levels + 1):
            out += _product(a >= k, b >= k)
        return out
    repeated = (a.max(axis=0) > 1) & (b.max(axis=0) > 1)
    out += _product(a[:, ~repeated] > 0, b[:, ~repeated] > 0)
    columns = np.flatnonzero(repeated)
    step = max(1, _OVERLAP_BLOCK // max(1, a.shape[0] * b.shape[0]))
    for k in range(0, columns.size, step):
        block = columns[k : k + step]
        out += np.minimum(a[:, None, block], b[None, :, block]).sum(axis=-1)
    return out


def _product(a: NDArray[np.bool_], b: NDArray[np.bool_]) -> NDArray[np.float64]:
    """How many columns rows i of ``a`` and j of ``b`` both have set, for every (i, j)."""
    return (a.astype(np.float32) @ b.astype(np.float32).T).astype(np.float64)


#: count levels ``multiset_overlap`` multiplies out before it switches to direct minima
_MAX_LEVELS = 8
#: elements of one (rows × rows × tokens) block of ``multiset_overlap``'s repeated tokens
_OVERLAP_BLOCK = 1 << 20


#: ``LOW_BYTES[n]`` keeps the first n bytes of a little-endian 8-byte word
LOW_BYTES = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=np.uint64)
#: bit 5 of every byte of an 8-byte word (ASCII lowercase)
_LOWER = np.uint64(0x2020202020202020)


def _word_bytes(chars: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """Which bytes are ASCII letters or digits, ``tokens``' word characters (the bytes that
    ``BYTE_WORDS`` keeps): (c | 0x20) - 'a' < 26 or c - '0' < 10, in wrapping uint8
    arithmetic: ~3x translating the bytes (commit cbd1644), exactly its word bytes
    (``test_word_bytes_are_the_translation_table_s_word_characters``)."""
    shifted = chars | np.uint8(0x20)
    shifted -= np.uint8(ord("a"))
    word: NDArray[np.bool_] = shifted < 26
    np.subtract(chars, np.uint8(ord("0")), out=shifted)
    word |= shifted < 10
    return word


class TokenKeys(NamedTuple):
    """Tokens as exact integer keys: a token's UTF-8 bytes 1–8 and 9–16 as little-endian words
    zero-padded (tokens hold no NUL), and for longer tokens a nonzero number naming the whole
    token; equal tokens ⇔ equal (first, second, long). ``text`` is each token's text index,
    nondecreasing."""

    text: NDArray[np.int64]
    first: NDArray[np.uint64]
    second: NDArray[np.uint64]
    long: NDArray[np.uint64]


def token_keys(texts: Sequence[str]) -> TokenKeys:
    """The ``tokens`` of all texts as ``TokenKeys`` in text order, without a Python object per
    token for ASCII texts: they are joined and cut with numpy (``_word_bytes``), and each
    token's key words read from the bytes and lowercased.

    Twin: ``tokens`` of each text, encoded (``test_token_keys_are_the_tokens_bytes``). It is
    what lets the free-text kernels (``_batch_tokens``) take a batch's ~80,000 tokens with no
    Python object each.
    """
    # " " + texts joined by " " + " " + 16 spaces, so that every token's two words can be read
    joined = " ".join(["", *texts, " " * 16])
    plain = joined.isascii()  # O(1) for a str
    ascii_: list[bool] = []
    pieces = texts
    if not plain:
        ascii_ = list(map(str.isascii, texts))
        pieces = [t if a else "" for t, a in zip(texts, ascii_, strict=True)]
        joined = " ".join(["", *pieces, " " * 16])
    raw = joined.encode("ascii")
    inside = _word_bytes(np.frombuffer(raw, dtype=np.uint8)[:-16])
    edges = np.flatnonzero(inside[1:] != inside[:-1]) + 1
    start, length = edges[0::2], edges[1::2] - edges[0::2]
    # text k ends at byte ends[k] (its separator): the tokens starting before it are those of
    # texts 0..k
    ends = np.cumsum(np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces)) + 1)
    before = np.searchsorted(start, ends)
    text = np.repeat(np.arange(len(pieces), dtype=np.int64), np.diff(before, prepend=0))
    words = np.ndarray((len(raw) - 7,), dtype="<u8", buffer=raw, strides=(1,))
    # a token's bytes are ASCII letters and digits: setting bit 5 of each lowercases the
    # letters and keeps the digits (0x30-0x39 have it); the bytes after the token are masked
    first = words[start] | _LOWER
    first &= LOW_BYTES[np.minimum(length, 8)]
    second = np.zeros(start.size, dtype=np.uint64)
    long = np.zeros(start.size, dtype=np.uint64)
    names: dict[bytes, int] = {}
    wide = np.flatnonzero(length > 8)
    if wide.size:
        keep = LOW_BYTES[np.minimum(length[wide] - 8, 8)]
        second[wide] = (words[start[wide] + 8] | _LOWER) & keep
        at = np.flatnonzero(length > 16)
        stop = (start + length)[at].tolist()
        long[at] = [
            names.setdefault(raw[a:b].lower(), len(names) + 1)
            for a, b in zip(start[at].tolist(), stop, strict=True)
        ]
    keys = TokenKeys(text, first, second, long)
    if plain:
        return keys
    other = _python_keys(texts, [k for k, a in enumerate(ascii_) if not a], names)
    text = np.concatenate((keys.text, other.text))
    order = stable_argsort(text, len(texts))
    return TokenKeys(
        text[order],
        np.concatenate((keys.first, other.first))[order],
        np.concatenate((keys.second, other.second))[order],
        np.concatenate((keys.long, other.long))[order],
    )


def word_keys(words: AbstractSet[str]) -> NDArray[np.uint64]:
    """The ``TokenKeys.first`` of each word (ASCII, at most 8 bytes), sorted."""
    if not all(w.isascii() and len(w) <= 8 for w in words):
        raise ValueError("word_keys takes ASCII words of at most 8 characters")
    return np.array(sorted(int.from_bytes(w.encode(), "little") for w in words), dtype=np.uint64)


def is_word_key(
    first: NDArray[np.uint64], second: NDArray[np.uint64], words: NDArray[np.uint64]
) -> NDArray[np.bool_]:
    """Which tokens are among ``words`` (``word_keys``), from their first two key words: a
    token of at most 8 bytes is its first key word alone (``second`` is 0 exactly then: tokens
    hold no NUL), found in the sorted ``words`` by binary search. Twin: set membership of the
    token (``test_is_word_is_membership``); not ``np.isin``, which imports ``numpy.ma``
    (~8 ms of every run, issue 21m)."""
    if words.size == 0:
        return np.zeros(first.size, dtype=np.bool_)
    at = np.searchsorted(words, first)
    hit: NDArray[np.bool_] = words.take(np.minimum(at, words.size - 1)) == first
    hit &= second == 0
    return hit


def _python_keys(texts: Sequence[str], which: list[int], names: dict[bytes, int]) -> TokenKeys:
    """``TokenKeys`` of the texts at ``which`` through ``tokens`` (Unicode normalization)."""
    found = [(k, t.encode()) for k in which for t in tokens(texts[k])]
    padded = [b.ljust(16, b"\0") for _, b in found]
    return TokenKeys(
        np.array([k for k, _ in found], dtype=np.int64).reshape(-1),
        np.array([int.from_bytes(b[:8], "little") for b in padded], dtype=np.uint64).reshape(-1),
        np.array([int.from_bytes(b[8:16], "little") for b in padded], dtype=np.uint64).reshape(-1),
        np.array(
            [names.setdefault(b, len(names) + 1) if len(b) > 16 else 0 for _, b in found],
            dtype=np.uint64,
        ).reshape(-1),
    )


#: the first key words of SQuAD's articles and of the containment scorer's stopwords
ARTICLE_KEYS = word_keys(ARTICLES)
STOPWORD_KEYS = word_keys(STOPWORDS)


def key_pairs(
    left: NDArray[np.int64], right: NDArray[np.int64], n_keys: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Every (i, j) with ``left[i] == right[j]`` (keys in [0, n_keys)), as two index arrays:
    i ascending, and for one i the j ascending. A join of two token-occurrence lists on the
    token: what a sparse incidence product ``A @ B.T`` enumerates, without scipy.sparse.

    Twin: the nested loop over both lists (``test_key_pairs_is_the_join_on_equal_keys``). It
    replaced the name kernel's scipy.sparse products, whose import alone was ~0.3 s of every
    extraction run (commit 7143e2b)."""
    order = stable_argsort(right, n_keys)
    per_key = np.bincount(right, minlength=n_keys)
    first = np.cumsum(per_key) - per_key
    reps = per_key[left]
    i = np.repeat(np.arange(left.size, dtype=np.int64), reps)
    ends = np.cumsum(reps)
    within = np.arange(int(ends[-1]) if ends.size else 0, dtype=np.int64) - np.repeat(
        ends - reps, reps
    )
    j = order[np.repeat(first[left], reps) + within]
    return i, j.astype(np.int64, copy=False)
