"""The store from the command line: `assay score` records runs (unless --no-store), `assay runs`
lists, shows, exports and removes them, and compare / gate / report accept stored ids."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from assay._cli import main
from assay._store import RunStore
from tests.store.services import DemoRuns


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_score_records_the_run_unless_no_store(
    tmp_path: Path, labels_files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = labels_files
    url = f"sqlite:///{tmp_path / 's.db'}"
    base = ["score", "classification", "--pred", str(pred), "--gold", str(gold), "--no-ci"]
    code, out, _ = cli(capsys, *base, "-o", str(tmp_path / "a.json"), "--store", url)
    assert code == 0 and "run stored as" in out
    run_id = json.loads((tmp_path / "a.json").read_text())["run_id"]
    code, out, _ = cli(capsys, *base, "-o", str(tmp_path / "b.json"), "--store", url, "--no-store")
    assert code == 0 and "stored" not in out
    with RunStore(url) as st:
        assert [r.run_id for r in st.list_runs()] == [run_id]
        assert st.get(run_id).to_json() == (tmp_path / "a.json").read_text()


def test_runs_commands(
    tmp_path: Path,
    demo: DemoRuns,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    monkeypatch.setenv("ASSAY_STORE", url)
    with RunStore() as st:
        st.add(demo.baseline)
        st.add(demo.candidate)
    b, c = demo.baseline.run_id, demo.candidate.run_id

    code, out, _ = cli(capsys, "runs", "list", "--name", "base")
    assert code == 0 and b in out and c not in out and "exact_match 0.782" in out
    code, out, _ = cli(capsys, "runs", "list", "--json", "--task", "classification")
    rows = [json.loads(line) for line in out.splitlines()]
    assert {r["run_id"] for r in rows} == {b, c}
    assert rows[0]["headline"]["exact_match"]["ci_lower"] is not None
    suite_order = [n for n, m in demo.baseline.metrics.items() if m.tier == "headline"]
    assert list(rows[0]["headline"]) == suite_order

    code, out, _ = cli(capsys, "runs", "show", b[:6])
    assert code == 0 and "cohort: attempted 400" in out and "exact_match" in out

    code, out, _ = cli(capsys, "runs", "export", b, "--format", "json")
    assert out == demo.baseline.to_json()
    code, out, _ = cli(capsys, "runs", "export", b, "--format", "jsonl")
    lines = [json.loads(x) for x in out.splitlines()]
    assert [x["id"] for x in lines] == [i.id for i in demo.baseline.items]
    target = tmp_path / "items.csv"
    assert cli(capsys, "runs", "export", b, "--format", "csv", "-o", str(target))[0] == 0
    table = list(csv.DictReader(io.StringIO(target.read_text())))
    assert len(table) == 400 and "stat.exact_match" in table[0]
    assert sum(float(r["stat.exact_match"]) for r in table) == pytest.approx(313)
    pq = tmp_path / "items.parquet"
    assert cli(capsys, "runs", "export", b, "--format", "parquet", "-o", str(pq))[0] == 0
    import pyarrow.parquet as pqm

    assert pqm.read_table(pq).num_rows == 400
    code, _, err = cli(capsys, "runs", "export", b, "--format", "parquet")
    assert code == 2 and "--output" in err

    code, out, _ = cli(capsys, "compare", c, b, "--significance", "--correction", "none")
    assert code == 0 and "exact_match" in out and "Yes *" in out
    code, out, _ = cli(capsys, "significance", c[:6], str(tmp_path / "nope.json"))
    assert code == 2
    code, out, _ = cli(capsys, "gate", b, "--threshold", "0.7")
    assert code == 0 and "gate passed" in out
    code, _, err = cli(capsys, "gate", "feedface", "--threshold", "0.7")
    assert code == 2 and "feedface: no such run file, and no stored run 'feedface'" in err

    code, out, _ = cli(capsys, "runs", "rm", b)
    assert code == 0 and f"removed run {b}" in out
    code, _, err = cli(capsys, "runs", "show", b)
    assert code == 2 and "no stored run" in err


def test_runs_list_shows_headlines_in_the_suites_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Translation's primary metric is corpus_chrf: it comes first, not corpus_bleu (which
    sorts first by name), in the table and in the JSON."""
    import assay
    from assay.suites.translation.examples import write_demo

    write_demo(tmp_path)
    monkeypatch.setenv("ASSAY_STORE", f"sqlite:///{tmp_path / 'mt.db'}")
    run = assay.score("translation", pred=tmp_path / "a.json", name="a", ci=False)
    with RunStore() as st:
        st.add(run)
    order = [n for n, m in run.metrics.items() if m.tier == "headline"]
    assert order[0] == "corpus_chrf" and order != sorted(order)
    code, out, _ = cli(capsys, "runs", "list", "--json")
    assert code == 0 and list(json.loads(out)["headline"]) == order
    code, out, _ = cli(capsys, "runs", "list")
    assert out.index("corpus_chrf") < out.index("corpus_bleu") < out.index("exact_match_rate")
