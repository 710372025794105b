"""Re-pin MAUD's own AUPR for the synthetic questions (not run by the tests).

Runs MAUD's unmodified ``pr_curves.py`` (TheAtticusProject/maud, ``src/maud/pr_curves.py`` at
the commit named: ``MAUDPrecRecallCurve.from_labels_and_logits`` then
``from_reduced_means_by_group``, ``key_type="experimental"``) on each question of
``maud_outputs`` and prints the figures as JSON, for ``maud_reference.json``. Needs numpy,
scikit-learn and matplotlib (the module imports them) and no assay; from the repository root::

    /path/to/scratch/bin/python -m tests.differential.regen_maud \\
        /path/to/maud/src/maud/pr_curves.py COMMIT > tests/differential/maud_reference.json
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from tests.differential.maud_outputs import SEED, questions


def main(script: Path, commit: str) -> None:
    import matplotlib  # the scratch environment's

    matplotlib.use("Agg")
    spec = importlib.util.spec_from_file_location("maud_pr_curves", script)
    assert spec is not None and spec.loader is not None
    pr_curves = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pr_curves)
    curve = pr_curves.MAUDPrecRecallCurve
    figures = []
    for q in questions():
        curves = curve.from_labels_and_logits(
            y_true=q.labels, logits=q.logits, spec_id=f"{q.number}.1", key_type="experimental"
        )
        grouped = curve.from_reduced_means_by_group(curves)
        figures.append(
            {"question": q.number, "official_aupr": float(next(iter(grouped.values())).auprc)}
        )
    print(
        json.dumps(
            {
                "source": f"TheAtticusProject/maud@{commit} src/maud/pr_curves.py",
                "function": "MAUDPrecRecallCurve.from_labels_and_logits"
                " + from_reduced_means_by_group",
                "seed": SEED,
                "figures": figures,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
