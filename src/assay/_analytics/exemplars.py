"""Exemplar mining (seed 000 §14): near-miss documents, and the token-budgeted set of few-shot
exemplars expected to flip the most wrong answers.

For one (model, prompt), a document is a near miss when gold is not strictly its plurality
label (a wrong label has at least gold's share) and either gold holds at least ``min_share`` of
its samples or a wrong sample's reasoning mentions the gold label (its words in order: the
"decoy" signal). Each confusion gold → predicted has a value,

    expected_flips(g → w) = Σ over documents with gold g of share of samples labelled w,

the expected number of single calls currently answering w for g — an optimistic ceiling on what
one exemplar of that confusion can fix. Candidates are the cheapest near miss (exemplar tokens)
of each confusion; the selection maximizes Σ expected_flips under the token budget (exact 0/1
knapsack). Candidates with unknown tokens are listed and never selected.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from assay._analytics.corpus import Corpus, Sample
from assay._analytics.montecarlo import label_dist
from assay._text.tokenize import word_tokens


@dataclass(frozen=True)
class NearMiss:
    doc: str
    gold: str
    predicted: str
    gold_share: float
    decoy_mentioned: bool
    n_samples: int
    tokens: int | None


@dataclass(frozen=True)
class ExemplarCandidate:
    """The exemplar proposed for one confusion, with its value and cost."""

    doc: str
    gold: str
    predicted: str
    expected_flips: float
    tokens: int | None
    selected: bool


@dataclass(frozen=True)
class ExemplarSelection:
    model: str
    prompt: str
    budget_tokens: int
    n_docs: int
    near_misses: list[NearMiss]
    candidates: list[ExemplarCandidate]
    tokens_used: int
    expected_flips: float


def decoy_mentioned(reasoning: str | None, label: str) -> bool:
    """True when the words of ``label`` (underscores as spaces) occur in order in the text."""
    if not reasoning:
        return False
    needle = word_tokens(label.replace("_", " "))
    hay = word_tokens(reasoning)
    n = len(needle)
    return n > 0 and any(hay[i : i + n] == needle for i in range(len(hay) - n + 1))


def _tokens(samples: Sequence[Sample]) -> int | None:
    """The exemplar's prompt cost: exemplar_tokens when given, else the mean prompt tokens."""
    ex = [s.exemplar_tokens for s in samples if s.exemplar_tokens is not None]
    if ex:
        return int(max(ex))
    pt = [s.prompt_tokens for s in samples if s.prompt_tokens is not None]
    return round(float(np.mean(pt))) if pt else None


def near_misses(corpus: Corpus, model: str, prompt: str, min_share: float = 0.2) -> list[NearMiss]:
    """Documents whose majority is wrong but gold is close (see the module docstring)."""
    out = []
    for doc, samples in corpus.by_doc(model, prompt).items():
        gold = samples[0].gold
        if gold is None:
            continue
        dist = label_dist(samples)
        share = dist.get(gold, 0.0)
        wrong = {k: v for k, v in dist.items() if k != gold}
        if not wrong:
            continue
        top = max(sorted(wrong), key=lambda k: wrong[k])
        if wrong[top] < share:  # gold is strictly the plurality: a hit, not a miss
            continue
        decoy = any(decoy_mentioned(s.reasoning, gold) for s in samples if not s.correct)
        if share >= min_share or decoy:
            out.append(NearMiss(doc, gold, top, share, decoy, len(samples), _tokens(samples)))
    return out


def knapsack(values: Sequence[float], weights: Sequence[int], budget: int) -> list[int]:
    """Indices of the 0/1 subset with the largest total value and total weight ≤ budget."""
    best = np.zeros(budget + 1)
    keep = np.zeros((len(values), budget + 1), dtype=bool)
    for i, (v, w) in enumerate(zip(values, weights, strict=True)):
        if w > budget:
            continue
        cand = np.full(budget + 1, -np.inf)
        cand[w:] = best[: budget + 1 - w] + v
        better = cand > best + 1e-12
        keep[i] = better
        best = np.where(better, cand, best)
    chosen, cap = [], budget
    for i in range(len(values) - 1, -1, -1):
        if keep[i, cap]:
            chosen.append(i)
            cap -= weights[i]
    return sorted(chosen)


def select_exemplars(
    corpus: Corpus,
    model: str,
    prompt: str,
    *,
    budget_tokens: int = 4000,
    min_share: float = 0.2,
) -> ExemplarSelection:
    """Near misses, one candidate per confusion, and the budgeted selection."""
    docs = {d: s for d, s in corpus.by_doc(model, prompt).items() if s[0].gold is not None}
    flips: dict[tuple[str, str], float] = defaultdict(float)
    for samples in docs.values():
        gold = samples[0].gold
        assert gold is not None
        for s in samples:
            if not s.correct:
                flips[(gold, s.label)] += 1 / len(samples)
    misses = near_misses(corpus, model, prompt, min_share)
    best: dict[tuple[str, str], NearMiss] = {}
    for m in misses:
        key = (m.gold, m.predicted)
        cur = best.get(key)
        rank = (m.tokens is None, m.tokens or 0, -m.gold_share, m.doc)
        if cur is None or rank < (cur.tokens is None, cur.tokens or 0, -cur.gold_share, cur.doc):
            best[key] = m
    keys = sorted(best, key=lambda k: (-flips[k], k))
    priced = [k for k in keys if best[k].tokens is not None]
    chosen = {
        priced[i]
        for i in knapsack(
            [flips[k] for k in priced], [int(best[k].tokens or 0) for k in priced], budget_tokens
        )
    }
    candidates = [
        ExemplarCandidate(
            doc=best[k].doc,
            gold=k[0],
            predicted=k[1],
            expected_flips=flips[k],
            tokens=best[k].tokens,
            selected=k in chosen,
        )
        for k in keys
    ]
    return ExemplarSelection(
        model=model,
        prompt=prompt,
        budget_tokens=budget_tokens,
        n_docs=len(docs),
        near_misses=misses,
        candidates=candidates,
        tokens_used=sum(int(best[k].tokens or 0) for k in chosen),
        # summed in the candidates' order, not the set's (whose order follows the string
        # hashes, so the last digit varied with PYTHONHASHSEED)
        expected_flips=float(sum(flips[k] for k in keys if k in chosen)),
    )
