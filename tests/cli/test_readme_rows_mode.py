"""Two runs of one dataset in rows-file mode compare (issue 34, item 7).

The classification page's one-file mode (``--pred rows.csv``: id, gold label and the model's
answer in one record) on the README's own demo: each run's gold is the record without the
prediction, so the baseline's and the candidate's rows files have the same per-item gold
digests, the same surface, and ``compare``, ``significance`` and ``gate --baseline`` read them as
two runs of one dataset (before, every item's digest held its answer: "gold differs between the
runs on 333 shared id(s)", exit 2).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay._cli import main
from assay.suites.classification.examples import write_classification_demo

FIELDS = ("id", "expected", "title", "predicted")


def _rows_file(gold: Path, pred: Path, out: Path) -> Path:
    """The demo's gold and one run's answers as one CSV (a document without an answer has an
    empty ``predicted``, as a spreadsheet export writes it)."""
    said = {r["id"]: r.get("predicted") for r in map(json.loads, pred.read_text().splitlines())}
    with out.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, FIELDS)
        writer.writeheader()
        for g in map(json.loads, gold.read_text().splitlines()):
            writer.writerow({**g, "predicted": said.get(g["id"], "")})
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("rows")
    demo = write_classification_demo(root / "assay-demo")
    paths = []
    for name, pred in (("candidate", demo.candidate), ("baseline", demo.baseline)):
        rows = _rows_file(demo.gold, pred, root / f"{name}-rows.csv")
        run = assay.score(
            "classification",
            pred=rows,
            expected_ids=demo.expected_ids,
            positive="contract",
            name=name,
        )
        paths.append(run.save(root / f"{name}.json"))
    return paths[0], paths[1]


def test_the_runs_share_their_surface_and_gold(runs: tuple[Path, Path]) -> None:
    cand, base = (assay.Run.load(p) for p in runs)
    assert cand.surface.fingerprint == base.surface.fingerprint
    assert cand.item_gold_digests() == base.item_gold_digests()


def test_compare_significance_and_gate_read_them(
    runs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    cand, base = (str(p) for p in runs)
    assert main(["compare", cand, base]) == 0
    assert main(["significance", cand, base]) == 0
    capsys.readouterr()
    # exact match p = 0.024: within Holm's family of the gated metrics not a regression;
    # tested at its own α (--correction none) it is one
    assert main(["gate", base, "--baseline", cand, "--max-failed", "1"]) == 0
    assert "gold differs" not in capsys.readouterr().out
    args = ["gate", base, "--baseline", cand, "--max-failed", "1", "--correction", "none"]
    assert main(args) == 1
    assert "gate failed: exact_match regressed" in capsys.readouterr().out


@settings(max_examples=25, deadline=None)
@given(answer=st.text(max_size=12), label=st.sampled_from(["letter", "memo", "invoice"]))
def test_only_gold_fields_enter_the_digest(
    tmp_path_factory: pytest.TempPathFactory, answer: str, label: str
) -> None:
    """Changing the answer keeps an item's gold digest; changing its gold label changes it."""
    root = tmp_path_factory.mktemp("digest")

    def digests(expected: str, predicted: str) -> dict[str, str]:
        rows = [
            {"id": "a", "expected": expected, "title": "t", "predicted": predicted},
            {"id": "b", "expected": "memo", "title": "u", "predicted": "memo"},
        ]
        path = root / "rows.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        return assay.score("classification", pred=path, ci=False).item_gold_digests()

    base = digests("letter", "letter")
    assert digests("letter", answer) == base
    assert (digests(label, "letter") == base) == (label == "letter")
