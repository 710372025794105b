"""read_source: the document of an id, kept inside the source folder; SourceText: the same
document read when its block is scored, digested and pickled as the string."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

import assay
from assay._engine.provenance import canonical_json, canonical_parts, json_sha256
from assay._engine.task import RUN_ERRORS
from assay.errors import InputError
from assay.suites.extraction._lib.sources import SourceText, read_source, source_file


def test_reads_the_first_suffix_present(tmp_path: Path) -> None:
    (tmp_path / "d1.md").write_text("markdown", encoding="utf-8")
    (tmp_path / "d1.text").write_text("text", encoding="utf-8")
    assert read_source(tmp_path, "d1") == "markdown"
    (tmp_path / "d1.txt").write_text("plain", encoding="utf-8")
    assert read_source(tmp_path, "d1") == "plain"
    assert read_source(tmp_path, "missing") is None


def test_a_folder_named_like_a_document_is_no_document(tmp_path: Path) -> None:
    (tmp_path / "d2.txt").mkdir()
    assert read_source(tmp_path, "d2") is None


@pytest.mark.parametrize("doc_id", ["../evil", "a/b", "x\\y", "nul\x00"])
def test_an_id_that_leaves_the_folder_is_refused(tmp_path: Path, doc_id: str) -> None:
    with pytest.raises(InputError, match="document id"):
        read_source(tmp_path, doc_id)


def test_links_inside_are_followed_and_links_out_refused(tmp_path: Path) -> None:
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "real.txt").write_text("inside", encoding="utf-8")
    (folder / "alias.txt").symlink_to(folder / "real.txt")
    assert read_source(folder, "alias") == "inside"
    (tmp_path / "secret.txt").write_text("outside", encoding="utf-8")
    (folder / "leak.txt").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(InputError, match="link out of the folder"):
        read_source(folder, "leak")
    (folder / "dangling.txt").symlink_to(folder / "nowhere.txt")
    assert read_source(folder, "dangling") is None


def test_a_linked_folder_is_read_through(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "d3.txt").write_text("via link", encoding="utf-8")
    (tmp_path / "linked").symlink_to(real, target_is_directory=True)
    assert read_source(tmp_path / "linked", "d3") == "via link"


def test_not_utf8_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe")
    with pytest.raises(InputError, match=r"bad\.txt: source document is not UTF-8"):
        read_source(tmp_path, "bad")


@pytest.mark.parametrize(
    "raw", [b"a\r\nb\rc\nd", b"\r\r\n\n\r", b"no newline", b"caf\xc3\xa9\r\n", b"\xef\xbb\xbfbom\r"]
)
def test_text_reads_as_read_text_does(tmp_path: Path, raw: bytes) -> None:
    (tmp_path / "nl.txt").write_bytes(raw)
    text = (tmp_path / "nl.txt").read_text(encoding="utf-8")
    assert read_source(tmp_path, "nl") == text
    found = source_file(tmp_path, "nl")
    assert found is not None  # its bytes as read (newlines made "\n") when they are ASCII
    assert found.ascii_bytes() == (text.encode("ascii") if text.isascii() else None)


def test_a_deferred_source_digests_and_pickles_as_its_text(tmp_path: Path) -> None:
    text = 'Between "Acme" and\tInitech\\ Corp.\n' * 40 + "caf\u00e9 \x01"
    (tmp_path / "d.txt").write_text(text, encoding="utf-8", newline="")
    for body in (text, text.encode("ascii", "ignore").decode()):  # non-ASCII, and ASCII
        (tmp_path / "d.txt").write_text(body, encoding="utf-8", newline="")
        deferred = source_file(tmp_path, "d")
        assert isinstance(deferred, SourceText) and deferred.text() == body
        assert deferred.ascii_bytes() == (body.encode() if body.isascii() else None)
        record = {"_object": {"a": [1, "x"]}, "_source_text": deferred, "_doc_class": "msa"}
        plain = {**record, "_source_text": body}
        assert json_sha256(record) == json_sha256(plain)
        assert b"".join(canonical_parts(record)) == canonical_json(plain).encode()
        assert canonical_json(record) == canonical_json(plain)
        assert pickle.loads(pickle.dumps(record)) == plain  # a plain string once pickled


def test_an_unreadable_source_stops_the_run_naming_the_file(tmp_path: Path) -> None:
    """Read when its block is scored, a non-UTF-8 document is still an error of the run (an
    InputError), not a failed item."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.txt").write_text("Acme Inc", encoding="utf-8")
    (tmp_path / "src" / "b.txt").write_bytes(b"Acme \xff")
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    rows = [{"id": i, "expected": {"party": "Acme Inc"}} for i in ("a", "b")]
    gold.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    pred.write_text(gold.read_text(encoding="utf-8").replace("expected", "predicted"))
    common = {"pred": pred, "gold": gold, "field_types": {"party": "name"}}
    with pytest.raises(InputError, match=r"b\.txt: source document is not UTF-8") as caught:
        assay.score("extraction", source=str(tmp_path / "src"), **common)
    assert isinstance(caught.value, RUN_ERRORS)  # what score_in_blocks lets through
    (tmp_path / "src" / "b.txt").write_text("Acme Inc", encoding="utf-8")
    run = assay.score("extraction", source=str(tmp_path / "src"), **common)
    assert run.cohort.failed == 0 and run.items[1].details["doc_verification"] is True
