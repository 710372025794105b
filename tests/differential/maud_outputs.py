"""Synthetic MAUD questions with class scores, for a differential test against MAUD's own AUPR.

numpy only, so the same module makes the same questions in assay's environment and in a
scratch environment that runs MAUD's ``pr_curves.py`` (``regen_maud``). 40 questions, drawn by
``numpy.random.default_rng(34)``: 2–5 classes (every class present), 20–149 rows, logits normal
plus 1.5 × a uniform [0, 2) boost on the gold class, rounded to one decimal so ties occur.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

N_QUESTIONS = 40
SEED = 34


@dataclass(frozen=True)
class Question:
    """One question: gold class indices and the (n, k) logits."""

    number: int
    labels: NDArray[np.int64]
    logits: NDArray[np.float64]

    @property
    def k(self) -> int:
        return int(self.logits.shape[1])


def questions() -> list[Question]:
    rng = np.random.default_rng(SEED)
    out = []
    for q in range(N_QUESTIONS):
        k = int(rng.integers(2, 6))
        n = int(rng.integers(20, 150))
        y = rng.integers(0, k, n)
        for i in range(k):
            y[i] = i  # every class present
        logits = rng.normal(size=(n, k)) + 1.5 * np.eye(k)[y] * rng.uniform(0, 2)
        out.append(Question(q, y, np.round(logits, 1)))
    return out
