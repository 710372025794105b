"""A family of paired tests, adjusted together: the stars then control a stated error rate.

A comparison tests a *family* (its headline metrics by default, every metric and per-class row
with ``--family all``); `adjust_family` fills each result's ``p_adjusted`` by the correction
(:mod:`assay.stats.multiplicity`) over the results whose Δ is defined, and ``significant`` and
the winner then follow the adjusted value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from assay.stats.multiplicity import adjust_p_values, check_correction
from assay.stats.result import SignificanceResult, winner

HEADLINE = "headline"
ALL = "all"
FAMILIES: tuple[str, ...] = (HEADLINE, ALL)


def adjust_family(
    results: Sequence[SignificanceResult], *, correction: str = "holm", family: str = HEADLINE
) -> list[SignificanceResult]:
    """``results`` with ``p_adjusted``, ``correction`` and ``family`` set, and the verdict
    (significant, winner) taken at the adjusted p. An undefined Δ stays p̃ = 1, outside m."""
    method = check_correction(correction)
    tested = [k for k, r in enumerate(results) if r.delta is not None]
    adjusted = adjust_p_values([results[k].p_value for k in tested], method)
    by_position = dict(zip(tested, adjusted, strict=True))
    out = []
    for k, r in enumerate(results):
        p = by_position.get(k, 1.0)
        significant = r.delta is not None and p < 1 - r.confidence_level
        out.append(
            replace(
                r,
                p_adjusted=p,
                correction=method,
                family=family,
                significant=significant,
                winner=winner(r.delta, significant, r.higher_is_better),
            )
        )
    return out
