"""A comparison as plain text: the Δ table, seed 001's significance table and the signature.

What ``assay compare`` / ``assay mt compare`` print, built without a console library (their
start-up is part of their budget: rich costs ~0.07 s of CPU to import). The Δ table is drawn by
`assay._report.plain.box_table` with the box of the rich tables the other commands print, the
text is the same on a terminal, in a pipe or in a file, and nothing is wrapped.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from assay._report.plain import box_table, fmt_fixed, fmt_p, metric_decimals

if TYPE_CHECKING:
    from assay._compare.comparison import Comparison, PairComparison
    from assay.stats.significance import SignificanceResult


def significance_text(
    results: Sequence[SignificanceResult], *, method: str, n: int, alpha: float
) -> str:
    """Seed 001 §6's console table, column for column: the candidate's score (the seed's A),
    the baseline's (B), Δ = candidate − baseline, the p-value and whether it is significant;
    within an adjusted family, the adjusted p-value (``p-adj``, which the verdict and stars
    follow) after the raw one. The title names the test that decided (``method``/``n`` as
    asked when no result says)."""
    from assay.stats.statements import decided_by, test_title

    title = "paired bootstrap" if method == "bootstrap" else "approximate randomization"
    if results:
        first = results[0]
        title, n = test_title(first.method), first.n_bootstrap
        if first.method == "exact_sign_flip":  # few units: every swap enumerated
            of = "items" if first.unit == "item" else f"{first.unit} clusters"
            title = f"exact sign-flip over all swaps of {of}"
        if len({r.method for r in results}) > 1:
            title = decided_by(results)
    adjusted = any(r.p_adjusted is not None for r in results)
    padj_head = f" {'p-adj':<8}" if adjusted else ""
    padj_rule = f" {'─' * 8}" if adjusted else ""
    lines = [
        f"  Significance Tests ({title}, n={n}, α={alpha:g}):",
        "",
        f"  {'Metric':<19} {'candidate':<9} {'baseline':<9} {'Δ':<7} {'p-value':<8}"
        f"{padj_head} Sig?",
        f"  {'─' * 19} {'─' * 9} {'─' * 9} {'─' * 7} {'─' * 8}{padj_rule} {'─' * 4}",
    ]
    for r in results:
        sig = f"Yes {r.stars}".rstrip() if r.significant else "No"
        if r.delta is None:
            sig = "undefined"
        d = metric_decimals(r.system_a_score, r.system_b_score)
        padj = ""
        if adjusted:
            padj = f" {fmt_p(r.p_adjusted if r.delta is not None else None):<8}"
        lines.append(
            f"  {r.metric_name:<19} {fmt_fixed(r.system_a_score, d):<9} "
            f"{fmt_fixed(r.system_b_score, d):<9} {fmt_fixed(r.delta, d, sign=True):<7} "
            f"{fmt_p(r.p_value if r.delta is not None else None):<8}{padj} {sig}"
        )
    return "\n".join(lines)


def evidence_lines(results: Sequence[SignificanceResult]) -> list[str]:
    """What the tests could detect: each Δ's minimum detectable effect, and that this sample
    can never reject when the smallest attainable p is at least α."""
    from assay.stats.statements import cannot_reject_line, mde_line

    return [
        f"  {line}" for line in (mde_line(results), cannot_reject_line(results)) if line is not None
    ]


def comparison_header(pair: PairComparison) -> str:
    """Who is the candidate and who the baseline, and the one Δ convention."""
    return (
        f"candidate = {pair.name_a} ({pair.run_a})   baseline = {pair.name_b} ({pair.run_b})   "
        "Δ = candidate − baseline"
    )


def comparison_rows(pair: PairComparison) -> tuple[list[str], list[list[str]]]:
    """(headers, rows) of the Δ table: metric (↓ when lower is better) | candidate | baseline |
    Δ [| 95% CI of Δ with stars], each metric in its own number of decimals; every column but
    the first is right-justified."""
    headers = ["metric", "candidate", "baseline", "Δ"]
    sig = {s.metric_name: s for s in pair.significance}
    if sig:
        headers.append("95% CI of Δ")
    rows = []
    for m in pair.metrics:
        d = metric_decimals(m.a, m.b)
        name = m.name + ("" if m.higher_is_better else " ↓")
        row = [name, fmt_fixed(m.a, d), fmt_fixed(m.b, d), fmt_fixed(m.delta, d, sign=True)]
        if sig:
            s = sig.get(m.name)
            if s is None:
                row.append("not tested")
            elif s.delta is None:
                row.append("undefined")
            else:
                lo, hi = fmt_fixed(s.ci_lower, d, sign=True), fmt_fixed(s.ci_upper, d, sign=True)
                ci = "—" if s.ci_lower is None or s.ci_upper is None else f"[{lo}, {hi}]"
                row.append(f"{ci} {s.stars}".rstrip())
        rows.append(row)
    return headers, rows


def comparison_text(comparison: Comparison, *, tiers: Sequence[str]) -> str:
    """Every pair (its key first when there are several): the header line, the Δ table of the
    metrics in ``tiers`` (in that order), the significance table; then the signature line."""
    order = {t: i for i, t in enumerate(tiers)}
    parts: list[str] = []
    for key, pair in comparison.pairs.items():
        kept = sorted((m for m in pair.metrics if m.tier in order), key=lambda m: order[m.tier])
        headers, rows = comparison_rows(dataclasses.replace(pair, metrics=kept))
        if len(comparison.pairs) > 1:
            parts.append(key)
        parts.append(comparison_header(pair))
        parts.append(box_table(headers, rows, right=[False] + [True] * (len(headers) - 1)))
        if pair.significance and comparison.method:
            tier = {m.name: m.tier for m in pair.metrics}
            shown = sorted(
                (s for s in pair.significance if tier.get(s.metric_name, "core") in order),
                key=lambda s: order[tier.get(s.metric_name, "core")],
            )
            method, n = comparison.method, comparison.n_resamples or 0
            parts.append(significance_text(shown, method=method, n=n, alpha=comparison.alpha))
            parts.extend(evidence_lines(shown))
            parts.append("")
    tests = comparison.tests
    if tests and comparison.method:
        from assay.stats.statements import family_line

        n_tests = sum(1 for r in tests if r.delta is not None)
        line = family_line(
            comparison.family, comparison.correction, n_tests, n_pairs=len(comparison.pairs)
        )
        parts.append(line)
    # (loaded already: ``comparison`` is one of its objects; a scoring run's report needs
    # neither it nor the paired tests it imports)
    from assay._compare.comparison import comparison_signature

    parts.append(f"signature: {comparison_signature(comparison)}")
    return "\n".join(parts)
