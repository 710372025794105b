"""Confidence-gated escalation (seed 000 §14): answer with a cheap (model, prompt) and send the
calls whose confidence is below a threshold α to a stronger one.

Per document, over the cheap model's samples s (confidence c_s, correct_s):

    acc_α(doc)  = mean_s( [c_s < α] · acc_strong(doc) + [c_s ≥ α] · correct_s )
    esc_α(doc)  = mean_s [c_s < α]
    cost_α      = cost_cheap + mean_doc esc_α · cost_strong       (USD per document)

Confidence is each sample's ``confidence`` field ("field"), or the majority margin of the
cheap model's label distribution on the document ("margin"); "auto" takes the field when every
cheap sample has one. Headroom is acc_α − acc_cheap (paired over documents, bootstrap CI). A
row is on the Pareto front when no other row is at least as accurate and at most as costly
with one of the two strictly better. Cost is the mean billed ``cost`` of a model's samples, else
its tokens × the price table; unknown cost stays None (and so does the front).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from assay._analytics.corpus import Corpus, Sample
from assay._analytics.cost import resolve_price
from assay._analytics.montecarlo import Estimate, doc_accuracy, label_dist, majority_margin
from assay._settings.model import ModelPrice
from assay.errors import UsageError
from assay.stats.intervals import percentile_interval
from assay.stats.resampling import bootstrap_weight_chunks

ConfidenceSource = Literal["auto", "field", "margin"]


@dataclass(frozen=True)
class EscalationRow:
    """One threshold (or the cheap-only / strong-only references)."""

    label: str
    threshold: float | None
    escalation_rate: float
    accuracy: Estimate
    headroom_pp: Estimate
    cost_per_doc_usd: float | None
    cost_multiplier: float | None
    pareto: bool | None


@dataclass(frozen=True)
class EscalationResult:
    cheap: str
    strong: str
    confidence: str
    n_docs: int
    cheap_cost_per_call_usd: float | None
    strong_cost_per_call_usd: float | None
    rows: list[EscalationRow]


def call_cost(samples: Sequence[Sample], prices: Mapping[str, ModelPrice]) -> float | None:
    """Mean per-call USD: billed costs when every sample has one, else tokens × price."""
    if samples and all(s.cost is not None for s in samples):
        return float(np.mean([s.cost for s in samples]))
    priced = []
    for s in samples:
        found = resolve_price(s.model, prices)
        if found is None or s.prompt_tokens is None or s.completion_tokens is None:
            return None
        price = found[1]
        priced.append((s.prompt_tokens * price.input + s.completion_tokens * price.output) / 1e6)
    return float(np.mean(priced)) if priced else None


def _confidences(samples: Sequence[Sample], source: str) -> list[float]:
    if source == "field":
        values = [s.confidence for s in samples]
        if any(v is None for v in values):
            raise UsageError(f"document {samples[0].doc!r}: a cheap sample has no confidence")
        return [float(v) for v in values if v is not None]
    margin = majority_margin(label_dist(samples))
    return [margin] * len(samples)


def _pareto(points: list[tuple[float | None, float]]) -> list[bool | None]:
    if any(c is None for c, _ in points):
        return [None] * len(points)
    out: list[bool | None] = []
    for i, (ci, ai) in enumerate(points):
        dominated = any(
            (cj is not None and ci is not None) and cj <= ci and aj >= ai and (cj < ci or aj > ai)
            for j, (cj, aj) in enumerate(points)
            if j != i
        )
        out.append(not dominated)
    return out


def _bootstrap(
    values: np.ndarray, base: np.ndarray, n_bootstrap: int, seed: int, alpha: float
) -> tuple[list[Estimate], list[Estimate]]:
    """Means of each column of ``values`` (N × T) and of ``values − base``, docs resampled."""
    n, t = values.shape
    diff = values - base[:, None]
    means, deltas = [], []
    for w in bootstrap_weight_chunks(n, n_bootstrap, seed):
        means.append(w @ values / n)
        deltas.append(w @ diff / n)
    m, d = np.vstack(means), np.vstack(deltas)
    acc, head = [], []
    for j in range(t):
        ci = percentile_interval(m[:, j], alpha)
        acc.append(Estimate(float(values[:, j].mean()), ci.lower, ci.upper, n))
        cd = percentile_interval(100 * d[:, j], alpha)
        head.append(Estimate(float(100 * diff[:, j].mean()), cd.lower, cd.upper, n))
    return acc, head


def _policy_outcomes(
    docs: Sequence[str],
    cheap_docs: Mapping[str, Sequence[Sample]],
    strong_docs: Mapping[str, Sequence[Sample]],
    confidence: str,
    thresholds: Sequence[float],
) -> tuple[np.ndarray, list[list[float]]]:
    """Per document, each policy's expected accuracy (cheap only, strong only, then one per
    threshold t: a cheap sample with confidence below t is escalated, i.e. takes the strong
    model's accuracy), and the share of its cheap samples each threshold escalates."""
    columns = []  # per doc: [cheap-only, strong-only, thresholds...]
    rates = []
    for d in docs:
        samples = cheap_docs[d]
        conf = np.array(_confidences(samples, confidence))
        correct = np.array([s.correct for s in samples], dtype=float)
        acc_s = doc_accuracy(strong_docs[d])
        row = [float(correct.mean()), acc_s]
        rate = []
        for t in thresholds:
            esc = conf < t
            row.append(float(np.where(esc, acc_s, correct).mean()))
            rate.append(float(esc.mean()))
        columns.append(row)
        rates.append(rate)
    return np.array(columns), rates


def _policy_costs(
    esc_rates: Sequence[float], c_cheap: float | None, c_strong: float | None
) -> list[float | None]:
    """USD per document of each policy: the strong call alone for "strong only", else one
    cheap call plus the escalated share of a strong call (None without both prices)."""
    costs: list[float | None] = []
    for j, rate_j in enumerate(esc_rates):
        if j == 1:
            costs.append(c_strong)
        elif c_cheap is None or c_strong is None:
            costs.append(None)
        else:
            costs.append(c_cheap + rate_j * c_strong)
    return costs


def escalation_table(
    corpus: Corpus,
    cheap: tuple[str, str | None],
    strong: tuple[str, str | None],
    thresholds: Sequence[float],
    *,
    prices: Mapping[str, ModelPrice] | None = None,
    confidence: ConfidenceSource = "auto",
    n_bootstrap: int = 1000,
    seed: int = 12345,
    alpha: float = 0.05,
) -> EscalationResult:
    """The Pareto table of escalation thresholds (see the module docstring)."""
    prices = prices or {}
    cheap_docs = corpus.by_doc(*cheap)
    strong_docs = corpus.by_doc(*strong)
    docs = [d for d in cheap_docs if d in strong_docs and cheap_docs[d][0].gold is not None]
    name_c = cheap[0] + (f":{cheap[1]}" if cheap[1] else "")
    name_s = strong[0] + (f":{strong[1]}" if strong[1] else "")
    if not docs:
        raise UsageError(f"no documents with gold shared by {name_c} and {name_s}")
    if confidence == "auto":
        has_field = all(s.confidence is not None for d in docs for s in cheap_docs[d])
        confidence = "field" if has_field else "margin"
    values, rates = _policy_outcomes(docs, cheap_docs, strong_docs, confidence, thresholds)
    acc, head = _bootstrap(values, values[:, 0], n_bootstrap, seed, alpha)
    c_cheap = call_cost([s for d in docs for s in cheap_docs[d]], prices)
    c_strong = call_cost([s for d in docs for s in strong_docs[d]], prices)
    esc_rates = [0.0, 1.0, *np.array(rates).mean(axis=0).tolist()]
    costs = _policy_costs(esc_rates, c_cheap, c_strong)
    front = _pareto([(c, a.value or 0.0) for c, a in zip(costs, acc, strict=True)])
    labels = ["cheap only", "strong only", *[f"α={t:g}" for t in thresholds]]
    ths: list[float | None] = [None, None, *thresholds]

    def multiplier(cost: float | None) -> float | None:
        return cost / c_cheap if cost is not None and c_cheap else None

    rows = [
        EscalationRow(
            label=labels[j],
            threshold=ths[j],
            escalation_rate=esc_rates[j],
            accuracy=acc[j],
            headroom_pp=head[j],
            cost_per_doc_usd=costs[j],
            cost_multiplier=multiplier(costs[j]),
            pareto=front[j],
        )
        for j in range(len(labels))
    ]
    return EscalationResult(
        cheap=name_c,
        strong=name_s,
        confidence=confidence,
        n_docs=len(docs),
        cheap_cost_per_call_usd=c_cheap,
        strong_cost_per_call_usd=c_strong,
        rows=rows,
    )
