"""Paired-bootstrap prompt ablation (seed 000 §14): for every model and every pair of its
prompts (A, B), on the documents both prompts saw, Δ = acc_B − acc_A with the paired bootstrap
CI, P(win) = share of resamples with Δ* > 0 (B better; ties are not wins), and the p-value of
the one paired-test dispatch (``assay.stats.paired_test``: exact sign-flip at few documents,
randomization below 50, the bootstrap above). Every row's test is one family, Holm-adjusted:
``significant`` follows the adjusted p. A document's accuracy under a prompt is the share of
its samples that are correct.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

import numpy as np

from assay._analytics.corpus import Corpus
from assay._analytics.montecarlo import doc_accuracy
from assay.metrics.spec import mean_columns, mean_metric
from assay.metrics.table import StatsTable
from assay.stats.bootstrap import paired_bootstrap_deltas
from assay.stats.family import adjust_family
from assay.stats.intervals import percentile_interval
from assay.stats.result import SignificanceResult
from assay.stats.significance import paired_test


@dataclass(frozen=True)
class AblationRow:
    """One (model, A, B) pair on its shared documents; Δ = B − A."""

    model: str
    prompt_a: str
    prompt_b: str
    n_docs: int
    acc_a: float
    acc_b: float
    delta: float
    ci_lower: float | None
    ci_upper: float | None
    p_value: float
    p_win: float
    ci_excludes_zero: bool
    n_bootstrap: int
    test: str = ""
    p_adjusted: float | None = None
    significant: bool = False


def _table(ids: list[str], values: list[float]) -> StatsTable:
    return StatsTable.from_rows(ids, [mean_columns("acc", v) for v in values])


def prompt_ablation(
    corpus: Corpus,
    *,
    n_bootstrap: int = 1000,
    seed: int = 12345,
    alpha: float = 0.05,
    min_docs: int = 1,
) -> list[AblationRow]:
    """Every (model, A, B) pair with at least ``min_docs`` shared documents with gold."""
    spec = mean_metric("acc", "acc")
    rows = []
    tests: list[SignificanceResult] = []
    for model in corpus.models():
        prompts = sorted({p for m, p in corpus.configs() if m == model})
        per_prompt = {
            p: {d: s for d, s in corpus.by_doc(model, p).items() if s[0].gold is not None}
            for p in prompts
        }
        for a, b in itertools.combinations(prompts, 2):
            shared = sorted(set(per_prompt[a]) & set(per_prompt[b]))
            if len(shared) < min_docs or not shared:
                continue
            ta = _table(shared, [doc_accuracy(per_prompt[a][d]) for d in shared])
            tb = _table(shared, [doc_accuracy(per_prompt[b][d]) for d in shared])
            # paired_bootstrap_deltas gives f(first) − f(second): pass B first for Δ = B − A
            dist = paired_bootstrap_deltas(tb, ta, [spec], n_resamples=n_bootstrap, seed=seed)
            deltas = dist["acc"]
            acc_a, acc_b = spec.value(ta), spec.value(tb)
            ci = percentile_interval(deltas, alpha)
            (test,) = paired_test(tb, ta, [spec], n_resamples=n_bootstrap, seed=seed, alpha=alpha)
            tests.append(test)
            excludes = (
                ci.lower is not None and ci.upper is not None and (ci.lower > 0 or ci.upper < 0)
            )
            rows.append(
                AblationRow(
                    model=model,
                    prompt_a=a,
                    prompt_b=b,
                    n_docs=len(shared),
                    acc_a=acc_a,
                    acc_b=acc_b,
                    delta=acc_b - acc_a,
                    ci_lower=ci.lower,
                    ci_upper=ci.upper,
                    p_value=test.p_value,
                    p_win=float(np.mean(deltas > 0)),
                    ci_excludes_zero=bool(excludes),
                    n_bootstrap=n_bootstrap,
                    test=test.method,
                )
            )
    adjusted = adjust_family(tests, correction="holm", family="all")
    return [
        replace(r, p_adjusted=t.p_adjusted, significant=t.significant)
        for r, t in zip(rows, adjusted, strict=True)
    ]
