"""McNemar's exact test: did two systems' 0/1 outcomes on the same items differ?

Of the items both systems scored 0 or 1, only the *discordant* ones carry evidence: ``b``
items where the first system was right and the second wrong, ``c`` the other way round.
Under the null hypothesis that both systems are equally good, each discordant item is a fair
coin, so ``b ~ Binomial(b + c, 1/2)``, and the two-sided exact p-value is

    p = min(1, 2 · P(X ≤ min(b, c))),    X ~ Binomial(b + c, 1/2),

which is ``scipy.stats.binomtest(min(b, c), b + c, 0.5).pvalue`` (checked in
tests/stats/test_stats_mcnemar.py). With no discordant item, p = 1. The same test on the signs
of any paired per-item difference is the sign test.
"""

from __future__ import annotations

import math

from assay.errors import UsageError


def _log_binomial_tail(k: int, n: int) -> float:
    """log P(X ≤ k) for X ~ Binomial(n, 1/2), summed in log space (n may be 10⁶)."""
    log_half_n = -n * math.log(2.0)
    terms = [
        math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1) + log_half_n
        for j in range(k + 1)
    ]
    top = max(terms)
    return top + math.log(math.fsum(math.exp(t - top) for t in terms))


def mcnemar_exact(b: int, c: int) -> float:
    """The two-sided exact McNemar p-value of ``b`` and ``c`` discordant items (see the
    module docstring): ``b`` where the first system alone was right, ``c`` the second."""
    for name, value in (("b", b), ("c", c)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise UsageError(f"{name} must be a count (a whole number ≥ 0), not {value!r}")
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    if 2 * k == n:
        return 1.0
    return min(1.0, 2.0 * math.exp(_log_binomial_tail(k, n)))
