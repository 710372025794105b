"""Failure-pipeline simulation (seed 000 §14): what retries and a fallback model would do to
the observed per-call failure rate.

Each document gets up to ``max_tries`` calls to the primary model and, if all fail, one call to
the fallback model (when given). A call fails with probability p (the primary's observed rate);
with ``persistent_share`` s, a first failure is persistent (every retry of that document fails
too, as with an over-long input) with probability s. Closed form:

    P(doc fails) = p · (s + (1 − s) · p^(max_tries − 1)) · (p_fallback if fallback else 1)

The simulation draws ``n_docs`` documents and reports the simulated rate with its Wilson
interval next to the closed form, whose interval maps the Wilson interval of the observed p.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assay._analytics.calibration import Rate, rate
from assay._analytics.corpus import Corpus
from assay.errors import UsageError


@dataclass(frozen=True)
class FailureScenario:
    """One pipeline shape: simulated and closed-form failure rates and calls per document."""

    max_tries: int
    fallback: str | None
    persistent_share: float
    n_docs: int
    simulated: Rate
    closed_form: float
    closed_form_ci: tuple[float | None, float | None]
    calls_per_doc: float


def observed_failure_rate(corpus: Corpus, model: str | None = None, alpha: float = 0.05) -> Rate:
    """Failed calls / calls (of one model, or all), with the Wilson interval."""
    samples = [s for s in corpus.samples if model is None or s.model == model]
    if not samples:
        raise UsageError(f"no samples for model {model!r}")
    return rate(sum(s.failed for s in samples), len(samples), alpha)


def doc_failure_probability(
    p: float, max_tries: int, fallback_p: float | None = None, persistent_share: float = 0.0
) -> float:
    """The closed form of the module docstring."""
    primary = p * (persistent_share + (1 - persistent_share) * p ** (max_tries - 1))
    return primary * (fallback_p if fallback_p is not None else 1.0)


def simulate_pipeline(
    p: float,
    *,
    max_tries: int = 1,
    fallback_p: float | None = None,
    persistent_share: float = 0.0,
    n_docs: int = 320_000,
    seed: int = 12345,
    alpha: float = 0.05,
) -> tuple[Rate, float]:
    """(simulated document failure rate, mean calls per document) over ``n_docs`` documents."""
    for name, value in (("p", p), ("persistent_share", persistent_share)):
        if not 0.0 <= value <= 1.0:
            raise UsageError(f"{name} must lie in [0, 1], got {value}")
    if fallback_p is not None and not 0.0 <= fallback_p <= 1.0:
        raise UsageError(f"fallback_p must lie in [0, 1], got {fallback_p}")
    if max_tries < 1 or n_docs < 1:
        raise UsageError("max_tries and n_docs must be >= 1")
    rng = np.random.default_rng(seed)
    fails = rng.random((n_docs, max_tries)) < p
    persistent = fails[:, 0] & (rng.random(n_docs) < persistent_share)
    fails[persistent, :] = True
    # attempts made: up to and including the first success (argmin finds the first False)
    all_failed = fails.all(axis=1)
    calls = np.where(all_failed, max_tries, np.argmin(fails, axis=1) + 1).astype(float)
    final = all_failed.copy()
    if fallback_p is not None:
        fb_fails = rng.random(n_docs) < fallback_p
        calls += all_failed
        final &= fb_fails
    return rate(int(final.sum()), n_docs, alpha), float(calls.mean())


def failure_scenarios(
    corpus: Corpus,
    *,
    model: str | None = None,
    fallback: str | None = None,
    max_tries: int = 1,
    persistent_share: float = 0.0,
    n_docs: int = 320_000,
    seed: int = 12345,
    alpha: float = 0.05,
) -> tuple[Rate, Rate | None, list[FailureScenario]]:
    """Every tries count 1..max_tries, without and (when given) with the fallback model."""
    observed = observed_failure_rate(corpus, model, alpha)
    fb = observed_failure_rate(corpus, fallback, alpha) if fallback else None
    assert observed.value is not None
    out = []
    shapes: list[tuple[int, str | None]] = [(t, None) for t in range(1, max_tries + 1)]
    if fb is not None:
        shapes += [(t, fallback) for t in range(1, max_tries + 1)]
    for i, (tries, fb_name) in enumerate(shapes):
        fb_p = fb.value if fb_name is not None and fb is not None else None
        sim, calls = simulate_pipeline(
            observed.value,
            max_tries=tries,
            fallback_p=fb_p,
            persistent_share=persistent_share,
            n_docs=n_docs,
            seed=seed + i,
            alpha=alpha,
        )
        lo_hi = []
        for bound_p, bound_fb in (
            (observed.ci_lower, fb.ci_lower if fb_p is not None and fb else None),
            (observed.ci_upper, fb.ci_upper if fb_p is not None and fb else None),
        ):
            lo_hi.append(
                None
                if bound_p is None
                else doc_failure_probability(bound_p, tries, bound_fb, persistent_share)
            )
        out.append(
            FailureScenario(
                max_tries=tries,
                fallback=fb_name,
                persistent_share=persistent_share,
                n_docs=n_docs,
                simulated=sim,
                closed_form=doc_failure_probability(observed.value, tries, fb_p, persistent_share),
                closed_form_ci=(lo_hi[0], lo_hi[1]),
                calls_per_doc=calls,
            )
        )
    return observed, fb, out
