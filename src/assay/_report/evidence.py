"""What a paired test and a run's sampling units say, read in one place.

The statistics work of issue 32 adds fields to each paired test's result (which test decided,
the units it resampled, the multiplicity-adjusted p-value and its family, the standard error
and the minimum detectable effect) and to each run (the cluster field, the number of clusters,
each item's cluster). The pages show them when they are there and leave them out when they
are not (today's artifacts): every page reads them through this module, so a renamed field is
one line here. A result may be a ``SignificanceResult`` or its JSON (a mapping).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: the test names a result may carry, as pages print them
TEST_NAMES = {
    "exact_sign_flip": "exact sign-flip",
    "approximate_randomization": "approximate randomization",
    "approximate_randomization_sacrebleu": "approximate randomization (sacrebleu's p-value)",
    "ar": "approximate randomization",
    "paired_bootstrap": "paired bootstrap",
    "paired_bootstrap_poisson": "paired bootstrap (Poisson weights)",
    "paired_bootstrap_sacrebleu": "paired bootstrap (sacrebleu's p-value)",
    "bootstrap": "paired bootstrap",
}
#: the corrections a family may be adjusted by, as pages print them
CORRECTION_NAMES = {"holm": "Holm", "bh": "Benjamini–Hochberg", "none": "no correction"}


def _get(obj: Any, name: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


@dataclass(frozen=True)
class Evidence:
    """One paired test's figures beyond Δ, its CI and the raw p-value (None: not recorded)."""

    test: str | None  # "exact sign-flip", "paired bootstrap", … as printed
    p_adjusted: float | None
    family: str | None  # "headline", "all"
    correction: str | None  # "holm", "bh", "none"
    n_units: int | None
    unit: str | None  # "item" or the cluster field ("contract")
    se: float | None
    mde: float | None
    min_p: float | None

    @property
    def adjusted_label(self) -> str | None:
        """How the adjusted p-value is named: 'Holm over the headline family'."""
        if self.p_adjusted is None:
            return None
        how = CORRECTION_NAMES.get(self.correction or "", self.correction or "adjusted")
        return f"{how} over the {self.family} family" if self.family else how


def evidence_of(result: Any) -> Evidence:
    """The fields issue 32 adds to a paired test's result, where present."""
    test = _get(result, "method") or _get(result, "test")
    n_units = _get(result, "n_units")
    return Evidence(
        test=TEST_NAMES.get(str(test), str(test)) if test else None,
        p_adjusted=_number(_get(result, "p_adjusted")),
        family=str(_get(result, "family")) if _get(result, "family") else None,
        correction=str(_get(result, "correction")) if _get(result, "correction") else None,
        n_units=int(n_units)
        if isinstance(n_units, int) and not isinstance(n_units, bool)
        else None,
        unit=str(_get(result, "unit")) if _get(result, "unit") else None,
        se=_number(_get(result, "se")),
        mde=_number(_get(result, "mde")),
        min_p=_number(_get(result, "min_p")),
    )


def family_of(results: Sequence[Any]) -> tuple[str | None, str | None]:
    """(the family, the correction) the results of one comparison were adjusted over, when
    they say so; (None, None) for today's unadjusted results."""
    for r in results:
        ev = evidence_of(r)
        if ev.p_adjusted is not None:
            return ev.family, ev.correction
    return None, None


@dataclass(frozen=True)
class Clusters:
    """The run's sampling units when clusters are declared: the field, the label of each
    cluster and each item's cluster (by item id)."""

    field: str
    labels: tuple[str, ...]
    of_item: Mapping[str, str]


def run_clusters(run: Any) -> Clusters | None:
    """Each item's cluster, read from the run's ``units`` and its statistics' cluster codes
    (``stats.cluster_labels``, ``stats.cluster_codes`` aligned with ``stats.ids``); None when
    the run declares none or the codes do not line up."""
    units = _get(run, "units")
    stats = _get(run, "stats")
    if not isinstance(stats, Mapping):
        return None
    labels, codes, ids = (stats.get(k) for k in ("cluster_labels", "cluster_codes", "ids"))
    if labels is None or codes is None or ids is None:
        return None
    labels, codes, ids = list(labels), list(codes), list(ids)
    if len(codes) != len(ids):
        return None
    field = _get(units, "cluster_by") if units is not None else None
    of_item: dict[str, str] = {}
    for item_id, code in zip(ids, codes, strict=True):
        k = int(code)
        if not 0 <= k < len(labels):
            return None
        of_item[str(item_id)] = str(labels[k])
    return Clusters(str(field or "cluster"), tuple(str(x) for x in labels), of_item)


def design_effect(metric: Any) -> float | None:
    """A metric's design effect (variance under clustering over variance under iid items)."""
    return _number(_get(metric, "design_effect"))
