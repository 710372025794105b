"""Re-pin llm-dojo-scoring v0.7.0's field scores on the CUAD pairs (not run by the tests).

The reference package is not on PyPI, so its figures are pinned in ``llm_dojo_v070_cuad.json``.
To re-make them, install the reference from its own repository (tag v0.7.0, with the optional
``jellyfish`` extra it uses for Jaro-Winkler) into a scratch environment and run, from the
repository root::

    /path/to/scratch/bin/python -m tests.differential.regen_llm_dojo ../shared > \\
        tests/differential/llm_dojo_v070_cuad.json

Standard library + the reference only: this module never imports assay.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from tests.differential.cuad_pairs import pairs, read_rows

ARTICLES = re.compile(r"\b(?:a|an|the)\b", re.IGNORECASE)


def _value(result: object) -> float:
    return round(float(getattr(result, "score", result)), 9)  # type: ignore[arg-type]


def _strip_articles(value: object) -> object:
    if isinstance(value, list):
        return [ARTICLES.sub(" ", str(v)) for v in value]
    return ARTICLES.sub(" ", str(value))


def main(shared: str) -> None:
    import llm_dojo_scoring.field_scoring as reference  # the scratch environment's package

    rows = read_rows(Path(shared) / "data" / "legal" / "cuad" / "master_clauses.csv")
    scores: dict[str, float] = {}
    without_articles: dict[str, float] = {}
    for key, field_type, pred, gold in pairs(rows):
        scores[key] = _value(reference.score_field(field_type, pred, gold))
        if field_type.endswith("free_text"):
            stripped = reference.score_field(
                field_type, _strip_articles(pred), _strip_articles(gold)
            )
            without_articles[key] = _value(stripped)
    out = {
        "reference": "llm-dojo-scoring v0.7.0 (tag v0.7.0, commit 51822bc), jellyfish installed",
        "how": "score_field(field_type, prediction, gold) with the package's default settings",
        "scores": scores,
        "scores_without_articles": without_articles,
    }
    json.dump(out, sys.stdout, indent=0, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
