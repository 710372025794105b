"""Factuality audit (seed 000 §4): every predicted item must be TRUE.

An item is true when it matches a gold label (element similarity ≥ 0.6) or its content is present
in the source document: normalized token coverage ≥ ``verification_token_coverage`` (0.7), and
for dates a date written anywhere in the document, in any format, equal to the predicted one.

verified_precision = true_items / n_predicted; hallucination_rate = hallucinated / n_predicted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay.fields import ParsedDate, date_candidates, parse_date
from assay.fields._text import content_tokens, tokens

#: every ASCII character that is not a letter or digit separates tokens (as word_tokens does)
_ASCII_SEPARATORS = str.maketrans({chr(c): " " for c in range(128) if not chr(c).isalnum()})

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
    """A source document's token set and date candidates, each built on first use."""

    text: str

    @cached_property
    def token_set(self) -> frozenset[str]:
        """The document's normalized word tokens (ASCII text takes a C-speed path)."""
        if self.text.isascii():
            return frozenset(self.text.lower().translate(_ASCII_SEPARATORS).split())
        return frozenset(tokens(self.text))

    @cached_property
    def _lower(self) -> str:
        return self.text.lower()

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
        have = self.token_set
        return sum(1 for t in want if t in have) / len(want)

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
    for i, item in enumerate(pred_items):
        if i in matched_rows:
            continue
        near_gold = (
            similarity is not None
            and similarity.shape[1] > 0
            and float(similarity[i].max()) >= match_threshold
        )
        if near_gold or (source is not None and source.grounds(item, element, coverage_threshold)):
            true_items += 1
    return Audit(
        n_predicted=n,
        matched_gt=matched,
        verified_in_doc=true_items,
        true_items=true_items,
        doc_verification=source is not None,
    )
