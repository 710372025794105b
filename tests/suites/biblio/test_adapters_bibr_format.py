"""``--format bibr-12``: converters write bibr exports (producer GROBID, converter assay) that
read back as bibr-12 and score exactly as assay's own shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import assay
from assay._cli.biblio import biblio_group
from assay.suites.biblio._lib.bibr_writer import bibr_section_type, to_bibr12
from assay.suites.biblio._lib.dialects import BIBR_12, read_export
from tests.conftest import SHARED
from tests.suites.biblio.biblio_helpers import bibr_models, paper, ref
from tests.suites.biblio.test_adapters_tei import TEI

PMC = SHARED / "data" / "biblio" / "pmc10_sciencebeam"
CERMINE = ("--producer", "CERMINE")


def _cli(*args: str) -> None:
    result = CliRunner().invoke(biblio_group, list(args))
    assert result.exit_code == 0, result.output


def test_grobid_tei_as_a_bibr_export(tmp_path: Path) -> None:
    (tmp_path / "tei").mkdir()
    (tmp_path / "tei" / "p1.tei.xml").write_bytes(TEI)
    _cli(
        "grobid-tei",
        "--tei-dir",
        str(tmp_path / "tei"),
        "--out",
        str(tmp_path / "out"),
        "--format",
        "bibr-12",
    )
    data = json.loads((tmp_path / "out" / "p1.json").read_text())
    assert data["schema_version"] == "12.2" and data["paper_id"] == "p1"
    assert data["extraction"]["producer"] == {
        "name": "GROBID",
        "version": "0.7.3",
        "build_sha": None,
    }
    assert data["extraction"]["converter"]["name"] == "assay"
    assert data["source"]["file_name"] == "p1.pdf" and data["source"]["input_format"] == "tei"
    assert data["metadata"]["doi"] == "10.3109/0284186x.2011.573626"  # bare, lower case
    assert data["author"][0]["orcid"] == "https://orcid.org/0000-0002-1825-0097"
    assert data["bib"][0]["year"] == 1995 and data["bib"][0]["first_page"] == "161"
    info = json.loads((tmp_path / "out" / "run_info.json").read_text())
    assert info["format"] == "bibr-12"
    dialect, export = read_export(data)
    assert dialect == BIBR_12 and export.extraction.producer == "GROBID"


def test_round_trip_keeps_what_the_metrics_read() -> None:
    record = paper(
        refs=[
            ref(
                "Cutaneous metastatic disease",
                year="1995",
                authors=("Schwartz",),
                pages="161-82",
                raw="Schwartz RA. Cutaneous metastatic disease. 1995;33:161-82.",
            ),
            ref("No raw string here", doi="10.1000/X.1", year="2001", authors=("Lee", "Kim")),
        ],
        sections=[{"type": "introduction", "title": "Intro", "text": "one\ntwo"}],
    )
    data = to_bibr12(
        record,
        paper_id="a",
        file_name="a.pdf",
        input_format="jats",
        sha256=None,
        converter=("assay", "0"),
        completed_at="2026-01-15T09:30:00Z",
    )
    _, back = read_export(data)
    first, second = back.references
    assert first.raw and first.raw.startswith("Schwartz RA.")  # kept as a text row
    assert (first.first_page, first.last_page) == ("161", "82")
    assert second.doi == "10.1000/x.1" and second.authors_text == "Lee, Kim"
    assert [s.type for s in back.sections] == ["intro", "references"]
    assert bibr_section_type("Conclusions") == "discussion"
    assert bibr_section_type("other") == "unknown"


def _scores(pred: Path, gold: Path, expected: Path) -> dict[str, Any]:
    run = assay.score("biblio", pred=pred, gold=[gold], expected_ids=expected, ci=False)
    return {i.id: i.scores for i in run.items}


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if not PMC.is_dir():
        pytest.skip("../shared/data/biblio is not laid beside the clone")
    root = tmp_path_factory.mktemp("bibr-format")
    dirs: dict[str, Path] = {}
    for fmt in ("assay", "bibr-12"):
        for name, args in (
            ("gold", ("jats-gold", "--jats-dir", str(PMC), "--glob", "*.gold.nxml")),
            ("grobid", ("grobid-tei", "--tei-dir", str(PMC))),
            ("cermine", ("jats-gold", "--jats-dir", str(PMC), "--glob", "*.cermine.xml", *CERMINE)),
        ):
            out = root / f"{name}-{fmt}"
            _cli(*args, "--out", str(out), "--format", fmt)
            dirs[f"{name}-{fmt}"] = out
    ids = sorted(p.stem for p in dirs["gold-assay"].glob("*.json") if p.name != "run_info.json")
    dirs["expected"] = root / "expected.json"
    dirs["expected"].write_text(json.dumps(ids))
    return dirs


@pytest.mark.parametrize("tool", ["grobid", "cermine"])
def test_pmc_scores_the_same_in_both_shapes(converted: dict[str, Path], tool: str) -> None:
    ours = _scores(converted[f"{tool}-assay"], converted["gold-assay"], converted["expected"])
    theirs = _scores(converted[f"{tool}-bibr-12"], converted["gold-bibr-12"], converted["expected"])
    assert len(ours) == 10 and ours == theirs


def test_pmc_bibr_files_validate_against_bibrs_models(converted: dict[str, Path]) -> None:
    models = bibr_models()
    if models is None:
        pytest.skip("bibr is not installed (pip install --no-deps bibr to run this check)")
    n = 0
    for key, d in converted.items():
        if key.endswith("bibr-12"):
            for path in d.glob("*.json"):
                if path.name != "run_info.json":
                    models.PaperExport.model_validate(json.loads(path.read_text()))
                    n += 1
    assert n == 30
