"""Chart geometry: ticks that say what they mean, histograms that count every value."""

from __future__ import annotations

from hypothesis import given
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
