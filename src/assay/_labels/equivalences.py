"""Defensible equivalent families (seed 000 §6, §7): symmetric label pairs counted as correct
by the ``*_equiv`` accuracies."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: seed 000 §6: reseller↔distributor, maintenance↔license, development↔license,
#: affiliate↔joint_venture
SUBTYPE_EQUIVALENCES: tuple[tuple[str, str], ...] = (
    ("reseller", "distributor"),
    ("maintenance", "license"),
    ("development", "license"),
    ("affiliate", "joint_venture"),
)

#: seed 000 §7: an election structure is a mixed cash+stock deal with a per-holder choice
DOC_SUBCLASS_EQUIVALENCES: tuple[tuple[str, str], ...] = (
    ("mixed_cash_stock", "mixed_cash_stock_election"),
)


def equivalence_set(pairs: Iterable[Sequence[str]]) -> frozenset[frozenset[str]]:
    """The pairs as unordered sets, so (a, b) and (b, a) are the same equivalence."""
    out = set()
    for pair in pairs:
        if len(pair) != 2:
            raise ValueError(f"an equivalence is a pair of labels, got {list(pair)!r}")
        out.add(frozenset((pair[0], pair[1])))
    return frozenset(out)


def equivalent(
    expected: str | None, predicted: str | None, pairs: frozenset[frozenset[str]]
) -> bool:
    """Strict match, or a listed defensible equivalent (symmetric, not transitive)."""
    if expected is None or predicted is None:
        return False
    return expected == predicted or frozenset((expected, predicted)) in pairs
