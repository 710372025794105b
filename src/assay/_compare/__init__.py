"""Run comparison with paired significance, and the regression gate."""

from assay._compare.comparison import (
    Comparison,
    MetricDelta,
    PairComparison,
    compare,
    compare_pair,
    load_runs,
    pair_key,
)
from assay._compare.gate import GateCheck, GateResult, gate

__all__ = [
    "Comparison",
    "GateCheck",
    "GateResult",
    "MetricDelta",
    "PairComparison",
    "compare",
    "compare_pair",
    "gate",
    "load_runs",
    "pair_key",
]
