"""Factuality audit (seed 000 §4): every predicted item must be TRUE.

An item is true when it matches a gold label (element similarity ≥ 0.6) or its content is present
in the source document: normalized token coverage ≥ ``verification_token_coverage`` (0.7), and
for dates a date written anywhere in the document, in any format, equal to the predicted one.

verified_precision = true_items / n_predicted; hallucination_rate = hallucinated / n_predicted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay.fields import ParsedDate, date_candidates, parse_date
from assay.fields._text import content_tokens, tokens
from assay.text import word_tokens

#: every ASCII character that is not a letter or digit separates tokens (as word_tokens does)
_ASCII_SEPARATORS = str.maketrans({chr(c): " " for c in range(128) if not chr(c).isalnum()})

#: failed substring searches a source index makes before it builds its token set instead
SCAN_MISSES = 8
#: occurrences inside longer words a search skips before the token set decides
SCAN_TRIES = 32

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


@dataclass
class SourceIndex:
    """A source document's tokens and date candidates, each looked up or built on first use."""

    text: str
    _seen: dict[str, bool] = field(default_factory=dict, init=False, repr=False, compare=False)
    _misses: int = field(default=0, init=False, repr=False, compare=False)

    @cached_property
    def token_set(self) -> frozenset[str]:
        """The document's normalized word tokens (ASCII text takes a C-speed path)."""
        if self._ascii:
            return frozenset(self._lower.translate(_ASCII_SEPARATORS).split())
        # word_tokens directly: the per-string token cache would keep whole documents alive
        return frozenset(word_tokens(self.text))

    @cached_property
    def _ascii(self) -> bool:
        return self.text.isascii()

    @cached_property
    def _lower(self) -> str:
        return self.text.lower()

    def has_token(self, token: str) -> bool:
        """``token in self.token_set``, memoized per token.

        In ASCII text the token (letters and digits) is searched for as a substring with a
        separator or an end on both sides, so no 10,000-token set is built; after
        ``SCAN_MISSES`` failed searches (each reads the whole text) or a token found
        ``SCAN_TRIES`` times only inside longer words, the set is built and decides.
        """
        found = self._seen.get(token)
        if found is None:
            found = self._search(token) if self._ascii else token in self.token_set
            self._seen[token] = found
        return found

    def _search(self, token: str) -> bool:
        if self._misses >= SCAN_MISSES or not token:
            return token in self.token_set
        text = self._lower
        size, last = len(token), len(self.text)
        start = text.find(token)
        for _ in range(SCAN_TRIES):
            if start == -1:
                self._misses += 1
                return False
            end = start + size
            if (start == 0 or not text[start - 1].isalnum()) and (
                end == last or not text[end].isalnum()
            ):
                return True
            start = text.find(token, start + 1)
        return token in self.token_set

    def has_date(self, date: ParsedDate) -> bool:
        """Whether the document writes ``date`` in any format the date parser knows.

        Only the text around each occurrence of the year (four digits, or two after a
        separator) is parsed, so a 20-page document costs a few string searches.
        """
        text = self._lower
        keys = {str(date.year), f"{date.year % 100:02d}"}
        for key in keys:
            start = text.find(key)
            while start != -1:
                window = text[max(0, start - 40) : start + len(key) + 2]
                if date in date_candidates(window):
                    return True
                start = text.find(key, start + 1)
        return False

    def coverage(self, item: str) -> float:
        """Share of the item's content tokens (stopwords removed) that occur in the document."""
        want = content_tokens(item) or tokens(item)
        if not want:
            return 0.0
        return sum(map(self.has_token, want)) / len(want)

    def grounds(self, item: str, element: str, threshold: float) -> bool:
        """Whether the document supports the item: a date it writes, or token coverage."""
        if element == "date":
            parsed = parse_date(item)
            if parsed is not None and parsed.full:
                return self.has_date(parsed)
        return self.coverage(item) >= threshold


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

    def to_json(self) -> dict[str, Any]:
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


def audit_items(
    pred_items: Sequence[str],
    similarity: NDArray[np.float64] | None,
    matched_rows: set[int],
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
    # a row's best similarity (NaN when the row holds one) against the threshold, per item
    near_gold: list[bool] = (
        (similarity.max(axis=1) >= match_threshold).tolist()
        if similarity is not None and similarity.shape[1] > 0
        else [False] * n
    )
    for i, item in enumerate(pred_items):
        if i in matched_rows:
            continue
        if near_gold[i] or (
            source is not None and source.grounds(item, element, coverage_threshold)
        ):
            true_items += 1
    return Audit(
        n_predicted=n,
        matched_gt=matched,
        verified_in_doc=true_items,
        true_items=true_items,
        doc_verification=source is not None,
    )
