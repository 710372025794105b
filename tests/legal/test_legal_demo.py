"""``assay demo legal`` (``assay._cli.legal.write_demo``, every legal suite's ``examples``
writer): the inputs the legal suites' pages run on, deterministic and scoreable."""

from __future__ import annotations

import importlib
from pathlib import Path

import assay
from assay._cli.legal import write_demo
from assay.suites.chained import handoff_ablation


def test_demo_is_deterministic_and_every_suite_scores_it(tmp_path: Path) -> None:
    a, b = write_demo(tmp_path / "a"), write_demo(tmp_path / "b")
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b, strict=True))
    d = tmp_path / "a"
    ce_a = assay.score("contracteval", pred=d / "rows-a.jsonl", ci=False)
    ce_b = assay.score("contracteval", pred=d / "rows-b.jsonl", ci=False)
    assert ce_a.surface.fingerprint == ce_b.surface.fingerprint  # the gold is the same
    assert (ce_b.metrics["f1"].value or 0) > (ce_a.metrics["f1"].value or 0)
    lb = assay.score("legalbench", pred=d / "hearsay-answers.jsonl", ci=False)
    lb2 = assay.score("legalbench", pred=d / "answers.jsonl", gold=(d / "gold.jsonl",), ci=False)
    assert lb.metrics["exact_match"].value == lb2.metrics["exact_match"].value
    sub = assay.score("subtype", pred=d / "subtype.jsonl", ci=False)
    assert (sub.metrics["subtype_accuracy"].value or 0) > 0.5  # folder-name gold normalizes
    maud = assay.score("maud", pred=d / "maud-rows.jsonl", gold=(d / "maud-gold.jsonl",), ci=False)
    assert maud.metrics["subclass_accuracy"].n == 40
    pred = assay.score("chained", pred=d / "pred-handoff.jsonl", ci=False)
    gt = assay.score("chained", pred=d / "gt-handoff.jsonl", ci=False)
    assert (handoff_ablation(pred, gt, n_resamples=200).sorter_loss_pp or 0) > 0


LEGAL_SUITES = (
    "contracteval",
    "legalbench",
    "subtype",
    "docclass",
    "maud",
    "multiclass",
    "chained",
)


def test_each_suite_writes_its_own_files_as_the_legal_demo_does(tmp_path: Path) -> None:
    """``assay demo legal`` is every legal suite's writer in turn: the same files, byte for
    byte, and the names the pages use (multiclass scores docclass's rows: listed once)."""
    together = write_demo(tmp_path / "all")
    assert [p.name for p in together] == [
        "rows-a.jsonl",
        "rows-b.jsonl",
        "rows.jsonl",
        "master_clauses_sample.csv",
        "hearsay-answers.jsonl",
        "gold.jsonl",
        "answers.jsonl",
        "subtype.jsonl",
        "docclass_merged.jsonl",
        "maud-gold.jsonl",
        "maud-rows.jsonl",
        "pred-handoff.jsonl",
        "gt-handoff.jsonl",
    ]
    names: set[str] = set()
    for suite in LEGAL_SUITES:
        own = importlib.import_module(f"assay.suites.{suite}.examples").write_demo(tmp_path / suite)
        assert own, suite
        for path in own:
            assert path.read_bytes() == (tmp_path / "all" / path.name).read_bytes(), path
            names.add(path.name)
    assert names == {p.name for p in together}
