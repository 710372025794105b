"""Model outputs for ContractEval rows, for a differential test against the benchmark's script.

Standard library only, so the same module fills the same rows in assay's environment and in a
scratch environment that runs ContractEval's ``Evaluation.py``. Each strategy is a kind of model
the benchmark meets: one that quotes every clause, one that mostly says "No related clause", and
noisier ones that re-case, truncate, wrap in backticks, drop spans, answer absent categories
with clause text or an empty string, or say "no related clause" inside a longer sentence. A
row's choice depends only on a hash of its id, so the outputs are the same on every machine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

Row = dict[str, object]
NO_CLAUSE = "No related clause."


def _draw(row: Row, salt: str) -> int:
    """A number in [0, 100) fixed by the row's id (and a salt per decision)."""
    digest = hashlib.sha256(f"{salt}:{row['id']}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % 100


def _spans(row: Row) -> list[str]:
    spans = row["gold_spans"]
    assert isinstance(spans, list)
    return [str(s) for s in spans]


def oracle(row: Row) -> str:
    """Every gold span, one a line; "No related clause." for an absent category."""
    spans = _spans(row)
    return "\n".join(spans) if spans else NO_CLAUSE


def timid(row: Row) -> str:
    """ "No related clause." on 70% of the labeled categories (the paper's most common failure),
    every span otherwise. (A model that never finds a clause has TP = 0, where the script's F1
    divides by zero: docs/legal.md.)"""
    return NO_CLAUSE if _draw(row, "timid") < 70 else oracle(row)


def careless(row: Row) -> str:
    """Mostly right, with the formatting slips the rubric punishes or forgives."""
    spans = _spans(row)
    d = _draw(row, "careless")
    if not spans:
        if d < 10:
            return ""  # an empty answer on an absent category: FP (read back as NaN by pandas)
        if d < 20:
            return "There is no related clause in this contract."
        if d < 30:
            return "Section 12.2: This Agreement may not be assigned."
        return "`No related clause`"
    text = "\n".join(spans)
    if d < 15:
        return text.upper()  # re-cased: FN
    if d < 30:
        return f"```\n{text}\n```"  # backticks and newlines are stripped: still TP
    if d < 40:
        return text.replace(" ", "  ", 1)  # a double space: FN, and an empty Jaccard token
    if d < 55 and len(spans) > 1:
        return spans[0]  # one span of several: FN
    if d < 65:
        words = spans[0].split(" ")
        return " ".join(words[: max(1, len(words) // 2)])  # half a clause: FN
    if d < 72:
        return NO_CLAUSE  # a false "no related clause"
    if d < 76:
        return f"{text}\nOtherwise no related clause."  # TP and a false "no related clause"
    return f"The clause: {text}; see also Section 4.1/4.2."


def verbose(row: Row) -> str:
    """Quotes each span inside commentary; absent categories get a paraphrase half the time."""
    spans = _spans(row)
    d = _draw(row, "verbose")
    if not spans:
        return NO_CLAUSE if d < 50 else f"The contract does not address {row['category']}."
    if d < 20:
        return "Tab\tseparated: " + "\t".join(spans)
    return "Relevant text:\n" + "\n\n".join(f'"{s}"' for s in spans) + "\n(end)"


STRATEGIES: dict[str, Callable[[Row], str]] = {
    "oracle": oracle,
    "timid": timid,
    "careless": careless,
    "verbose": verbose,
}


#: contracts taken, in file order: the size of ContractEval's test split (102 contracts × 41
#: categories = 4,182 rows; the script computes Jaccard only for runs of 4,000 rows or more)
CONTRACTS = 102


def sample(rows: list[Row]) -> list[Row]:
    """The rows of the first ``CONTRACTS`` contracts."""
    keep: list[object] = []
    out = []
    for row in rows:
        if row["contract"] not in keep:
            if len(keep) == CONTRACTS:
                continue
            keep.append(row["contract"])
        out.append(row)
    return out


def with_outputs(rows: list[Row], strategy: str) -> list[Row]:
    """The rows with ``output`` filled by one strategy."""
    fill = STRATEGIES[strategy]
    return [{**row, "output": fill(row)} for row in rows]
