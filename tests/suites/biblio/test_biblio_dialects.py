"""bibr's export shapes (12.x, 11.x, before 11) and section gold, read as they are, on the
examples of ``assay.suites.biblio.examples``; unknown schemas and absent blocks are listed
failures."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import assay
from assay._engine.run import Run
from assay.suites.biblio._lib.dialects import BIBR_10, BIBR_11, BIBR_12, detect, read_section_gold
from assay.suites.biblio._lib.export import ExportError
from assay.suites.biblio._lib.report import metadata_view
from assay.suites.biblio.examples import write_demo
from tests.suites.biblio.biblio_helpers import bibr_models, write

DIALECT_DIRS = {"pred-bibr12": BIBR_12, "pred-bibr11": BIBR_11, "pred-bibr10": BIBR_10}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("biblio-demo")
    write_demo(out)
    return out


def _score(demo: Path, pred: Path | str, **kw: Any) -> Run:
    return assay.score(
        "biblio",
        pred=demo / pred if isinstance(pred, str) else pred,
        gold=[demo / "gold"],
        expected_ids=demo / "expected.json",
        ci=False,
        **kw,
    )


def test_examples_are_deterministic(demo: Path, tmp_path: Path) -> None:
    again = write_demo(tmp_path)
    for path in again:
        assert path.read_bytes() == (demo / path.relative_to(tmp_path)).read_bytes()


@pytest.mark.parametrize("directory", sorted(DIALECT_DIRS))
def test_bibr_exports_score_as_their_assay_translation(demo: Path, directory: str) -> None:
    ours = _score(demo, "pred-assay")
    theirs = _score(demo, directory)
    assert [(i.id, i.status, i.scores) for i in theirs.items] == [
        (i.id, i.status, i.scores) for i in ours.items
    ]
    # detection is per file and recorded, per paper and in the summary
    assert theirs.summaries["dialects"]["predictions"] == {DIALECT_DIRS[directory]: 2}
    assert {i.details.get("dialect") for i in theirs.items if i.status == "ok"} == {
        DIALECT_DIRS[directory]
    }
    view = metadata_view(theirs, predictions_dir=directory)
    assert view["dialects"]["predictions"] == {DIALECT_DIRS[directory]: 2}


def test_example_scores(demo: Path) -> None:
    run = _score(demo, "pred-bibr12")
    scores = {i.id: i.scores for i in run.items}
    one = scores["soil-001"]
    assert one["authors_fullname_f1"] == pytest.approx(0.8)  # "N. King" ~ "Nicole King"; Lima lost
    assert one["ref_pages_acc"] == pytest.approx(2 / 3)  # 161-82 printed, gold 161-182
    assert scores["soil-002"]["keywords_f1"] == 0.0 and scores["soil-002"]["pass"] == 1.0
    assert run.summaries["pass_rate"] == pytest.approx(1 / 3)
    missing = scores["soil-003"]
    assert run.cohort.missing_ids == ["soil-003"] and missing["doi_match"] == 0.0


def test_one_directory_may_mix_dialects(demo: Path, tmp_path: Path) -> None:
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "soil-001.json").write_bytes((demo / "pred-bibr12" / "soil-001.json").read_bytes())
    (mixed / "soil-002.json").write_bytes((demo / "pred-bibr10" / "soil-002.json").read_bytes())
    run = _score(demo, mixed)
    assert run.summaries["dialects"]["predictions"] == {BIBR_10: 1, BIBR_12: 1}


def _bibr12(demo: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((demo / "pred-bibr12" / "soil-001.json").read_text())
    return data


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(schema_version="13.0"), "unknown schema '13.0'"),
        (lambda d: d.update(schema_version=12), "unknown schema 12"),
        (lambda d: d.pop("bib"), "required 'bib' block"),
        (lambda d: d.pop("author"), "required 'author' block"),
        (lambda d: d.pop("extraction"), "required 'extraction' block"),
        (lambda d: d.update(bib={"not": "a list"}), "field bib: expected a JSON array"),
        (lambda d: d["author"][0].update(corresponding="maybe"), "field author.0.corresponding"),
    ],
)
def test_unknown_schema_or_absent_block_is_a_listed_failure(
    demo: Path, tmp_path: Path, change: Any, message: str
) -> None:
    data = copy.deepcopy(_bibr12(demo))
    change(data)
    pred = write(tmp_path / "p", "soil-001.json", data).parent
    run = _score(demo, pred)
    item = next(i for i in run.items if i.id == "soil-001")
    assert item.status == "failed" and item.scores["pass"] == 0.0
    assert message in (item.error or "") and (item.source or "").endswith("soil-001.json")
    view = metadata_view(run, predictions_dir=str(pred))
    assert view["papers_failed"] == 1
    assert view["failed"][0]["where"].endswith("soil-001.json")


def test_detect_without_schema_version() -> None:
    assert detect({"info": {}, "author": [], "bib": []}) == BIBR_10
    with pytest.raises(ExportError, match="unknown schema"):
        detect({"schema_version": "9.1"})


def test_source_file_name_pairs_a_renamed_prediction(demo: Path, tmp_path: Path) -> None:
    data = _bibr12(demo)
    data["metadata"]["doi"] = None  # no DOI: the file name decides, from source.file_name
    pred = write(tmp_path / "p", "batch-0001.json", data).parent
    run = _score(demo, pred)
    item = next(i for i in run.items if i.id == "soil-001")
    assert item.status == "ok" and (item.source or "").endswith("batch-0001.json")
    assert run.cohort.unmatched_ids == []


def test_front_matter_abstention_keeps_doi_scored(demo: Path, tmp_path: Path) -> None:
    data = _bibr12(demo)
    data["extraction"]["validation"] = {
        "errors": 1,
        "warnings": 0,
        "issues": [
            {
                "code": "VAL_METADATA_MULTI_ITEM",
                "severity": "error",
                "message": "two candidate records",
                "count": 1,
                "blocking": True,
            }
        ],
    }
    pred = write(tmp_path / "p", "soil-001.json", data).parent
    item = next(i for i in _score(demo, pred).items if i.id == "soil-001")
    assert "abstained" in item.flags and item.scores["pass"] == 0.0
    assert item.scores["title_soft"] is None and item.scores["authors_fullname_f1"] is None
    assert item.scores["doi_match"] == 1.0  # bibr: the DOI survives a front-matter abstention


def test_bibr_section_gold(demo: Path) -> None:
    run = assay.score(
        "biblio",
        pred=demo / "pred-bibr12",
        gold=[demo / "section-gold"],
        mode="sections",
        ci=False,
    )
    assert [i.id for i in run.items] == ["soil-001"]
    assert run.items[0].scores["layout_recall"] == 1.0
    assert run.items[0].scores["section_recall"] == 1.0
    artifact = json.loads((demo / "section-gold" / "soil-001.sectiongold.json").read_text())
    artifact["sections"]["method"]["provenance"] = "unanchored"
    _, export = read_section_gold(artifact)
    assert [s.type for s in export.sections] == ["intro"]  # bibr leaves unanchored ones out
    with pytest.raises(ExportError, match="text_layer_usable"):
        read_section_gold({**artifact, "text_layer_usable": False})
    with pytest.raises(ExportError, match="'sections'"):
        read_section_gold({"paper_id": "x"})


def test_examples_validate_against_bibrs_own_models(demo: Path) -> None:
    models = bibr_models()
    if models is None:
        pytest.skip("bibr is not installed (pip install --no-deps bibr to run this check)")
    for path in sorted((demo / "pred-bibr12").glob("*.json")):
        data = json.loads(path.read_text())
        models.PaperExport.model_validate(data)  # bibr's strict producer contract
        models.PaperExportReader.model_validate(data)


def test_section_types_compare_under_bibrs_names(demo: Path, tmp_path: Path) -> None:
    """JATS gold says "introduction"/"methods", a bibr export "intro"/"method": one type each."""
    artifact = json.loads((demo / "section-gold" / "soil-001.sectiongold.json").read_text())
    renamed = {"intro": "introduction", "method": "methods"}
    sections = [
        {"type": renamed[kind], "text": entry["text"]}
        for kind, entry in artifact["sections"].items()
    ]
    gold = write(tmp_path / "sg", "soil-001.sectiongold.json", {"sections": sections}).parent
    run = assay.score("biblio", pred=demo / "pred-bibr12", gold=[gold], mode="sections", ci=False)
    assert run.items[0].scores["section_recall"] == 1.0
    assert set(run.summaries["per_type_recall"]) == {"intro", "method"}
