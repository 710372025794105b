"""The ContractEval rubric (arXiv 2508.03080), reproduced from the benchmark's public scoring
code (``open_source_model.py`` and ``Evaluation.py``), quirks included.

One row is one (contract, category) pair with its gold spans (empty = the category is absent)
and the model's answer. Quirks reproduced on purpose:

- only spaces, newlines and backticks are stripped (``str.strip(" \\n`")``), at both ends of each
  gold span and of the output; tabs and carriage returns are kept;
- containment is case-sensitive and verbatim (no whitespace collapsing);
- "no related clause" is a case-insensitive *substring* test, so "There is no related clause
  here" and "No related clauses." both count;
- a positive pair whose output holds every span is TP even when it also says "no related
  clause" (and it then also counts as a false "no related clause");
- Jaccard joins the gold spans with one space and does not strip them, deletes ``. , ; :``,
  lowercases, maps ``/`` to a space and splits on single spaces, so runs of spaces yield an
  empty token and newlines do not separate tokens.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from assay.metrics.kinds import FloatArray, register_kind

Outcome = Literal["tp", "fn", "tn", "fp"]
#: the characters the benchmark strips from both ends of spans and outputs
STRIP_CHARS = " \n`"
NO_RELATED = "no related clause"
#: the canonical refusal the benchmark's prompt asks for
NO_RELATED_ANSWER = "No related clause."
#: positives in the paper's test split: the fixed denominator of its false "no related" rate
PAPER_POSITIVES = 1244
_JACCARD_DELETE = str.maketrans("", "", ".,;:")


def strip_answer(text: str) -> str:
    """``text.strip(" \\n`")``: the benchmark's only normalization of spans and outputs."""
    return text.strip(STRIP_CHARS)


def said_no_related(output: Any) -> bool:
    """True when a string output contains "no related clause" (case-insensitive substring)."""
    return isinstance(output, str) and NO_RELATED in strip_answer(output).lower()


def contracteval_classified(gold_spans: Sequence[str], output: Any) -> bool:
    """True when every gold span, stripped, occurs verbatim (case-sensitive) in the stripped
    output; a missing output holds nothing."""
    if not isinstance(output, str):
        return False
    answer = strip_answer(output)
    return all(strip_answer(span) in answer for span in gold_spans)


def contracteval_outcome(gold_spans: Sequence[str], output: Any) -> Outcome:
    """TP / FN for a present category (every span contained or not); TN / FP for an absent
    one ("no related clause" said or not; a missing output is FP)."""
    if gold_spans:
        return "tp" if contracteval_classified(gold_spans, output) else "fn"
    return "tn" if said_no_related(output) else "fp"


def jaccard_tokens(text: str) -> set[str]:
    """The benchmark's tokens: delete ``. , ; :``, lowercase, ``/`` → space, split on " "."""
    return set(text.translate(_JACCARD_DELETE).lower().replace("/", " ").split(" "))


def get_jaccard(gold: str, predicted: str) -> float:
    """|G ∩ P| / |G ∪ P| over :func:`jaccard_tokens` (never 0/0: a split yields ≥ 1 token)."""
    g, p = jaccard_tokens(gold), jaccard_tokens(predicted)
    return len(g & p) / len(g | p)


def pair_jaccard(gold_spans: Sequence[str], output: Any) -> float | None:
    """Jaccard of a positive pair: spans joined by one space vs the stripped output; None for
    an absent category; 0.0 for a missing output (the paper's script has no such row)."""
    if not gold_spans:
        return None
    if not isinstance(output, str):
        return 0.0
    return get_jaccard(" ".join(gold_spans), strip_answer(output))


def _flags_sample(rng: np.random.Generator, n: int) -> FloatArray:
    """n items' 0/1 flags (a false "no related clause" answer or not)."""
    return (rng.random((n, 1)) < 0.3).astype(np.float64)


@register_kind("fixed_denominator", lower=0.0, upper=math.inf, sample=_flags_sample)
def fixed_denominator_kind(sums: FloatArray, /, denominator: float = 1.0) -> FloatArray:
    """Σv / D with a fixed D (the paper's 1,244 positives), whatever the resample."""
    return np.asarray(sums[..., 0], dtype=np.float64) / float(denominator)
