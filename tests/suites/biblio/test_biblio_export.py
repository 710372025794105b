"""The export model: its JSON Schema in docs/ stays in step, and readers accept old exports."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from assay.suites.biblio._lib.export import (
    ExportError,
    export_json_schema,
    missing_blocks,
    paper_id,
    parse_export,
)
from tests.suites.biblio.biblio_helpers import paper

SCHEMA = Path(__file__).resolve().parents[3] / "docs" / "schemas" / "biblio-export.schema.json"


def test_schema_file_is_current() -> None:
    assert json.loads(SCHEMA.read_text(encoding="utf-8")) == export_json_schema()


def test_schema_validates_exports() -> None:
    schema = export_json_schema()
    jsonschema.validate(paper(), schema)
    jsonschema.validate(paper(block="info"), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"authors": "nobody"}, schema)


def test_info_block_read_as_metadata() -> None:
    export = parse_export(paper(title="Old style", block="info"))
    assert export.metadata.title == "Old style"


def test_numbers_and_strings_as_people() -> None:
    export = parse_export({"references": [{"year": 2011, "volume": 12, "authors": ["Smith, J"]}]})
    ref = export.references[0]
    assert (ref.year, ref.volume) == ("2011", "12")
    assert ref.authors[0].family_name() == "Smith"


@pytest.mark.parametrize(
    "record, message",
    [
        ({"unrelated": 1}, "not a paper export"),
        ({"metadata": {"title": ["a"]}}, "metadata.title"),
        ({"authors": [{"corresponding": "maybe"}]}, "authors.0.corresponding"),
    ],
)
def test_errors_name_the_field(record: dict[str, object], message: str) -> None:
    with pytest.raises(ExportError, match=message):
        parse_export(record)


def test_abstained_fields() -> None:
    assert parse_export(paper(abstained=("Title", "junk"))).abstained_fields() == {"title"}
    # as in bibr, a front-matter abstention leaves the DOI scored
    front = parse_export(paper(abstained=("front_matter",))).abstained_fields()
    assert front == {"title", "abstract", "authors", "keywords"}


def test_missing_blocks_and_paper_id() -> None:
    assert missing_blocks({"info": {}}) == ["authors", "references"]
    assert paper_id("aas0055-0039.grobid.tei.xml") == "aas0055-0039"
    assert paper_id("2020.acl-main.207.grobid.tei") == "2020.acl-main.207"
    assert paper_id("x.gold") == "x"
