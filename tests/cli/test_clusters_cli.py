"""The command line's clusters: ``--cluster-by FIELD``, ``--clusters FILE``, the settings
file's ``cluster_by``, the scorecard's line, the few-clusters warning, ``mt test`` on WMT22
documents, and ``compare`` refusing runs with different cluster settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from assay._cli import main
from assay._cli.app import build_cli
from assay._engine.run import Run
from tests.conftest import SHARED
from tests.engine.test_clusters import write_clustered

WMT = SHARED / "data" / "mt" / "wmt22" / "cs-en"


def _run(*args: str) -> Result:
    return CliRunner().invoke(build_cli(), list(args), catch_exceptions=False)


def test_cluster_by_prints_units_and_design_effect(tmp_path: Path) -> None:
    gold, pred = write_clustered(tmp_path, 40, 10)
    out = tmp_path / "run.json"
    res = _run("score", "classification", "--pred", str(pred), "--gold", str(gold),
               "--cluster-by", "contract", "--no-store", "-o", str(out))  # fmt: skip
    assert res.exit_code == 0, res.output
    run = Run.load(out)
    deff = max(m.design_effect or 0 for m in run.metrics.values() if m.tier == "headline")
    assert f"CIs over 40 contracts (design effect up to {deff:.1f}: CIs ≈ ×" in res.output
    assert "|cl:contract|" in res.output
    assert "poor coverage" not in res.output


def test_clusters_file_and_few_clusters_warning(tmp_path: Path) -> None:
    gold, pred = write_clustered(tmp_path, 6, 5)
    docids = tmp_path / "docs.tsv"
    rows = [json.loads(line) for line in gold.read_text().splitlines()]
    docids.write_text("id\tdoc\n" + "".join(f"{r['id']}\t{r['contract']}\n" for r in rows))
    res = _run("score", "classification", "--pred", str(pred), "--gold", str(gold),
               "--clusters", str(docids), "--no-store", "-o", str(tmp_path / "r.json"))  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "CIs over 6 clusters (design effect" in res.output
    assert "only 6 clusters (cluster): cluster-bootstrap CIs may have poor coverage" in res.output
    assert "|cl:cluster|" in res.output


def test_settings_file_cluster_by(tmp_path: Path) -> None:
    gold, pred = write_clustered(tmp_path, 30, 4)
    config = tmp_path / "assay.yaml"
    config.write_text("classification:\n  cluster_by: contract\n", encoding="utf-8")
    out = tmp_path / "r.json"
    res = _run("score", "classification", "--pred", str(pred), "--gold", str(gold),
               "--config", str(config), "--no-store", "-o", str(out))  # fmt: skip
    assert res.exit_code == 0, res.output
    run = Run.load(out)
    assert run.units is not None and run.units.by == "contract"
    assert run.settings["classification"]["cluster_by"] == "contract"


def test_missing_field_is_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = write_clustered(tmp_path, 3, 3)
    code = main(["score", "classification", "--pred", str(pred), "--gold", str(gold),
                 "--cluster-by", "doc", "--no-store"])  # fmt: skip
    err = capsys.readouterr().err
    assert code != 0
    assert "has no field 'doc'" in err and "gold.jsonl" in err


def test_compare_refuses_different_cluster_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = write_clustered(tmp_path, 12, 4)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path, extra in ((a, ["--cluster-by", "contract"]), (b, [])):
        res = _run("score", "classification", "--pred", str(pred), "--gold", str(gold),
                   "--no-store", "-o", str(path), *extra)  # fmt: skip
        assert res.exit_code == 0, res.output
    capsys.readouterr()
    code = main(["compare", str(a), str(b), "--significance"])
    err = capsys.readouterr().err
    assert code == 2
    assert "runs differ in cluster settings" in err
    assert "resamples clusters by 'contract'" in err and "resamples items (no clusters)" in err


@pytest.mark.skipif(not WMT.exists(), reason=f"WMT22 data absent: {WMT}")
def test_mt_test_on_wmt22_documents(tmp_path: Path) -> None:
    out = tmp_path / "online-b.json"
    res = _run("mt", "test", str(WMT / "generaltest2022.cs-en.hyp.Online-B.en"),
               "-r", str(WMT / "generaltest2022.cs-en.ref.B.en"),
               "--clusters", str(WMT / "generaltest2022.cs-en.docids.tsv"),
               "--cluster-by", "document", "--comet", "off",
               "--no-store", "-o", str(out))  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "CIs over 137 documents (design effect up to" in res.output
    run = Run.load(out)
    chrf = run.metrics["corpus_chrf"]
    assert chrf.n_units == 137 and chrf.unit == "document"
    assert chrf.design_effect is not None and 1.3 < chrf.design_effect < 3.5
    assert run.stats["clusters"][0] == "mediafax.cz.17807"


def test_a_column_of_a_rows_file(tmp_path: Path) -> None:
    """One-file mode (``--pred rows.csv``: id, gold, answer and a contract column)."""
    gold, pred = write_clustered(tmp_path, 30, 3)
    answers = {r["id"]: r["predicted"] for r in map(json.loads, pred.read_text().splitlines())}
    lines = ["id,contract,expected,predicted"]
    for r in map(json.loads, gold.read_text().splitlines()):
        lines.append(f"{r['id']},{r['contract']},{r['expected']},{answers[r['id']]}")
    rows = tmp_path / "rows.csv"
    rows.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "rows.json"
    res = _run("score", "classification", "--pred", str(rows), "--cluster-by", "contract",
               "--no-store", "-o", str(out))  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "CIs over 30 contracts" in res.output
    assert Run.load(out).stats["clusters"][:3] == ["K0", "K0", "K0"]
