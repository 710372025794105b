"""Plain-text output that needs no console library: number formats and a boxed table.

For commands whose start-up is part of their budget (``assay mt sacrebleu`` beside sacrebleu's
own command line, which must not pay ~0.1 s of CPU to import rich): the table is drawn with the
box characters of the rich tables the other commands print (rich's ``HEAVY_HEAD``), each column
as wide as its widest cell (East Asian wide characters count two), never wrapped, so the same
text goes to a terminal, a pipe or a file.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from pathlib import PurePath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assay._engine.run import Run


def fmt_value(value: float | None) -> str:
    """Scores above 1 (chrF, BLEU) with 2 decimals, proportions (1.0 included) with 3; '—'
    when undefined. Where one metric's values stand together (a scorecard row with its CI, a
    comparison row), ``metric_decimals`` picks one count for all of them."""
    if value is None:
        return "—"
    return f"{value:.2f}" if abs(value) > 1 else f"{value:.3f}"


def fmt_delta(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:+.2f}" if abs(value) > 1 else f"{value:+.3f}"


def metric_decimals(*values: float | None) -> int:
    """The decimals one metric prints with wherever its values stand together: 3 when every
    defined value (its value and CI in every run shown) lies in [-1, 1] — a proportion, so
    "1.000" stands beside "0.967" — else 2 (chrF or BLEU on 0–100)."""
    finite = [v for v in values if v is not None and math.isfinite(v)]
    return 3 if all(-1.0 <= v <= 1.0 for v in finite) else 2


def fmt_fixed(value: float | None, decimals: int, *, sign: bool = False) -> str:
    """``value`` with ``decimals`` decimals (a sign with ``sign``: a Δ); '—' when undefined."""
    if value is None or not math.isfinite(value):
        return "—"
    return f"{value:+.{decimals}f}" if sign else f"{value:.{decimals}f}"


def fmt_p(p: float | None) -> str:
    """A p-value to 3 decimals, "< 0.001" below that, "—" when the test is undefined."""
    if p is None:
        return "—"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def fmt_p_eq(p: float | None) -> str:
    """A p-value after "p": "= 0.026" or "< 0.001" ("p = 0.0000" says nothing true)."""
    text = fmt_p(p)
    return text if text.startswith("<") or text == "—" else f"= {text}"


def dataset_name(gold: Sequence[str]) -> str:
    """A dataset named by its gold: the gold file's or folder's name (``gold.jsonl``,
    ``reference/``), the folder that holds several gold files (``gold/``), else the first
    file's name and how many more; "" without gold paths."""
    paths = [PurePath(g) for g in gold if g]
    if not paths:
        return ""
    if len(paths) == 1:
        return paths[0].name or str(paths[0])
    parents = {p.parent for p in paths}
    if len(parents) == 1:
        (parent,) = parents
        if parent.name:
            return f"{parent.name}/"
    return f"{paths[0].name} and {len(paths) - 1} more"


def cell_width(text: str) -> int:
    """Terminal columns of ``text``: 2 for wide and full-width characters, 0 for combining
    marks, else 1 (what rich's ``cell_len`` counts for these tables)."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _pad(text: str, width: int, right: bool) -> str:
    fill = " " * (width - cell_width(text))
    return fill + text if right else text + fill


def box_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    right: Sequence[bool] = (),
    title: str | None = None,
) -> str:
    """``rows`` under ``headers`` in a heavy-headed box; ``right[k]`` right-justifies column k
    (header included); ``title`` goes on the line above, left-justified.

        ┏━━━━━━┳━━━━━━━┓
        ┃ name ┃ value ┃
        ┡━━━━━━╇━━━━━━━┩
        │ a    │  1.00 │
        └──────┴───────┘
    """
    n = len(headers)
    if any(len(row) != n for row in rows):
        raise ValueError(f"every row needs {n} cells")
    justify = [bool(right[k]) if k < len(right) else False for k in range(n)]
    widths = [max(cell_width(c) for c in [headers[k], *(row[k] for row in rows)]) for k in range(n)]
    bars = [w + 2 for w in widths]

    def line(cells: Sequence[str], edge: str, sep: str, end: str) -> str:
        padded = (_pad(c, w, j) for c, w, j in zip(cells, widths, justify, strict=True))
        return edge + sep.join(f" {c} " for c in padded) + end

    lines = [] if title is None else [title]
    lines.append("┏" + "┳".join("━" * b for b in bars) + "┓")
    lines.append(line(headers, "┃", "┃", "┃"))
    lines.append("┡" + "╇".join("━" * b for b in bars) + "┩")
    lines.extend(line(row, "│", "│", "│") for row in rows)
    lines.append("└" + "┴".join("─" * b for b in bars) + "┘")
    return "\n".join(lines)


def sample_lines(run: Run, tiers: Sequence[str] = ("headline", "core")) -> list[str]:
    """For a run read with samples: how many per item, what pass@k counts as correct, and for
    each per-item mean metric of ``tiers`` the share of its variance between samples of one
    item ("62% of the variance of exact_match is between samples of the same item")."""
    samples = run.summaries.get("samples")
    if not isinstance(samples, dict):
        return []
    lo, hi = samples.get("min"), samples.get("max")
    per = f"{hi}" if lo == hi else f"{lo} to {hi}"
    field = samples.get("field")
    by = f"by {field!r}" if field else "repeated ids"
    head = (
        f"samples: {samples.get('samples')} of {samples.get('items')} items ({per} per item, {by})"
    )
    if samples.get("pass_score"):
        head += f"; pass@k counts a sample correct when its {samples['pass_score']} is 1"
    lines = [head]
    shares = samples.get("within_item_variance_share") or {}
    for name, share in shares.items():
        metric = run.metrics.get(name)
        if share is None or metric is None or metric.tier not in tiers:
            continue
        lines.append(
            f"  {round(100 * share)}% of the variance of {name} is between samples of the same item"
        )
    return lines


def units_line(run: Run) -> str | None:
    """What the CIs resample, when it is not plain items: ``CIs over 510 contracts (design
    effect up to 3.4)``; None for an iid run."""
    units = run.units
    if units is None:
        return None
    deffs = [
        m.design_effect
        for m in run.metrics.values()
        if m.design_effect is not None and m.tier == "headline"
    ] or [m.design_effect for m in run.metrics.values() if m.design_effect is not None]
    what = unit_plural(units.by, units.n_clusters)
    if "clusters" not in run.stats:  # the item is the unit (the claims suite's papers)
        return f"CIs over {what} (each item one {units.by})"
    if not deffs:  # no CIs (--no-ci), or no metric with a finite design effect
        return f"resampling units: {what}"
    top = max(deffs)
    return f"CIs over {what} (design effect up to {top:.1f}: CIs ≈ ×{top**0.5:.1f} wider than iid)"


def unit_plural(by: str, n: int) -> str:
    """``510 contracts``; ``137 clusters (meta.doc)`` when ``by`` is not a plain word."""
    if by.isalpha():
        return f"{n} {by}" if n == 1 or by.endswith("s") else f"{n} {by}s"
    return f"{n} clusters ({by})"


def cohort_line(run: Run) -> str:
    c = run.cohort
    parts = [
        f"attempted {c.attempted}",
        f"evaluated {c.evaluated}",
        f"missing {c.missing}",
        f"failed {c.failed}",
        f"unmatched {c.unmatched}",
    ]
    if c.duplicates:
        parts.append(f"duplicates {len(c.duplicates)}")
    if c.parse_failures:
        parts.append(f"unreadable {len(c.parse_failures)}")
    if c.abstained:
        parts.append(f"abstained {c.abstained}")
    return "cohort: " + ", ".join(parts)
