"""Re-pin ContractEval's own figures for the differential rows (not run by the tests).

Runs the benchmark's unmodified ``Evaluation.py`` (from a local checkout of
olivialiu121/ContractEval) on the CUAD rows filled by each strategy of ``contracteval_outputs``,
and prints its results table as JSON, for ``contracteval_reference.json``. ``Evaluation.py``
reads the per-row files its inference scripts write; this module writes them the way
``open_source_model.py`` does (pandas CSVs; the row's ``classification`` is that script's
verbatim-containment test, the rule docs/legal.md states). Needs pandas, numpy and matplotlib
(the script imports them) and no assay; from the repository root::

    uv run assay legal contracteval-rows ../shared/data/legal/cuad/master_clauses.csv -o rows.jsonl
    /path/to/scratch/bin/python -m tests.differential.regen_contracteval /path/to/ContractEval \\
        rows.jsonl > tests/differential/contracteval_reference.json
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import runpy
import sys
import tempfile
from pathlib import Path

from tests.differential.contracteval_outputs import STRATEGIES, sample, with_outputs

STRIP = " \n`"


def _write_inputs(results: Path, model: str, rows: list[dict[str, object]]) -> None:
    import pandas as pd  # the scratch environment's

    outputs = [str(r["output"]) for r in rows]
    labels = [list(r["gold_spans"]) for r in rows]  # type: ignore[call-overload]
    check = [
        "no related clause" in out.lower()
        if not label
        else all(span.strip(STRIP) in out.strip(STRIP) for span in label)
        for out, label in zip(outputs, labels, strict=True)
    ]
    base = {
        "id": [r["id"] for r in rows],
        "questions": [r["category"] for r in rows],
    }
    sizes = {
        "output_char": [len(o.strip(STRIP)) for o in outputs],
        "label_char": [sum(len(s.strip(STRIP)) for s in label) for label in labels],
    }
    complete = pd.DataFrame(
        {**base, "outputs": outputs, "labels": labels, "classification": check, **sizes}
    )
    complete_path = results / "complete outputs" / f"{model}-cuad-output.csv"
    complete.to_csv(complete_path, index=False, quoting=csv.QUOTE_ALL)
    stat = pd.DataFrame(
        {
            **base,
            "classification": check,
            "predict": ["no related clause" not in o.lower() for o in outputs],
            "label": [len(label) > 0 for label in labels],
            **sizes,
        }
    )
    stat.to_csv(
        results / "output stats" / f"{model}-cuad-output-stat.csv",
        index=False,
        quoting=csv.QUOTE_MINIMAL,
    )


def main(checkout: str, rows_path: str) -> None:
    import pandas as pd

    script = Path(checkout, "Evaluation.py").resolve()
    lines = Path(rows_path).read_text(encoding="utf-8").splitlines()
    rows = sample([json.loads(line) for line in lines])
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp, "results")
        for sub in ("complete outputs", "output stats", "results analysis"):
            (results / sub).mkdir(parents=True)
        for model in STRATEGIES:
            _write_inputs(results, model, with_outputs(rows, model))
        work = Path(tmp, "a", "b")
        work.mkdir(parents=True)
        here = os.getcwd()
        os.chdir(work)
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                runpy.run_path(str(script), run_name="__main__")
        except Exception as exc:  # the figure code after the results table needs files we lack
            print(f"Evaluation.py stopped after its tables: {exc!r}", file=sys.stderr)
        finally:
            os.chdir(here)
        table = pd.read_csv(results / "results analysis" / "model_eval_results_v2.csv")
    records = table.sort_values("model_name").to_dict("records")
    figures = {str(rec.pop("model_name")): rec for rec in records}
    out = {
        "reference": "olivialiu121/ContractEval Evaluation.py (commit f2de744), unmodified",
        "rows": len(rows),
        "figures": figures,
    }
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
