"""Markdown memos: the Monte Carlo robustness report and the A/B verdict, for a PR or a wiki."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay._analytics.ab import ABResult
from assay._analytics.montecarlo import Estimate
from assay._analytics.robustness import MonteCarloReport


def _f(value: float | None, digits: int = 4) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _ci(lower: float | None, upper: float | None, digits: int = 4, *, signed: bool = False) -> str:
    if lower is None or upper is None:
        return "—"
    sign = "+" if signed else ""
    return f"[{lower:{sign}.{digits}f}, {upper:{sign}.{digits}f}]"


def _est(e: Estimate, digits: int = 4) -> str:
    return f"{_f(e.value, digits)} {_ci(e.ci_lower, e.ci_upper, digits)}"


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return [*out, ""]


def montecarlo_memo(report: MonteCarloReport) -> str:
    """The robustness memo: one section per scenario, every figure with n and its CI."""
    level = round(100 * (1 - report.alpha))
    lines = [
        *_head(report, level),
        *_label_distributions(report),
        *_committee(report, level),
        *_prompt_ablation(report, level),
        *_escalation(report, level),
        *_failure_pipeline(report),
        *_exemplar_mining(report),
    ]
    if report.warnings:
        lines += ["## Warnings", ""] + [f"- {w}" for w in report.warnings] + [""]
    return "\n".join(lines).rstrip() + "\n"


def _head(report: MonteCarloReport, level: int) -> list[str]:
    return [
        "# Monte Carlo robustness",
        "",
        f"Corpus `{report.source}`: {report.n_samples} samples over {report.n_docs} documents. "
        f"CIs are {level}% percentile bootstraps over documents ({report.n_bootstrap} "
        f"resamples, seed {report.seed}).",
        "",
    ]


def _label_distributions(report: MonteCarloReport) -> list[str]:
    """Per model and prompt: how spread its samples' labels are (entropy, majority margin)."""
    header = ["model", "prompt", "docs", "samples", "mean entropy (bits)", "mean margin",
              "unanimous"]  # fmt: skip
    rows = [
        (
            p.model,
            p.prompt,
            p.n_docs,
            p.n_samples,
            _f(p.mean_entropy_bits, 3),
            _f(p.mean_majority_margin, 3),
            _f(p.share_unanimous, 3),
        )
        for p in report.profiles
    ]
    return ["## Label distributions", "", *_table(header, rows)]


def _committee(report: MonteCarloReport, level: int) -> list[str]:
    """Accuracy of a majority of K simulated votes, and its gain over one call."""
    lines = ["## Committee voting", "", "Majority of K simulated votes per document.", ""]
    return lines + _table(
        ["model", "prompt", "K", f"accuracy [{level}% CI]", "gain vs 1 call (pp)", "docs"],
        [
            (c.model, c.prompt, c.k, _est(c.accuracy), _f(c.gain_pp, 2), c.accuracy.n)
            for c in report.committee
        ],
    )


def _prompt_ablation(report: MonteCarloReport, level: int) -> list[str]:
    """Δ = acc(B) − acc(A) of two prompts of one model on shared documents, with its paired
    bootstrap CI and the share of resamples B wins."""
    lines = ["## Paired-bootstrap prompt ablation", "", "Δ = acc(B) − acc(A) on shared docs.", ""]
    if not report.ablation:
        return [*lines, "No model has two prompts on shared documents.", ""]
    return (
        lines
        + _table(
            [
                "model",
                "A",
                "B",
                "docs",
                "acc A",
                "acc B",
                "Δ",
                f"{level}% CI",
                "P(win B)",
                "p",
                "p-adj",
                "sig",
            ],
            [
                (
                    r.model,
                    r.prompt_a,
                    r.prompt_b,
                    r.n_docs,
                    _f(r.acc_a),
                    _f(r.acc_b),
                    f"{r.delta:+.4f}",
                    _ci(r.ci_lower, r.ci_upper, signed=True),
                    _f(r.p_win, 3),
                    _p(r.p_value),
                    _p(r.p_adjusted),
                    "yes" if r.significant else "no",
                )
                for r in report.ablation
            ],
        )
        + [
            "sig: the paired test's p adjusted by Holm over every row (the family-wise error "
            "rate), p-adj < α.",
            "",
        ]
    )


def _escalation(report: MonteCarloReport, level: int) -> list[str]:
    """Each confidence-gated escalation policy: how often it escalates, its accuracy, its
    headroom and cost, and whether it is on the Pareto front."""
    lines = ["## Confidence-gated escalation", ""]
    esc = report.escalation
    if esc is None:
        return [*lines, "Not run (give a cheap and a strong model).", ""]
    lines += [
        f"`{esc.cheap}` escalating to `{esc.strong}` on {esc.n_docs} shared documents; "
        f"confidence from {esc.confidence}. Cost per call: cheap "
        f"{_f(esc.cheap_cost_per_call_usd, 6)}, strong {_f(esc.strong_cost_per_call_usd, 6)} "
        "USD.",
        "",
    ]
    header = ["policy", "escalated", f"accuracy [{level}% CI]", "headroom pp [CI]", "USD/doc",
              "× cost", "Pareto"]  # fmt: skip
    return lines + _table(
        header,
        [
            (
                r.label,
                _f(r.escalation_rate, 3),
                _est(r.accuracy),
                _est(r.headroom_pp, 2),
                _f(r.cost_per_doc_usd, 6),
                _f(r.cost_multiplier, 2),
                "—" if r.pareto is None else "yes" if r.pareto else "",
            )
            for r in esc.rows
        ],
    )


def _failure_pipeline(report: MonteCarloReport) -> list[str]:
    """The observed failure rate, and each retry and fallback scenario's simulated and
    closed-form end-to-end failure rate."""
    f = report.failures
    obs = f["observed"]
    lines = [
        "## Failure pipeline",
        "",
        f"Observed failure rate of {f['model']}: {_f(obs['value'], 5)} "
        f"{_ci(obs['ci_lower'], obs['ci_upper'], 5)} ({obs['k']}/{obs['n']} calls). "
        f"Assumption: {f['assumption']}.",
        "",
    ]
    return lines + _table(
        ["max tries", "fallback", "simulated rate [CI]", "closed form [CI]", "calls/doc", "docs"],
        [
            (
                s["max_tries"],
                s["fallback"] or "—",
                f"{_f(s['simulated']['value'], 6)} "
                f"{_ci(s['simulated']['ci_lower'], s['simulated']['ci_upper'], 6)}",
                f"{_f(s['closed_form'], 6)} "
                f"{_ci(s['closed_form_ci'][0], s['closed_form_ci'][1], 6)}",
                _f(s["calls_per_doc"], 4),
                s["n_docs"],
            )
            for s in f["scenarios"]
        ],
    )


def _exemplar_mining(report: MonteCarloReport) -> list[str]:
    """Per model and prompt: the near misses and the exemplars chosen within the token
    budget, with the flips they may bring (a ceiling)."""
    lines = ["## Exemplar mining", ""]
    for ex in report.exemplars:
        chosen = [c for c in ex.candidates if c.selected]
        lines += [
            f"### {ex.model} · {ex.prompt}",
            "",
            f"{len(ex.near_misses)} near misses over {ex.n_docs} documents; "
            f"{len(chosen)} exemplar(s) selected, {ex.tokens_used}/{ex.budget_tokens} tokens, "
            f"≤ {ex.expected_flips:.1f} expected flips (a ceiling).",
            "",
        ]
        if ex.candidates:
            lines += _table(
                ["confusion", "doc", "expected flips", "tokens", "selected"],
                [
                    (
                        f"{c.gold} → {c.predicted}",
                        c.doc,
                        f"{c.expected_flips:.1f}",
                        "—" if c.tokens is None else c.tokens,
                        "yes" if c.selected else "",
                    )
                    for c in ex.candidates
                ],
            )
    return lines


def _p(value: float | None) -> str:
    """A p-value to 3 decimals, "< 0.001" below, "—" when untested."""
    if value is None:
        return "—"
    return "< 0.001" if value < 0.001 else f"{value:.3f}"


def ab_memo(result: ABResult) -> str:
    """The A/B verdict and the per-metric side-by-side table as markdown."""
    level = round(100 * (1 - result.alpha))
    lines = [
        f"# A/B: candidate {result.candidate['name']} against baseline {result.baseline['name']}",
        "",
        f"**{result.metric}: {result.verdict}** — Δ = candidate − baseline = "
        f"{'—' if result.delta is None else f'{result.delta:+.4f}'} "
        f"{_ci(result.ci_lower, result.ci_upper, signed=True)} ({level}% CI, {result.test}, "
        f"n = {result.n}, tie band ±{result.tie_band:g}"
        + (f", noise band ±{result.noise_band:.4f}" if result.noise_band is not None else "")
        + ").",
        "",
    ]
    lines += _table(
        ["metric", "candidate", "baseline", "Δ", f"{level}% CI of Δ", "p", "p-adj",
         "significant", "MDE", "noise band"],
        [
            (
                m.name + ("" if m.higher_is_better else " ↓"),
                _f(m.candidate),
                _f(m.baseline),
                "—" if m.delta is None else f"{m.delta:+.4f}",
                _ci(m.ci_lower, m.ci_upper, signed=True),
                _p(m.p_value if m.delta is not None else None),
                _p(m.p_adjusted if m.delta is not None else None),
                "yes" if m.significant else "no",
                "—" if m.mde is None else f"{m.mde:.4f}",
                "—" if m.noise_band is None else f"±{m.noise_band:.4f}",
            )
            for m in result.metrics
        ],
    )  # fmt: skip
    fam = result.family
    if fam:
        from assay.stats.statements import controls_text

        lines += [
            f"Family: {fam['name']}, {fam['n_tests']} tests; correction {fam['correction']} "
            f"{controls_text(fam['correction'])}; significant follows p-adj. MDE: the smallest "
            "Δ the test detects with power 0.8.",
            "",
        ]
    if result.cannot_reject:
        lines += [f"**{result.cannot_reject}.**", ""]
    if result.warnings:
        lines += ["Warnings:", ""] + [f"- {w}" for w in result.warnings] + [""]
    return "\n".join(lines).rstrip() + "\n"
