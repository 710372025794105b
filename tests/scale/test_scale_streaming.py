"""Bad input at scale: one corrupt line in a large JSONL costs one counted item, nothing more."""

from __future__ import annotations

from pathlib import Path

import assay
from assay._io import read_jsonl
from assay._io.records import ParseFailure
from tests.scale.helpers import write_classification

N = 200_000


def test_corrupt_line_in_a_large_jsonl_is_one_counted_failure(tmp_path: Path) -> None:
    gold, pred = write_classification(tmp_path, N, seed=9)
    lines = pred.read_text().splitlines(keepends=True)
    middle = len(lines) // 2
    victim = lines[middle].split('"id": "')[1].split('"')[0]
    lines[middle] = lines[middle][:25] + "\n"  # truncated mid-record, as a crash leaves it
    pred.write_text("".join(lines))

    failures = [r for r in read_jsonl(pred, id_field="id") if isinstance(r, ParseFailure)]
    assert len(failures) == 1 and failures[0].line == middle + 1

    run = assay.score("classification", pred=pred, gold=gold, ci=False)
    c = run.cohort
    assert c.attempted == N
    assert c.failed + len(c.parse_failures) == 1
    assert c.evaluated + c.missing + c.failed == N
    assert run.metrics["exact_match"].n == N  # the failed item stays in the denominator
    listed = [f.id for f in c.failures] + [f.id for f in c.parse_failures]
    assert listed in ([victim], [None])
    if listed == [None]:  # unattributable: the item has no prediction and counts as missing
        assert victim in c.missing_ids
