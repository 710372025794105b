"""``run_montecarlo``: every §14 scenario over one corpus, as one JSON-ready report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from assay._analytics.ablation import AblationRow, prompt_ablation
from assay._analytics.calibration import Rate
from assay._analytics.corpus import Corpus
from assay._analytics.escalation import ConfidenceSource, EscalationResult, escalation_table
from assay._analytics.exemplars import ExemplarSelection, select_exemplars
from assay._analytics.failures import failure_scenarios
from assay._analytics.montecarlo import (
    CommitteeRow,
    committee_accuracy,
    label_dist,
    majority_margin,
    shannon_entropy,
)
from assay._settings.model import AnalyticsSettings, ModelPrice


@dataclass(frozen=True)
class ConfigProfile:
    """One (model, prompt): support and the mean per-document label-distribution statistics."""

    model: str
    prompt: str
    n_docs: int
    n_docs_with_gold: int
    n_samples: int
    mean_entropy_bits: float
    mean_majority_margin: float
    share_unanimous: float


@dataclass(frozen=True)
class MonteCarloReport:
    source: str
    n_samples: int
    n_docs: int
    seed: int
    n_bootstrap: int
    alpha: float
    profiles: list[ConfigProfile]
    committee: list[CommitteeRow]
    ablation: list[AblationRow]
    escalation: EscalationResult | None
    failures: dict[str, Any]
    exemplars: list[ExemplarSelection]
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _profile(corpus: Corpus, model: str, prompt: str) -> ConfigProfile:
    docs = corpus.by_doc(model, prompt)
    dists = [label_dist(s) for s in docs.values()]
    return ConfigProfile(
        model=model,
        prompt=prompt,
        n_docs=len(docs),
        n_docs_with_gold=sum(1 for s in docs.values() if s[0].gold is not None),
        n_samples=sum(len(s) for s in docs.values()),
        mean_entropy_bits=float(np.mean([shannon_entropy(d) for d in dists])),
        mean_majority_margin=float(np.mean([majority_margin(d) for d in dists])),
        share_unanimous=float(np.mean([len(d) == 1 for d in dists])),
    )


def parse_config(text: str) -> tuple[str, str | None]:
    """``model`` or ``model:prompt`` (the prompt after the last colon)."""
    model, sep, prompt = text.rpartition(":")
    return (model, prompt or None) if sep and model else (text, None)


def run_montecarlo(
    corpus: Corpus,
    *,
    settings: AnalyticsSettings | None = None,
    sizes: Sequence[int] | None = None,
    cheap: str | None = None,
    strong: str | None = None,
    confidence: ConfidenceSource = "auto",
    failure_model: str | None = None,
    fallback: str | None = None,
    max_tries: int | None = None,
    persistent_share: float = 0.0,
    budget_tokens: int | None = None,
    n_simulations: int | None = None,
    n_bootstrap: int = 1000,
    seed: int = 12345,
    alpha: float = 0.05,
    prices: Mapping[str, ModelPrice] | None = None,
) -> MonteCarloReport:
    """Profiles, committee voting, prompt ablation, escalation (with --cheap/--strong),
    failure pipeline and exemplar mining for every (model, prompt) of the corpus."""
    s = settings or AnalyticsSettings()
    sizes = list(sizes or s.committee_sizes)
    n_sims = n_simulations or s.mc_simulations
    prices = s.prices if prices is None else prices
    warnings: list[str] = []
    configs = corpus.configs()
    profiles = [_profile(corpus, m, p) for m, p in configs]
    committee: list[CommitteeRow] = []
    exemplars: list[ExemplarSelection] = []
    for i, prof in enumerate(profiles):
        if not _usable(prof, warnings):
            continue
        committee += committee_accuracy(
            corpus,
            prof.model,
            prof.prompt,
            sizes,
            n_sims=n_sims,
            n_bootstrap=n_bootstrap,
            seed=seed + i,
            alpha=alpha,
        )
        exemplars.append(
            select_exemplars(
                corpus,
                prof.model,
                prof.prompt,
                budget_tokens=s.exemplar_budget_tokens if budget_tokens is None else budget_tokens,
                min_share=s.near_miss_min_share,
            )
        )
    ablation = prompt_ablation(corpus, n_bootstrap=n_bootstrap, seed=seed, alpha=alpha)
    escalation = None
    if cheap and strong:
        escalation = escalation_table(
            corpus,
            parse_config(cheap),
            parse_config(strong),
            s.escalation_thresholds,
            prices=prices,
            confidence=confidence,
            n_bootstrap=n_bootstrap,
            seed=seed,
            alpha=alpha,
        )
    elif cheap or strong:
        warnings.append("escalation needs both --cheap and --strong; skipped")
    failures = _failure_pipeline(
        corpus,
        failure_model,
        fallback,
        max_tries=max_tries or s.max_tries,
        persistent_share=persistent_share,
        n_docs=s.failure_docs,
        seed=seed,
        alpha=alpha,
    )
    return MonteCarloReport(
        source=corpus.source,
        n_samples=len(corpus.samples),
        n_docs=len({x.doc for x in corpus.samples}),
        seed=seed,
        n_bootstrap=n_bootstrap,
        alpha=alpha,
        profiles=profiles,
        committee=committee,
        ablation=ablation,
        escalation=escalation,
        failures=failures,
        exemplars=exemplars,
        warnings=warnings,
    )


def _usable(prof: ConfigProfile, warnings: list[str]) -> bool:
    """Whether a (model, prompt) has gold to score committees and exemplars against;
    ``warnings`` told when it has none, or when one sample per document makes every committee
    equal to one call."""
    if prof.n_docs_with_gold == 0:
        warnings.append(f"{prof.model}:{prof.prompt}: no document has gold; skipped")
        return False
    if prof.n_samples == prof.n_docs:
        warnings.append(
            f"{prof.model}:{prof.prompt}: one sample per document, so every label "
            "distribution is a point mass and committees cannot change accuracy"
        )
    return True


def _failure_pipeline(
    corpus: Corpus,
    model: str | None,
    fallback: str | None,
    *,
    max_tries: int,
    persistent_share: float,
    n_docs: int,
    seed: int,
    alpha: float,
) -> dict[str, Any]:
    """The failure pipeline's figures: ``model``'s observed failure rate (every model's when
    None), the fallback's, and each retry scenario's end-to-end rate, with the assumption
    they rest on."""
    observed, fb, scenarios = failure_scenarios(
        corpus,
        model=model,
        fallback=fallback,
        max_tries=max_tries,
        persistent_share=persistent_share,
        n_docs=n_docs,
        seed=seed,
        alpha=alpha,
    )
    return {
        "model": model or "<all models>",
        "observed": asdict(observed),
        "fallback": fallback,
        "fallback_observed": asdict(fb) if isinstance(fb, Rate) else None,
        "assumption": "calls fail independently; a share persistent_share of first failures "
        "fail every retry of the document",
        "scenarios": [asdict(x) for x in scenarios],
    }
