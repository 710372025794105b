"""Geometry for the inline SVG charts (forest plots of CIs and of Δ): numbers only, the
templates draw them, so every label passes through autoescaping."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

WIDTH = 720
LABEL_W = 230
RIGHT_PAD = 24
ROW_H = 22
TOP = 8
AXIS_H = 26


@dataclass(frozen=True)
class ForestRow:
    """One metric: its label, the point and CI as x pixels (None when undefined)."""

    label: str
    y: float
    x: float | None
    x_lo: float | None
    x_hi: float | None
    text: str
    marker: str = ""
    headline: bool = False


@dataclass(frozen=True)
class Tick:
    x: float
    label: str


@dataclass(frozen=True)
class ForestPlot:
    """A forest plot: rows, axis ticks, an optional reference line (Δ = 0) and its size."""

    title: str
    rows: tuple[ForestRow, ...]
    ticks: tuple[Tick, ...]
    width: int
    height: int
    plot_x0: float
    plot_x1: float
    axis_y: float
    zero_x: float | None


@dataclass(frozen=True)
class Interval:
    """What a forest row shows: a point and a CI on one scale."""

    label: str
    value: float | None
    lower: float | None
    upper: float | None
    text: str
    marker: str = ""
    headline: bool = False


def _nice_step(span: float) -> float:
    raw = span / 4
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    for m in (1, 2, 2.5, 5, 10):
        if m * mag >= raw * (1 - 1e-9):  # float noise in a span is no reason for a coarser step
            return m * mag
    return 10 * mag


def _fmt_tick(v: float, step: float) -> str:
    """As many decimals as the step needs, exactly: a step of 2.5 prints 27.5, never "28"."""
    decimals = 0
    while decimals < 12 and abs(round(step, decimals) - step) > abs(step) * 1e-9:
        decimals += 1
    return f"{v:.{decimals}f}"


def nice_range(
    a: float, b: float, *, pad: float = 0.08, clamp: tuple[float, float] | None = None
) -> tuple[float, float]:
    """An axis around the data [a, b]: padded by ``pad`` of the span on each side, widened
    to whole multiples of its tick step (so the first and last ticks bound every value and
    CI), within ``clamp`` (a proportion's [0, 1]) when given. A CI of chrF [56.19, 57.47] gets
    an axis of about [56.0, 57.6], not [0, 57]."""
    if b < a:
        a, b = b, a
    span = b - a
    if span < 1e-12:
        span = max(abs(a) * 0.02, 0.01)
    a, b = a - pad * span, b + pad * span
    if clamp is not None:
        a, b = max(a, clamp[0]), min(b, clamp[1])
    lo, hi = a, b
    for _ in range(4):  # the rounded span may ask for a coarser step: round again with it
        step = _nice_step(b - a)
        a = math.floor(lo / step + 1e-9) * step
        b = math.ceil(hi / step - 1e-9) * step
        if clamp is not None:
            a, b = max(a, clamp[0]), min(b, clamp[1])
        if _nice_step(b - a) == step:
            break
    else:  # the steps took turns: settle on the coarser one and widen the axis by whole
        # steps until the tick step of its span is that step (so the ticks start at ``a``)
        step = max(step, _nice_step(b - a))
        for _ in range(8):
            a = math.floor(lo / step + 1e-9) * step
            b = math.ceil(hi / step - 1e-9) * step
            if clamp is not None:
                a, b = max(a, clamp[0]), min(b, clamp[1])
            while _nice_step(b - a) < step:
                if clamp is None or b + step <= clamp[1] + 1e-12:
                    b += step
                elif a - step >= clamp[0] - 1e-12:
                    a -= step
                else:
                    break
            if _nice_step(b - a) == step:
                break
            step = _nice_step(b - a)
    return a, b


def axis_ticks(a: float, b: float, px: Callable[[float], float | None]) -> tuple[Tick, ...]:
    """Nice ticks from a to b: each the k-th multiple of the step (no accumulated drift)."""
    step = _nice_step(b - a)
    ticks = []
    k = math.ceil(a / step - 1e-9)
    while k * step <= b + step * 1e-9:
        t = k * step
        x = px(t)
        if x is not None:
            ticks.append(Tick(x, _fmt_tick(0.0 if abs(t) < step * 1e-9 else t, step)))
        k += 1
    return tuple(ticks)


def forest_plot(
    title: str,
    intervals: Sequence[Interval],
    *,
    lo: float | None = None,
    hi: float | None = None,
    zero_line: bool = False,
    clamp: tuple[float, float] | None = None,
) -> ForestPlot:
    """Lay out ``intervals`` on one axis from ``lo`` to ``hi`` (default: the data's range,
    padded to whole ticks and kept within ``clamp``)."""
    finite = [
        v
        for iv in intervals
        for v in (iv.value, iv.lower, iv.upper)
        if v is not None and math.isfinite(v)
    ]
    a = min(finite) if finite else 0.0
    b = max(finite) if finite else 1.0
    if zero_line:
        m = max(abs(a), abs(b), 1e-9) * 1.1
        a, b = -m, m
    a = a if lo is None else min(lo, a)
    b = b if hi is None else max(hi, b)
    if b - a < 1e-12:
        a, b = a - 0.5, b + 0.5
    if lo is None or hi is None:  # the data's own range, padded to whole ticks
        a2, b2 = nice_range(a, b, pad=0.0 if zero_line else 0.08, clamp=clamp)
        a, b = (a if lo is not None else a2), (b if hi is not None else b2)
    x0, x1 = float(LABEL_W), float(WIDTH - RIGHT_PAD - 110)

    def px(v: float | None) -> float | None:
        if v is None or not math.isfinite(v):
            return None
        return round(x0 + (v - a) / (b - a) * (x1 - x0), 2)

    rows = tuple(
        ForestRow(
            label=iv.label,
            y=TOP + i * ROW_H + ROW_H / 2,
            x=px(iv.value),
            x_lo=px(iv.lower),
            x_hi=px(iv.upper),
            text=iv.text,
            marker=iv.marker,
            headline=iv.headline,
        )
        for i, iv in enumerate(intervals)
    )
    ticks = axis_ticks(a, b, px)
    axis_y = TOP + len(rows) * ROW_H + 4
    return ForestPlot(
        title=title,
        rows=rows,
        ticks=ticks,
        width=WIDTH,
        height=int(axis_y + AXIS_H),
        plot_x0=x0,
        plot_x1=x1,
        axis_y=axis_y,
        zero_x=px(0.0) if zero_line or a < 0 < b else None,
    )


HIST_W = 340
HIST_H = 150
HIST_PAD_L = 40
HIST_PAD_B = 24
N_BINS = 10


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    count: int
    label: str  # the bin's range, for the tooltip


@dataclass(frozen=True)
class Histogram:
    """The distribution of one per-item score: bars over equal bins, an x axis with ticks."""

    title: str
    bars: tuple[Bar, ...]
    ticks: tuple[Tick, ...]
    width: int
    height: int
    axis_y: float
    n: int
    peak: int


def histogram(title: str, values: Sequence[float], *, lo: float, hi: float) -> Histogram:
    """N_BINS equal bins from lo to hi (the last one closed); values outside are clamped."""
    span = hi - lo if hi > lo else 1.0
    counts = [0] * N_BINS
    for v in values:
        k = int((v - lo) / span * N_BINS)
        counts[min(max(k, 0), N_BINS - 1)] += 1
    peak = max(counts) if counts else 0
    x0, x1 = float(HIST_PAD_L), float(HIST_W - 10)
    top, axis_y = 8.0, float(HIST_H - HIST_PAD_B)
    bw = (x1 - x0) / N_BINS

    def px(v: float) -> float | None:
        return round(x0 + (v - lo) / span * (x1 - x0), 2) if lo - 1e-9 <= v <= hi + 1e-9 else None

    bars = []
    for k, c in enumerate(counts):
        h = (axis_y - top) * c / peak if peak else 0.0
        a, b = lo + k * span / N_BINS, lo + (k + 1) * span / N_BINS
        bars.append(
            Bar(
                round(x0 + k * bw + 1, 2), round(axis_y - h, 2), round(bw - 2, 2), round(h, 2),
                c, f"{a:g}–{b:g}: {c}",
            )
        )  # fmt: skip
    return Histogram(
        title, tuple(bars), axis_ticks(lo, hi, px), HIST_W, HIST_H, axis_y, len(values), peak
    )


LINE_W = 720
LINE_H = 240
#: dated labels under a line chart's x axis, at most
MAX_X_LABELS = 6


@dataclass(frozen=True)
class LinePoint:
    x: float
    y: float | None
    y_lo: float | None
    y_hi: float | None
    label: str
    text: str


@dataclass(frozen=True)
class LineChart:
    """A metric over runs in time order: the line through the values, each with its CI."""

    title: str
    points: tuple[LinePoint, ...]
    path: str
    ticks: tuple[Tick, ...]  # on the y axis: Tick.x holds the y pixel
    width: int
    height: int
    plot_x0: float
    plot_x1: float
    plot_y0: float
    plot_y1: float
    #: every point's CI whisker (the bar and its two caps) as one path: 1,000 runs are one
    #: element instead of 3,000 lines
    ci_path: str = ""
    #: labels under the x axis (a run's date), at most MAX_X_LABELS of them: Tick.x the x pixel
    x_ticks: tuple[Tick, ...] = ()


def line_chart(
    title: str,
    points: Sequence[tuple[str, float | None, float | None, float | None, str]],
    *,
    lo: float | None = None,
    hi: float | None = None,
    clamp: tuple[float, float] | None = None,
    x_labels: Sequence[str] = (),
) -> LineChart:
    """(label, value, ci_lower, ci_upper, text) per run, oldest first, on one y axis: the
    values' and CIs' range padded to whole ticks (within ``clamp``), unless ``lo``/``hi``
    say otherwise; ``x_labels`` (one per point: its date) are drawn under the axis, evenly
    thinned to at most ``MAX_X_LABELS``."""
    finite = [v for p in points for v in p[1:4] if v is not None and math.isfinite(v)]
    a = min(finite) if finite else 0.0
    b = max(finite) if finite else 1.0
    a = a if lo is None else min(lo, a)
    b = b if hi is None else max(hi, b)
    if b - a < 1e-12:
        a, b = a - 0.5, b + 0.5
    if lo is None or hi is None:
        a2, b2 = nice_range(a, b, clamp=clamp)
        a, b = (a if lo is not None else a2), (b if hi is not None else b2)
    x0, x1, y0, y1 = 60.0, float(LINE_W - 30), 10.0, float(LINE_H - 44)

    def py(v: float | None) -> float | None:
        if v is None or not math.isfinite(v):
            return None
        return round(y1 - (v - a) / (b - a) * (y1 - y0), 2)

    n = len(points)
    out = []
    for i, (label, v, vlo, vhi, text) in enumerate(points):
        x = round(x0 + (x1 - x0) * (i / (n - 1) if n > 1 else 0.5), 2)
        out.append(LinePoint(x, py(v), py(vlo), py(vhi), label, text))
    path = " ".join(
        f"{'M' if k == 0 else 'L'}{p.x},{p.y}"
        for k, p in enumerate(p for p in out if p.y is not None)
    )
    ci_path = " ".join(
        f"M{p.x},{p.y_lo}V{p.y_hi}M{round(p.x - 4, 2)},{p.y_lo}H{round(p.x + 4, 2)}"
        f"M{round(p.x - 4, 2)},{p.y_hi}H{round(p.x + 4, 2)}"
        for p in out
        if p.y_lo is not None and p.y_hi is not None
    )
    x_ticks: list[Tick] = []
    if x_labels and len(x_labels) == n:
        every = max(1, math.ceil(n / MAX_X_LABELS))
        picks = list(range(0, n, every))
        if picks[-1] != n - 1:
            picks[-1] = n - 1  # the newest run is always labelled
        x_ticks = [Tick(out[i].x, x_labels[i]) for i in picks]
    return LineChart(
        title, tuple(out), path, axis_ticks(a, b, py), LINE_W, LINE_H, x0, x1, y0, y1, ci_path,
        tuple(x_ticks),
    )  # fmt: skip
