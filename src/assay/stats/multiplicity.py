"""Adjusted p-values for a family of tests: which error rate a set of stars controls.

* Holm (the default): controls the family-wise error rate, P(any true null rejected) ≤ α, under
  any dependence between the tests. With p₍₁₎ ≤ … ≤ p₍ₘ₎,
  p̃₍ᵢ₎ = max_{j ≤ i} min(1, (m − j + 1) · p₍ⱼ₎).
* Benjamini–Hochberg (``bh``): controls the false discovery rate (expected share of false
  stars) under independence or positive dependence;
  p̃₍ᵢ₎ = min_{j ≥ i} min(1, m · p₍ⱼ₎ / j).
* ``none``: the raw p-values (each test at its own α; the family-wise rate grows with m).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

from assay.errors import UsageError

Correction = Literal["holm", "bh", "none"]
CORRECTIONS: tuple[str, ...] = ("holm", "bh", "none")
#: what each correction controls, as outputs say it
CONTROLS = {
    "holm": "family-wise error rate (Holm)",
    "bh": "false discovery rate (Benjamini-Hochberg)",
    "none": "nothing across the family (raw p-values)",
}


def check_correction(correction: str) -> Correction:
    """``correction`` if it names one, else a UsageError listing them."""
    if correction == "holm":
        return "holm"
    if correction == "bh":
        return "bh"
    if correction == "none":
        return "none"
    raise UsageError(f"correction must be one of {', '.join(CORRECTIONS)}, not {correction!r}")


def adjust_p_values(p_values: Sequence[float], correction: str = "holm") -> list[float]:
    """The family's adjusted p-values, in the order given (see the module docstring)."""
    method = check_correction(correction)
    p = np.asarray(p_values, dtype=np.float64)
    if p.size and (np.isnan(p).any() or (p < 0).any() or (p > 1).any()):
        raise UsageError(f"p-values must lie in [0, 1], got {p.tolist()}")
    if method == "none" or p.size == 0:
        return [float(v) for v in p]
    m = p.size
    order = np.argsort(p, kind="stable")
    ranked = p[order]
    if method == "holm":
        steps = np.minimum(1.0, (m - np.arange(m)) * ranked)
        adjusted = np.maximum.accumulate(steps)
    else:
        steps = np.minimum(1.0, m * ranked / np.arange(1, m + 1))
        adjusted = np.minimum.accumulate(steps[::-1])[::-1]
    out = np.empty(m, dtype=np.float64)
    out[order] = adjusted
    return [float(v) for v in out]
