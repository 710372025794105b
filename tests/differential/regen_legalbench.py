"""Re-pin LegalBench's own figures for the differential answers (not run by the tests).

Runs LegalBench's unmodified ``evaluation.py`` (``evaluate(task, generations, answers)``, the
file of HazyResearch/legalbench at the commit named) on every shared task's gold and each
answer style of ``legalbench_outputs``, and prints the figures as JSON, for
``legalbench_reference.json``. An answer row a style leaves out is given to ``evaluate`` as an
empty generation: the function takes aligned lists, and that is what any caller must pass for
it. Needs scikit-learn and nltk (the script imports them) and no assay; from the repository
root::

    /path/to/scratch/bin/python -m tests.differential.regen_legalbench \\
        /path/to/legalbench/evaluation.py ../shared/data/legal/legalbench COMMIT \\
        > tests/differential/legalbench_reference.json
"""

from __future__ import annotations

import importlib.util
import json
import sys
import warnings
from pathlib import Path

from tests.differential.legalbench_outputs import STYLES, answer_rows, gold_rows, tasks


def main(script: Path, data: Path, commit: str) -> None:
    spec = importlib.util.spec_from_file_location("legalbench_evaluation", script)
    assert spec is not None and spec.loader is not None
    evaluation = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(evaluation)
    import sklearn  # the scratch environment's

    warnings.simplefilter("ignore")  # sklearn warns of answers outside the gold classes
    figures: dict[str, dict[str, float]] = {}
    for task in tasks(data):
        gold = gold_rows(data, task)
        figures[task] = {}
        for style in STYLES:
            said = {r["id"]: r["predicted"] for r in answer_rows(gold, task, style)}
            generations = [said.get(g["id"], "") for g in gold]
            figures[task][style] = float(
                evaluation.evaluate(task, generations, [g["answer"] for g in gold])
            )
    print(
        json.dumps(
            {
                "source": f"HazyResearch/legalbench@{commit} evaluation.py",
                "function": "evaluate(task, generations, answers)",
                "sklearn": sklearn.__version__,
                "missing_row_as": "",
                "figures": figures,
            },
            indent=1,
            sort_keys=True,
        )
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3])
