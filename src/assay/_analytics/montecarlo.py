"""Monte Carlo robustness (seed 000 §14): one document's label distribution, committee voting,
and the per-document means with bootstrap CIs that every scenario reports.

For a document with samples from one (model, prompt), its empirical label distribution p is the
sampling distribution of one more call; a failed call is the label ``<failed>``, never correct.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from assay._analytics.corpus import Corpus, Sample
from assay.errors import UsageError
from assay.metrics.spec import mean_columns, mean_metric
from assay.metrics.table import StatsTable
from assay.stats.bootstrap import bootstrap_distributions
from assay.stats.intervals import percentile_interval


def normalize_dist(counts: Mapping[str, float]) -> dict[str, float]:
    """p(label) = count / Σ counts; errors on negative counts or an empty total."""
    if any(v < 0 or not math.isfinite(v) for v in counts.values()):
        raise UsageError("label counts must be finite and non-negative")
    total = math.fsum(counts.values())
    if total <= 0:
        raise UsageError("a label distribution needs a positive total count")
    return {k: v / total for k, v in sorted(counts.items()) if v > 0}


def shannon_entropy(dist: Mapping[str, float], base: float = 2.0) -> float:
    """H(p) = −Σ p log_base p over labels with p > 0 (0 for a single label)."""
    return -math.fsum(p * math.log(p, base) for p in dist.values() if p > 0)


def majority_margin(dist: Mapping[str, float]) -> float:
    """p(top label) − p(runner-up); 1 when one label holds all the mass."""
    top = sorted(dist.values(), reverse=True)
    return top[0] - (top[1] if len(top) > 1 else 0.0)


def label_dist(samples: Sequence[Sample]) -> dict[str, float]:
    return normalize_dist(Counter(s.label for s in samples))


def doc_accuracy(samples: Sequence[Sample]) -> float:
    """Share of a document's samples whose label is gold: one call's expected accuracy."""
    return sum(s.correct for s in samples) / len(samples)


@dataclass(frozen=True)
class Estimate:
    """A mean over documents with its percentile bootstrap CI and support n (documents)."""

    value: float | None
    ci_lower: float | None
    ci_upper: float | None
    n: int


def doc_means(
    columns: Mapping[str, Sequence[float]],
    *,
    n_bootstrap: int = 1000,
    seed: int = 12345,
    alpha: float = 0.05,
) -> dict[str, Estimate]:
    """Mean of each per-document column with a bootstrap CI (documents resampled, shared W)."""
    names = list(columns)
    n = len(columns[names[0]]) if names else 0
    if n == 0:
        return {k: Estimate(None, None, None, 0) for k in names}
    ids = [str(i) for i in range(n)]
    rows = [
        {c: v for k in names for c, v in mean_columns(k, float(columns[k][i])).items()}
        for i in range(n)
    ]
    table = StatsTable.from_rows(ids, rows)
    specs = [mean_metric(k, k) for k in names]
    dists = bootstrap_distributions(table, specs, n_resamples=n_bootstrap, seed=seed)
    out = {}
    for spec in specs:
        ci = percentile_interval(dists[spec.name], alpha)
        out[spec.name] = Estimate(spec.value(table), ci.lower, ci.upper, n)
    return out


def draw_committee(dist: Mapping[str, float], k: int, rng: np.random.Generator) -> str:
    """One Monte Carlo committee: k independent votes from ``dist``, majority wins, ties at
    random."""
    labels = list(dist)
    votes = rng.multinomial(k, [dist[x] for x in labels])
    jitter = rng.random(len(labels)) * 0.5
    return labels[int(np.argmax(votes + jitter))]


def committee_win_rate(
    dist: Mapping[str, float], gold: str, k: int, n_sims: int, rng: np.random.Generator
) -> float:
    """Share of ``n_sims`` simulated k-vote committees whose majority (ties at random) is gold."""
    labels = list(dist)
    if gold not in dist:
        return 0.0
    probs = np.array([dist[x] for x in labels])
    votes = rng.multinomial(k, probs / probs.sum(), size=n_sims)
    # integer counts + jitter in [0, 0.5) breaks ties uniformly and never reverses an order
    winners = np.argmax(votes + rng.random(votes.shape) * 0.5, axis=1)
    return float(np.mean(winners == labels.index(gold)))


@dataclass(frozen=True)
class CommitteeRow:
    """Committee accuracy at size k with its CI, and its gain over a single call."""

    model: str
    prompt: str
    k: int
    accuracy: Estimate
    gain_pp: float | None
    n_samples: int
    mean_samples_per_doc: float
    mc_simulations: int


def committee_accuracy(
    corpus: Corpus,
    model: str,
    prompt: str,
    sizes: Sequence[int],
    *,
    n_sims: int = 2000,
    n_bootstrap: int = 1000,
    seed: int = 12345,
    alpha: float = 0.05,
) -> list[CommitteeRow]:
    """Accuracy of a k-vote majority committee drawn from each document's label distribution.

    accuracy(k) = mean over documents of P(majority of k draws = gold), each P by ``n_sims``
    simulated committees; the CI resamples documents. Documents without gold are left out.
    """
    if any(k < 1 for k in sizes):
        raise UsageError("committee sizes must be >= 1")
    docs = {d: s for d, s in corpus.by_doc(model, prompt).items() if s[0].gold is not None}
    if not docs:
        raise UsageError(f"no documents with gold for model {model!r}, prompt {prompt!r}")
    rng = np.random.default_rng(seed)
    cols: dict[str, list[float]] = {f"k={k}": [] for k in sizes}
    # the win rate depends only on the label-count profile (gold count, sorted wrong counts),
    # so documents sharing a profile share one simulation (in document order: deterministic)
    cache: dict[tuple[int, int, tuple[int, ...]], float] = {}
    for samples in docs.values():
        gold = samples[0].gold
        assert gold is not None
        counts = Counter(s.label for s in samples)
        wrong = tuple(sorted((v for lab, v in counts.items() if lab != gold), reverse=True))
        for k in sizes:
            key = (k, counts.get(gold, 0), wrong)
            if key not in cache:
                cache[key] = committee_win_rate(label_dist(samples), gold, k, n_sims, rng)
            cols[f"k={k}"].append(cache[key])
    single = [doc_accuracy(s) for s in docs.values()]
    est = doc_means(cols, n_bootstrap=n_bootstrap, seed=seed, alpha=alpha)
    base = float(np.mean(single))
    n_samples = sum(len(s) for s in docs.values())
    gains = {k: est[k].value for k in est}
    return [
        CommitteeRow(
            model=model,
            prompt=prompt,
            k=k,
            accuracy=est[f"k={k}"],
            gain_pp=_pp(gains[f"k={k}"], base),
            n_samples=n_samples,
            mean_samples_per_doc=n_samples / len(docs),
            mc_simulations=n_sims,
        )
        for k in sizes
    ]


def _pp(value: float | None, base: float) -> float | None:
    return None if value is None else 100 * (value - base)
