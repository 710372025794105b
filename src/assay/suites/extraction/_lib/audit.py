"""Factuality audit (seed 000 §4): every predicted item must be TRUE.

An item is true when it matches a gold label (element similarity ≥ 0.6) or its content is present
in the source document: normalized token coverage ≥ ``verification_token_coverage`` (0.7), and
for dates a date written anywhere in the document, in any format, equal to the predicted one.

verified_precision = true_items / n_predicted; hallucination_rate = hallucinated / n_predicted.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay._fields import ParsedDate, parse_date
from assay._fields.dates import writes_date
from assay._fields.text import (
    BYTE_WORDS,
    STOPWORDS,
    content_tokens,
    token_lists,
    tokens,
    uncached_tokens,
)

#: characters after a year that a year-first date ("2005-03-14", "2005-3-4") needs
_AFTER_YEAR = 6

#: failed word searches a source index makes before it builds its token set instead (a
#: failed search reads the whole text, ~1/16 of the set's cost)
SCAN_MISSES = 16

#: the audit record's keys, exactly as the seed names them
AUDIT_KEYS = (
    "n_predicted",
    "matched_gt",
    "verified_in_doc",
    "true_items",
    "verified_precision",
    "hallucinated",
    "hallucination_rate",
    "doc_verification",
)


#: occurrences of a key's first character ``_find`` looks at before a plain search instead
FIRST_CHAR_TRIES = 64

#: occurrences of a token inside longer words ``SourceIndex.has_token`` skips in the lowered
#: text before it builds the word form (``_words``) and searches that instead
INSIDE_TRIES = 8

#: which byte values are ASCII letters or digits (the token characters of ASCII text)
_ALNUM = tuple(bytes([c]).isalnum() for c in range(256))

#: bytes ``_has_upper`` tests before the rest (a document with capitals has one early)
_HEAD = 4096
_CAPITAL_A, _LETTERS = np.uint8(ord("A")), np.uint8(26)


def _has_upper(raw: bytes) -> bool:
    """Whether ``raw.lower() != raw``, i.e. whether a byte is "A"-"Z" (all ``bytes.lower``
    changes): a vectorized range test (``byte - "A"``, wrapping, below 26), a third of the cost
    of lowering the text and no copy of it to keep."""
    codes = np.frombuffer(raw, np.uint8)
    head = codes[:_HEAD]
    if ((head - _CAPITAL_A) < _LETTERS).any():
        return True
    return bool(((codes[_HEAD:] - _CAPITAL_A) < _LETTERS).any())


def _find(text: str, key: str, start: int) -> int:
    """``text.find(key, start)``, by the key's first character while that one is rare.

    A one-character search runs at memchr speed, tens of times faster than a search for a
    longer key; a digit is rare in prose, so a date's year is found in a few steps. After
    ``FIRST_CHAR_TRIES`` occurrences without the key the plain search finishes the job.
    """
    first = key[:1]
    pos = text.find(first, start)
    for _ in range(FIRST_CHAR_TRIES):
        if pos == -1 or text.startswith(key, pos):
            return pos
        pos = text.find(first, pos + 1)
    return text.find(key, pos) if pos != -1 else -1


@dataclass
class SourceIndex:
    """A source document's tokens and date candidates, each looked up or built on first use.

    ``ascii_bytes``: the text's bytes when it was read as ASCII (``SourceText.ascii_bytes``),
    which the byte searches start from instead of encoding the text again."""

    text: str
    ascii_bytes: bytes | None = field(default=None, repr=False, compare=False)
    _seen: dict[str, bool] = field(default_factory=dict, init=False, repr=False, compare=False)
    _misses: int = field(default=0, init=False, repr=False, compare=False)

    @cached_property
    def token_set(self) -> frozenset[str]:
        """The document's normalized word tokens (ASCII text takes a C-speed path)."""
        # uncached: the per-string token cache would keep whole documents alive
        return frozenset(uncached_tokens(self.text))

    @cached_property
    def _ascii(self) -> bool:
        return self.ascii_bytes is not None or self.text.isascii()

    def _bytes(self) -> bytes:
        """An ASCII text's bytes."""
        raw = self.ascii_bytes
        return self.text.encode("ascii") if raw is None else raw

    @cached_property
    def _lower(self) -> str:
        return self.text.lower()

    @cached_property
    def _words(self) -> bytes:
        """An ASCII text's tokens as bytes, each between spaces: every character but a letter
        or digit a space, letters lowercased (``uncached_tokens``'s table), a space at each
        end. A token is one of the text's iff it occurs here with a space on both sides."""
        return b" " + self._bytes().translate(BYTE_WORDS) + b" "

    @cached_property
    def _lowered(self) -> bytes:
        """An ASCII text's bytes lowercased (half the cost of ``_words``'s translation): the
        bytes themselves when they hold no capital (``_has_upper``), so no copy is made."""
        raw = self._bytes()
        return raw.lower() if _has_upper(raw) else raw

    def _whole_word(self, key: bytes) -> bool | None:
        """Whether ``key`` (letters and digits) is one of an ASCII text's tokens, read from
        ``_lowered``: an occurrence there that no letter or digit touches on either side is
        exactly an occurrence of `` key `` in ``_words`` (lowercasing and ``_words``'s
        translation agree on letters and digits; every other byte differs from the key's
        and is a token boundary). None when ``INSIDE_TRIES`` occurrences were all inside
        longer words ("term" in "termination"): the caller then searches ``_words``."""
        text = self._lowered
        pos = text.find(key)
        if pos == -1:
            return False
        size, end_of_text = len(key), len(text)
        for _ in range(INSIDE_TRIES):
            if pos == -1:
                return False
            end = pos + size
            if (pos == 0 or not _ALNUM[text[pos - 1]]) and (
                end == end_of_text or not _ALNUM[text[end]]
            ):
                return True
            pos = text.find(key, pos + 1)
        return False if pos == -1 else None

    def has_token(self, token: str) -> bool:
        """``token in self.token_set``, memoized per token.

        In ASCII text the token is searched for in the lowered text (``_whole_word``, a C-speed
        substring search) or, when it occurs inside many longer words, as `` token `` in
        ``_words``, so no 10,000-token set is built; after ``SCAN_MISSES`` failed searches
        (each reads the whole text) the set is built and decides.
        """
        seen = self._seen
        found = seen.get(token)
        if found is not None:
            return found
        if self._ascii and self._misses < SCAN_MISSES and token.isalnum():
            # letters and digits only: no space inside, so a hit is one whole token
            key = token.encode()
            whole = None if "_words" in self.__dict__ else self._whole_word(key)
            found = b" " + key + b" " in self._words if whole is None else whole
            if not found:
                self._misses += 1
        else:
            found = token in self.token_set
        seen[token] = found
        return found

    def has_date(self, date: ParsedDate) -> bool:
        """Whether the document writes ``date`` in any format the date parser knows.

        Only the text around each occurrence of the year (four digits, or two after a
        separator) is parsed, so a 20-page document costs a few string searches: the 40
        characters before it (month and day first: "March 14, 2005", "3/14/2005") and, for a
        four-digit year, the characters after it (year first: "2005-03-14").
        """
        year, short = str(date.year), f"{date.year % 100:02d}"
        if len(year) != 4 or not year.endswith(short):
            return self._date_near(date, year, None, year_first=True) or self._date_near(
                date, short, None, year_first=False
            )
        # a four-digit year ends with its two-digit form: one scan for the short key finds
        # every occurrence of both
        return self._date_near(date, short, year, year_first=False)

    def _date_near(self, date: ParsedDate, key: str, year: str | None, *, year_first: bool) -> bool:
        """Whether the text around an occurrence of ``key`` (and, with ``year``, of the year
        ending at that occurrence) writes ``date``; with ``year_first`` (``key`` is the year)
        also the text from the occurrence on.

        ASCII text is searched as written and only the windows are lowercased (the same
        characters as in the lowercased text: ASCII lowercasing keeps every position).
        """
        ascii_text = self._ascii
        text = self.text if ascii_text else self._lower

        def written(window: str) -> bool:
            return writes_date(window.lower() if ascii_text else window, date)

        start = _find(text, key, 0)
        while start != -1:
            if written(text[max(0, start - 40) : start + len(key) + 2]):
                return True
            if year_first and written(text[start : start + len(key) + _AFTER_YEAR]):
                return True
            if year is not None and start >= 2 and text.startswith(year, start - 2):
                if written(text[max(0, start - 42) : start + 4]):
                    return True
                if written(text[start - 2 : start + 2 + _AFTER_YEAR]):
                    return True
            start = _find(text, key, start + 1)
        return False

    def coverage(self, item: str) -> float:
        """Share of the item's content tokens (stopwords removed) that occur in the document."""
        want = content_tokens(item) or tokens(item)
        if not want:
            return 0.0
        seen = self._seen
        hits = 0
        for token in want:
            found = seen.get(token)
            hits += self.has_token(token) if found is None else found
        return hits / len(want)

    def grounds(self, item: str, element: str, threshold: float) -> bool:
        """Whether the document supports the item: a date it writes, or token coverage.

        ``coverage(item) >= threshold``, deciding as soon as the outcome is known: once the
        hits so far reach the threshold (more hits only raise ``hits / n``), or once even
        every remaining token found could not reach it. A token the document lacks costs a
        scan of the whole text, so a made-up name ("Acmeton Belrox Inc") stops at its first
        miss instead of searching for every token.
        """
        if element == "date":
            parsed = parse_date(item)
            if parsed is not None and parsed.full:
                return self.has_date(parsed)
        return self._covers(content_tokens(item) or tokens(item), threshold)

    def count_grounded(self, items: Sequence[str], element: str, threshold: float) -> int:
        """How many of ``items`` the document supports: ``grounds`` of each, in order.

        Items that are not dates are tokenized together (``token_lists``: one translation of
        them all) instead of each through the per-string caches, which a list's items, most
        seen once, would fill for nothing.
        """
        if element == "date" or len(items) < 2:
            return sum(self.grounds(item, element, threshold) for item in items)
        covers = self._covers
        return sum(covers(_content(words), threshold) for words in token_lists(items))

    def _covers(self, want: Sequence[str], threshold: float) -> bool:
        """``coverage >= threshold`` for the item tokens ``want`` (see ``grounds``)."""
        n = len(want)
        if not n:
            return threshold <= 0.0  # coverage 0.0, as coverage() gives
        seen = self._seen
        hits, left = 0, n
        for token in want:
            found = seen.get(token)
            hits += self.has_token(token) if found is None else found
            left -= 1
            # hits / n is the same float division as coverage's, evaluated at the hits
            # counted so far (the lowest the total can be) or with every token left a hit
            # (the highest it can be)
            if hits / n >= threshold:
                return True
            if (hits + left) / n < threshold:
                return False
        return hits / n >= threshold


def _content(words: Sequence[str]) -> Sequence[str]:
    """``content_tokens(item) or tokens(item)`` from the item's ``words`` (``tokens(item)``):
    the words that are not stopwords, or all of them when every one is."""
    kept = [word for word in words if word not in STOPWORDS]
    return kept or words


@dataclass(frozen=True)
class Audit:
    """The seed's entity_list_audit record for one field."""

    n_predicted: int
    matched_gt: int
    verified_in_doc: int
    true_items: int
    doc_verification: bool

    @property
    def hallucinated(self) -> int:
        return self.n_predicted - self.true_items

    @property
    def verified_precision(self) -> float | None:
        return self.true_items / self.n_predicted if self.n_predicted else None

    @property
    def hallucination_rate(self) -> float | None:
        return self.hallucinated / self.n_predicted if self.n_predicted else None

    @cached_property
    def _record(self) -> dict[str, Any]:
        """``to_json``'s mapping, built once per record (a scalar field's records are shared:
        ``_audit``); cached_property writes the instance's dict, which frozen allows."""
        return {
            "n_predicted": self.n_predicted,
            "matched_gt": self.matched_gt,
            "verified_in_doc": self.verified_in_doc,
            "true_items": self.true_items,
            "verified_precision": self.verified_precision,
            "hallucinated": self.hallucinated,
            "hallucination_rate": self.hallucination_rate,
            "doc_verification": self.doc_verification,
        }

    def to_json(self) -> dict[str, Any]:
        """The record as the seed writes it: a new dict each call (the caller may change it)."""
        return self._record.copy()


#: the records of one-item audits (a scalar field's), by their values: frozen, so shared
_ONE_ITEM: dict[tuple[int, int, bool], Audit] = {}


def _audit(n: int, matched: int, true_items: int, verified: bool) -> Audit:
    """``Audit(n, matched, true_items, true_items, verified)``; a one-item audit (every
    scalar field of every document, few distinct values) from ``_ONE_ITEM``."""
    if n != 1:
        return Audit(n, matched, true_items, true_items, verified)
    key = (matched, true_items, verified)
    found = _ONE_ITEM.get(key)
    if found is None:
        found = _ONE_ITEM[key] = Audit(n, matched, true_items, true_items, verified)
    return found


def audit_items(
    pred_items: Sequence[str],
    similarity: NDArray[np.float64] | None,
    matched_rows: AbstractSet[int],
    element: str,
    source: SourceIndex | None,
    *,
    match_threshold: float,
    coverage_threshold: float,
) -> Audit:
    """Audit predicted items: matched by the assignment, similar to a gold label, or grounded.

    ``matched_gt`` counts items the bipartite matching paired with a gold label;
    ``verified_in_doc`` adds the other items grounded in the document (or, when an item is a
    duplicate of a gold label, ≥ the match threshold against it); ``true_items`` is the same
    total, so hallucinated = items neither matched, similar to gold, nor grounded.
    """
    n = len(pred_items)
    matched = len(matched_rows)
    true_items = matched
    if matched < n:
        # a row's best similarity (NaN when the row holds one) against the threshold:
        # ``similarity.max(axis=1)`` without its Python wrapper
        near_gold: list[bool] | None = (
            (np.maximum.reduce(similarity, axis=1) >= match_threshold).tolist()
            if similarity is not None and similarity.shape[1] > 0
            else None
        )
        if near_gold is not None or source is not None:
            # the items neither matched nor similar to gold, grounded in the document
            pending: list[str] = []
            for i, item in enumerate(pred_items):
                if i in matched_rows:
                    continue
                if near_gold is not None and near_gold[i]:
                    true_items += 1
                elif source is not None:
                    pending.append(item)
            if pending:
                assert source is not None
                true_items += source.count_grounded(pending, element, coverage_threshold)
    return _audit(n, matched, true_items, source is not None)
