"""Section-text scores: how much of the gold body text a prediction recovers, and where.

Recall and precision count tokens (multiset overlap). Tokens are seed 002's: casefold, NFKD,
Latin diacritics removed, split on ``[\\W_]+``, one token per Han, Hiragana, Katakana and
Thai character (``assay._text.word_tokens``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from assay._text import word_tokens
from assay.suites.biblio._lib.export import Section


def overlap(a: Counter[str], b: Counter[str]) -> int:
    """Size of the multiset intersection |a ∩ b|."""
    if len(a) > len(b):
        a, b = b, a
    return sum(min(n, b[t]) for t, n in a.items() if t in b)


#: section-type names that mean one of bibr's types (bibr 12's vocabulary is the common one, so
#: JATS gold's "introduction" and a bibr prediction's "intro" are the same type)
SECTION_SYNONYMS = {
    "introduction": "intro",
    "background": "intro",
    "methods": "method",
    "materials": "method",
    "result": "results",
    "conclusion": "discussion",
    "conclusions": "discussion",
    "acknowledgements": "acknowledgment",
    "acknowledgments": "acknowledgment",
    "acknowledgement": "acknowledgment",
}


def section_type_key(value: str | None) -> str:
    """A section type as compared: lower case, bibr's name for a synonym, "unknown" if none."""
    key = (value or "unknown").strip().lower() or "unknown"
    return SECTION_SYNONYMS.get(key, key)


@dataclass(frozen=True)
class SectionScores:
    """One paper's section scores and the counts the micro averages sum.

    layout_recall = |gold ∩ pred| / |gold| over all body tokens (labels ignored);
    layout_precision = |gold ∩ pred| / |pred|; section_recall = Σ_types |gold_T ∩ pred_T| /
    |gold| (a token counts only in a predicted section of the gold section's type);
    coverage = share of gold sections whose own recall against the whole prediction reaches
    the drop threshold; the rest are the dropped sections.
    """

    gold_tokens: int
    pred_tokens: int
    layout_overlap: int
    typed_overlap: int
    n_sections: int
    n_covered: int
    per_type: dict[str, tuple[int, int]] = field(default_factory=dict)
    dropped: list[dict[str, Any]] = field(default_factory=list)

    @property
    def layout_recall(self) -> float | None:
        return self.layout_overlap / self.gold_tokens if self.gold_tokens else None

    @property
    def layout_precision(self) -> float | None:
        if not self.gold_tokens:
            return None
        return self.layout_overlap / self.pred_tokens if self.pred_tokens else 0.0

    @property
    def section_recall(self) -> float | None:
        return self.typed_overlap / self.gold_tokens if self.gold_tokens else None

    @property
    def coverage(self) -> float | None:
        return self.n_covered / self.n_sections if self.n_sections else None


def score_sections(
    pred: Sequence[Section], gold: Sequence[Section], *, drop_threshold: float = 0.5
) -> SectionScores:
    """Score predicted sections against gold sections (see SectionScores for the formulas)."""
    pred_by_type: dict[str, Counter[str]] = {}
    pred_all: Counter[str] = Counter()
    for s in pred:
        toks = Counter(word_tokens(s.text))
        pred_all.update(toks)
        pred_by_type.setdefault(section_type_key(s.type), Counter()).update(toks)
    gold_by_type: dict[str, Counter[str]] = {}
    gold_all: Counter[str] = Counter()
    n_sections = n_covered = 0
    dropped: list[dict[str, Any]] = []
    for index, s in enumerate(gold):
        toks = Counter(word_tokens(s.text))
        size = sum(toks.values())
        if not size:
            continue
        gold_all.update(toks)
        gold_by_type.setdefault(section_type_key(s.type), Counter()).update(toks)
        n_sections += 1
        recall = overlap(toks, pred_all) / size
        if recall >= drop_threshold:
            n_covered += 1
        else:
            dropped.append(
                {
                    "index": index,
                    "type": section_type_key(s.type),
                    "title": s.title,
                    "tokens": size,
                    "recall": round(recall, 6),
                }
            )
    per_type = {
        t: (overlap(g, pred_by_type.get(t, Counter())), sum(g.values()))
        for t, g in sorted(gold_by_type.items())
    }
    return SectionScores(
        gold_tokens=sum(gold_all.values()),
        pred_tokens=sum(pred_all.values()),
        layout_overlap=overlap(gold_all, pred_all),
        typed_overlap=sum(o for o, _ in per_type.values()),
        n_sections=n_sections,
        n_covered=n_covered,
        per_type=per_type,
        dropped=dropped,
    )
