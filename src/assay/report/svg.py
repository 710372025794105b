"""Geometry for the inline SVG charts (forest plots of CIs and of Δ): numbers only, the
templates draw them, so every label passes through autoescaping."""

from __future__ import annotations

import math
from collections.abc import Sequence
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
        if m * mag >= raw:
            return m * mag
    return 10 * mag


def _fmt_tick(v: float, step: float) -> str:
    decimals = max(0, -math.floor(math.log10(step))) if step < 1 else 0
    if step < 1 and round(step * 10**decimals) % 10 != 0 and step * 10**decimals % 1:
        decimals += 1
    return f"{v:.{decimals}f}"


def forest_plot(
    title: str,
    intervals: Sequence[Interval],
    *,
    lo: float | None = None,
    hi: float | None = None,
    zero_line: bool = False,
) -> ForestPlot:
    """Lay out ``intervals`` on one axis from ``lo`` to ``hi`` (default: the data's range)."""
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
    step = _nice_step(b - a)
    ticks = []
    t = math.ceil(a / step) * step
    while t <= b + step * 1e-9:
        x = px(t)
        if x is not None:
            ticks.append(Tick(x, _fmt_tick(0.0 if abs(t) < step * 1e-9 else t, step)))
        t += step
    axis_y = TOP + len(rows) * ROW_H + 4
    return ForestPlot(
        title=title,
        rows=rows,
        ticks=tuple(ticks),
        width=WIDTH,
        height=int(axis_y + AXIS_H),
        plot_x0=x0,
        plot_x1=x1,
        axis_y=axis_y,
        zero_x=px(0.0) if zero_line or a < 0 < b else None,
    )
