"""Chart geometry: ticks that say what they mean, histograms that count every value."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from assay._report.svg import Interval, axis_ticks, forest_plot, histogram, line_chart


def _labels(a: float, b: float) -> list[str]:
    return [t.label for t in axis_ticks(a, b, lambda v: v)]


def test_ticks_of_step_2_5_keep_their_decimal() -> None:
    assert _labels(25, 35) == ["25.0", "27.5", "30.0", "32.5", "35.0"]
    assert _labels(0, 1) == ["0.00", "0.25", "0.50", "0.75", "1.00"]
    assert _labels(-0.13, 0.13) == ["-0.1", "0.0", "0.1"]
    assert _labels(0, 100) == ["0", "25", "50", "75", "100"]


def test_forest_plot_ticks() -> None:
    plot = forest_plot("BLEU", [Interval("bleu", 30.0, 27.6, 32.4, "30.00")], lo=26.0, hi=34.0)
    assert "27.5" in [t.label for t in plot.ticks] or "28" in [t.label for t in plot.ticks]
    assert all("." not in t.label or t.label.endswith((".0", ".5")) for t in plot.ticks)


@given(st.lists(st.floats(0, 1), max_size=200))
def test_histogram_counts_every_value(values: list[float]) -> None:
    h = histogram("x", values, lo=0.0, hi=1.0)
    assert sum(b.count for b in h.bars) == len(values) == h.n
    assert h.peak == max((b.count for b in h.bars), default=0)


def test_line_chart_points_and_cis() -> None:
    chart = line_chart(
        "chrF",
        [
            ("r1", 50.0, 48.0, 52.0, "50"),
            ("r2", None, None, None, "—"),
            ("r3", 55.0, 53.0, 57.0, "55"),
        ],
    )
    assert [p.y is None for p in chart.points] == [False, True, False]
    first, _, last = chart.points
    assert (
        first.y is not None and last.y is not None and last.y < first.y
    )  # higher value, higher up
    assert first.y_lo is not None and first.y_hi is not None and first.y_hi < first.y < first.y_lo
    assert chart.path.startswith("M") and chart.path.count("L") == 1


@given(
    st.floats(-1000, 1000, allow_nan=False),
    st.floats(0, 500, allow_nan=False),
    st.booleans(),
)
@example(a=203.875, span=0.0, prop=False)  # steps took turns: 0.2 vs 0.25
def test_axes_bound_their_data_with_ticks_at_both_ends(a: float, span: float, prop: bool) -> None:
    """An axis around its values: its first and last ticks bound every value and CI (the
    history's CIs never run past the top tick), and a proportion stays within [0, 1]."""
    from assay._report.svg import nice_range

    if prop:
        a, span = abs(a) % 1, span % 1
        b = min(1.0, a + span)
    else:
        b = a + span
    lo, hi = nice_range(a, b, clamp=(0.0, 1.0) if prop else None)
    assert lo <= a + 1e-9 and hi >= b - 1e-9
    if prop:
        assert lo >= 0.0 and hi <= 1.0
    ticks = [float(t.label) for t in axis_ticks(lo, hi, lambda v: v)]
    assert (ticks and abs(ticks[0] - lo) <= 1e-6 * max(1.0, abs(lo))) or prop
    assert abs(ticks[-1] - hi) <= 1e-6 * max(1.0, abs(hi)) or prop


def test_a_ci_of_chrf_is_drawn_on_its_range_not_from_zero() -> None:
    from assay._engine.run import MetricResult

    plot = forest_plot("chrF", [Interval("chrf", 56.8, 56.19, 57.47, "56.80")])
    labels = [float(t.label) for t in plot.ticks]
    assert labels[0] >= 55.0 and labels[-1] <= 58.0  # not 0 … 57
    row = plot.rows[0]
    assert row.x_lo is not None and row.x_hi is not None
    assert row.x_hi - row.x_lo > 0.5 * (plot.plot_x1 - plot.plot_x0)  # a bar, not a dot
    assert MetricResult  # the scorecard draws MetricResults through scorecard_plots


def test_history_labels_its_runs_by_date() -> None:
    points = [(f"r{i}", 0.5 + i / 100, 0.45 + i / 100, 0.56 + i / 100, "") for i in range(20)]
    dates = [f"2026-01-{i + 1:02d}" for i in range(20)]
    chart = line_chart("x", points, clamp=(0.0, 1.0), x_labels=dates)
    assert 2 <= len(chart.x_ticks) <= 6 and chart.x_ticks[-1].label == "2026-01-20"
    top = min(t.x for t in chart.ticks)  # the top tick's y pixel
    assert all(p.y_hi is not None and p.y_hi >= top - 1e-6 for p in chart.points)
