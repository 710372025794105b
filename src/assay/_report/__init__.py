"""Console, HTML and plain-text output of runs and comparisons.

The names below load with their module on first use (:mod:`assay._lazy`): ``assay._report.plain``
(number formats, a boxed table) does not import rich.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay._report.console import (
        cohort_line,
        comparison_table,
        print_comparison,
        print_gate,
        print_run,
        print_warnings,
        scorecard_table,
        significance_text,
    )
    from assay._report.plain import fmt_delta, fmt_value

_MODULES = {
    "assay._report.console": (
        "cohort_line",
        "comparison_table",
        "print_comparison",
        "print_gate",
        "print_run",
        "print_warnings",
        "scorecard_table",
        "significance_text",
    ),
    "assay._report.plain": ("fmt_delta", "fmt_value"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

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
