"""Console output: the scorecard, cohort line, comparison and seed 001's significance table.

Every string a user or an input file supplied (run names, ids, metric names such as
``accuracy[contract]``, labels, reasons) reaches rich as a ``Text`` or with ``markup=False``,
and styling is a ``Text`` style, never ``[red]`` tags: rich never reads user text as markup, so
``--name 'run[/bold]x'`` prints as typed, whatever the console's own markup setting (the CLI's
consoles, ``assay._cli.state.out`` and ``err``, have markup off as well). Never ``escape()``:
an escaped string shows its backslashes on a console with markup off.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from assay._compare.comparison import Comparison, PairComparison
from assay._compare.gate import GateResult
from assay._engine.run import Run
from assay._engine.signature import signature_lines
from assay._report.comparison_text import comparison_header as comparison_header
from assay._report.comparison_text import comparison_rows, comparison_text
from assay._report.comparison_text import significance_text as significance_text
from assay._report.plain import cohort_line as cohort_line
from assay._report.plain import fmt_delta as fmt_delta  # re-exported: they live in _report/plain
from assay._report.plain import fmt_fixed, metric_decimals, sample_lines, units_line
from assay._report.plain import fmt_p as fmt_p
from assay._report.plain import fmt_value as fmt_value


def scorecard_table(
    run: Run, *, tiers: Sequence[str] = ("headline", "core", "diagnostic")
) -> Table:
    """Metric | value | 95% CI | n, headline metrics first."""
    level = round(100 * (1 - run.provenance.alpha))
    table = Table(title=Text(f"{run.name} · {run.task} · run {run.run_id}"), title_justify="left")
    table.add_column("metric")
    table.add_column("value", justify="right")
    table.add_column(f"{level}% CI", justify="right")
    table.add_column("n", justify="right")
    order = {t: i for i, t in enumerate(tiers)}
    rows = sorted(
        (m for m in run.metrics.values() if m.tier in order),
        key=lambda m: order[m.tier],
    )
    for m in rows:
        ci = (
            f"[{m.ci_lower:.4f}, {m.ci_upper:.4f}]"
            if m.ci_lower is not None and m.ci_upper is not None
            else "—"
        )
        value = "—" if m.value is None else f"{m.value:.4f}"
        name = Text(m.name, style="bold" if m.tier == "headline" else "")
        table.add_row(name, value, ci, str(m.n))
    return table


def print_run(console: Console, run: Run, *, show_all: bool = False) -> None:
    tiers = ("headline", "core", "diagnostic") if show_all else ("headline", "core")
    console.print(scorecard_table(run, tiers=tiers))
    console.print(cohort_line(run), markup=False)
    units = units_line(run)
    if units is not None:
        console.print(units, markup=False, highlight=False)
    for line in sample_lines(run, tiers):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    hidden = sum(1 for m in run.metrics.values() if m.tier not in tiers)
    if hidden:
        console.print(f"({hidden} diagnostic metrics in the artifact; --all shows them)")
    for issue in run.cohort.failures[:5] + run.cohort.parse_failures[:5]:
        console.print(f"  failed: {issue.where}: {issue.reason}", markup=False)
    for line in signature_lines(run):
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def print_warnings(console: Console, warnings: Sequence[str]) -> None:
    for w in warnings:
        console.print(f"warning: {w}", style="yellow", markup=False)


def comparison_table(pair: PairComparison) -> Table:
    """The Δ table of ``comparison_rows`` as a rich table; its header is
    ``comparison_header``."""
    headers, rows = comparison_rows(pair)
    table = Table()
    for k, name in enumerate(headers):
        table.add_column(name, justify="right" if k else "left")
    for row in rows:
        table.add_row(Text(row[0]), *row[1:])
    return table


def print_comparison(console: Console, comparison: Comparison, *, tiers: Sequence[str]) -> None:
    """``comparison_text`` (_report/comparison_text.py, what the CLI prints) on ``console``."""
    console.print(
        comparison_text(comparison, tiers=tiers), markup=False, highlight=False, soft_wrap=True
    )


def gate_family_lines(result: GateResult) -> list[str]:
    """The gate's family (what its regression verdicts control) and each Δ's smallest
    detectable size."""
    from assay.stats.statements import controls_text

    fam = result.family
    if not fam:
        return []
    lines = [
        f"family: {fam['name']}, {fam['n_tests']} tests ({result.test}); correction "
        f"{fam['correction']} {controls_text(fam['correction'])}: a regression needs p-adj "
        f"< {result.alpha:g}"
    ]
    mdes = [f"{b.name} {b.mde:.3g}" for b in result.baseline_checks if b.mde is not None]
    if mdes:
        lines.append("smallest detectable Δ (power 0.8): " + ", ".join(mdes))
    return lines


def print_gate(console: Console, result: GateResult) -> None:
    """Each check on one line; the baseline checks as a table with Δ = candidate − baseline."""
    for c in result.checks:
        mark = "PASS" if c.passed else "FAIL"
        value = "null" if c.value is None else f"{c.value:.4f}"
        style = "green" if c.passed else "red"
        console.print(Text.assemble((mark, style), f" {c.name} = {value} ({c.reason})"))
    if result.baseline is not None:
        level = round(100 * (1 - result.alpha))
        table = Table(
            title=Text(
                f"against baseline {result.baseline} on {result.n_shared} shared items · "
                "Δ = candidate − baseline"
            ),
            title_justify="left",
        )
        adjusted = any(b.p_adjusted is not None for b in result.baseline_checks)
        cols = ["metric", "candidate", "baseline", "Δ", f"{level}% CI of Δ", "p"]
        cols += ["p-adj", "verdict"] if adjusted else ["verdict"]
        for col in cols:
            table.add_column(col, justify="left" if col in ("metric", "verdict") else "right")
        for b in result.baseline_checks:
            d = metric_decimals(b.candidate, b.baseline)
            ci = (
                f"[{fmt_fixed(b.ci_lower, d, sign=True)}, {fmt_fixed(b.ci_upper, d, sign=True)}]"
                if b.ci_lower is not None and b.ci_upper is not None
                else "—"
            )
            style = "green" if b.passed else "red"
            name = Text(b.name + ("" if b.higher_is_better else " ↓"))
            table.add_row(
                name,
                fmt_fixed(b.candidate, d),
                fmt_fixed(b.baseline, d),
                fmt_fixed(b.delta, d, sign=True),
                ci,
                fmt_p(b.p_value),
                *([fmt_p(b.p_adjusted)] if adjusted else []),
                Text(b.verdict, style=style),
            )
        console.print(table)
        for line in gate_family_lines(result):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    if result.all_null:
        console.print(
            Text.assemble(("FAIL", "red"), " every selected metric is null: nothing was scored")
        )
    f = result.failed_share
    if f is not None:
        mark, style = ("PASS", "green") if f.passed else ("FAIL", "red")
        base = "" if f.baseline_share is None else f", baseline {f.baseline_share:.1%}"
        console.print(
            Text.assemble(
                (mark, style),
                f" failed+missing {f.candidate_share:.1%}{base} (allowed {f.limit:.1%}: {f.rule})",
            )
        )
