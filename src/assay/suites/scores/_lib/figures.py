"""The tool's own figures set beside assay's, as the lines ``assay score scores`` prints::

Inspect match_like accuracy 0.556 ± stderr 0.147 (n 6) · assay 0.556 [0.333, 0.778] (n 6)
  CI half-width 0.222 = 0.79 × 1.96·stderr (√((n−1)/n) = 0.91: bootstrap vs stderr)
"""

from __future__ import annotations

import math
from typing import Any

from assay._io.bridges import source_label

__all__ = ["figure_lines"]


def _f(value: Any) -> str:
    return "—" if not isinstance(value, int | float) else f"{value:.4g}"


def figure_lines(run: Any) -> list[str]:
    """Lines for a scores run (a ``Run``): each figure the tool reported beside assay's."""
    summaries = getattr(run, "summaries", {}) or {}
    source = summaries.get("source") or {}
    tool = source_label(str(source.get("tool", "")))
    lines = []
    if source:
        version = f" {source['tool_version']}" if source.get("tool_version") else ""
        lines.append(f"read: {source.get('format')} ({tool}{version}), {source.get('system')}")
    for entry in summaries.get("own") or []:
        metric = run.metrics.get(entry["score"])
        own = f"{tool} {entry['score']} {entry['name']} {_f(entry['value'])}"
        if entry.get("stderr") is not None:
            own += f" ± stderr {_f(entry['stderr'])}"
        if entry.get("n") is not None:
            own += f" (n {entry['n']})"
        ours = f"assay {_f(entry.get('assay_mean'))}"
        if metric is not None and metric.ci_lower is not None and metric.ci_upper is not None:
            ours += f" [{_f(metric.ci_lower)}, {_f(metric.ci_upper)}]"
        ours += f" (n {entry.get('assay_n')})"
        lines.append(f"{own} · {ours}")
        stderr, n = entry.get("stderr"), entry.get("assay_n") or 0
        if (
            metric is not None
            and metric.ci_lower is not None
            and metric.ci_upper is not None
            and isinstance(stderr, int | float)
            and stderr > 0
            and n > 1
        ):
            half = (metric.ci_upper - metric.ci_lower) / 2
            lines.append(
                f"  CI half-width {_f(half)} = {half / (1.96 * stderr):.2f} × 1.96·stderr "
                f"(√((n−1)/n) = {math.sqrt((n - 1) / n):.2f}: the bootstrap's variance divides "
                "by n, the stderr's by n−1)"
            )
        for note in entry.get("notes") or []:
            if not note.startswith("assay's CI"):
                lines.append(f"  {note}")
    return lines
