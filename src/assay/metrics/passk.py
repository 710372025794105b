"""pass@k: the chance that at least one of k samples drawn without replacement from an item's
n samples is correct, estimated without bias from the c correct ones (Chen et al. 2021):

    pass@k = 1 − C(n−c, k) / C(n, k)

computed in the stable product form

    C(n−c, k) / C(n, k) = ∏_{i=n−c+1}^{n} (1 − k / i)

(no factorials: n in the thousands stays exact to rounding). With n − c < k every draw of k holds
a correct sample, so pass@k = 1; the estimator needs n ≥ k.
"""

from __future__ import annotations

from assay.errors import UsageError


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k of an item with ``n`` samples, ``c`` of them correct (see the module
    docstring); a UsageError unless 0 ≤ c ≤ n and 1 ≤ k ≤ n."""
    if k < 1:
        raise UsageError(f"pass@k needs k >= 1, got k = {k}")
    if not 0 <= c <= n:
        raise UsageError(f"pass@k needs 0 <= c <= n, got n = {n}, c = {c}")
    if n < k:
        raise UsageError(f"pass@{k} needs at least {k} samples, got n = {n}")
    if n - c < k:
        return 1.0
    product = 1.0
    for i in range(n - c + 1, n + 1):
        product *= 1.0 - k / i
    return 1.0 - product
