"""_report/comparison_text: the comparison as plain text, as rich drew it before."""

from __future__ import annotations

import dataclasses
import io

import pytest
from rich.console import Console

from assay._compare import compare
from assay._report.comparison_text import comparison_header, comparison_text, significance_text
from assay._report.console import comparison_table
from tests.store.services import DemoRuns

TIERS = ("headline", "core", "diagnostic")


def _rich(renderable: object) -> str:
    buf = io.StringIO()
    Console(file=buf, width=120, color_system=None, highlight=False, markup=False).print(renderable)
    return buf.getvalue().rstrip("\n")


@pytest.mark.parametrize("significance", [True, False])
def test_the_delta_table_is_the_rich_table_drawn_in_plain_text(
    demo: DemoRuns, significance: bool
) -> None:
    result = compare(demo.candidate, demo.baseline, significance=significance, n_bootstrap=100)
    pair = next(iter(result.pairs.values()))
    text = comparison_text(result, tiers=TIERS)
    lines = text.splitlines()
    assert lines[0] == comparison_header(pair)
    ordered = sorted(pair.metrics, key=lambda m: TIERS.index(m.tier))  # the rows by tier
    table = _rich(comparison_table(dataclasses.replace(pair, metrics=ordered)))
    assert "\n".join(lines[1 : 1 + len(table.splitlines())]) == table
    tests = significance_text(pair.significance, method="bootstrap", n=100, alpha=0.05)
    assert (tests.splitlines()[0] in lines) == significance
    assert lines[-1].startswith("signature: ")


def test_tiers_choose_and_order_the_rows(demo: DemoRuns) -> None:
    result = compare(demo.candidate, demo.baseline, significance=True, n_bootstrap=100)
    pair = next(iter(result.pairs.values()))
    headline = [m.name for m in pair.metrics if m.tier == "headline"]
    text = comparison_text(result, tiers=("headline",))
    rows = [ln.split("│")[1].strip() for ln in text.splitlines() if ln.startswith("│")]
    assert rows == headline
    table = text.split("Sig?")[1].split("\n\n")[0].splitlines()[2:]
    tested = [ln.split()[0] for ln in table if not ln.startswith("  smallest")]
    assert tested == [s.metric_name for s in pair.significance if s.metric_name in headline]


def test_several_pairs_are_keyed(demo: DemoRuns) -> None:
    result = compare(demo.candidate, demo.baseline, demo.reseeded, significance=False)
    text = comparison_text(result, tiers=TIERS)
    for key in result.pairs:
        assert f"\n{key}\n" in f"\n{text}"
