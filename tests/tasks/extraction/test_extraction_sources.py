"""read_source: the document of an id, kept inside the source folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.errors import InputError
from assay.tasks.extraction.sources import read_source


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
    assert read_source(tmp_path, "nl") == (tmp_path / "nl.txt").read_text(encoding="utf-8")
