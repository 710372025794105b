"""Translation entries that name their document (``docid``, as WMT's) are resampled by
document by default; line-aligned files take ``--clusters`` (WMT's docids.tsv)."""

from __future__ import annotations

from pathlib import Path

import assay
from tests.conftest import write_jsonl


def _entries(docid: bool) -> list[dict[str, str]]:
    out = []
    for d in range(10):
        for k in range(4):
            ref = f"the cat number {d} sat on mat {k}"
            hyp = ref if d % 2 else f"a dog {k} stood"
            entry = {"id": f"{d}-{k}", "source": "x", "expected": ref, "predicted": hyp}
            if docid:
                entry["docid"] = f"doc{d}"
            out.append(entry)
    return out


def test_entries_with_docid_resample_documents(tmp_path: Path) -> None:
    run = assay.score(
        "translation", pred=write_jsonl(tmp_path / "t.jsonl", _entries(True)), comet="off"
    )
    assert run.units is not None
    assert (run.units.by, run.units.n_clusters) == ("docid", 10)
    assert run.metrics["corpus_chrf"].n_units == 10


def test_entries_without_docid_stay_iid(tmp_path: Path) -> None:
    run = assay.score(
        "translation", pred=write_jsonl(tmp_path / "t.jsonl", _entries(False)), comet="off"
    )
    assert run.units is None


def test_line_aligned_files_with_a_one_column_cluster_file(tmp_path: Path) -> None:
    entries = _entries(False)
    hyp, ref, docs = tmp_path / "hyp.txt", tmp_path / "ref.txt", tmp_path / "docs.txt"
    hyp.write_text("".join(e["predicted"] + "\n" for e in entries), encoding="utf-8")
    ref.write_text("".join(e["expected"] + "\n" for e in entries), encoding="utf-8")
    docs.write_text("".join(e["id"].split("-")[0] + "\n" for e in entries), encoding="utf-8")
    run = assay.score(
        "translation", pred=hyp, gold=[ref], clusters=docs, cluster_by="document", comet="off"
    )
    assert run.units is not None and (run.units.by, run.units.n_clusters) == ("document", 10)
    assert run.stats["clusters"][:5] == ["0", "0", "0", "0", "1"]
