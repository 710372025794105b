"""Console (and later HTML) output of runs and comparisons."""

from assay.report.console import (
    cohort_line,
    comparison_table,
    fmt_delta,
    fmt_value,
    print_comparison,
    print_gate,
    print_run,
    print_warnings,
    scorecard_table,
    significance_text,
)

__all__ = [
    "cohort_line",
    "comparison_table",
    "fmt_delta",
    "fmt_value",
    "print_comparison",
    "print_gate",
    "print_run",
    "print_warnings",
    "scorecard_table",
    "significance_text",
]
