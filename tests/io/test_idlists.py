"""Tests for id lists: JSON expected-id files and plain one-id-a-line files."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay._io import read_expected_ids, read_ids_file
from assay.errors import InputError


def write(path: Path, data: bytes | str) -> Path:
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


# --------------------------------------------------------------------------- read_expected_ids


def test_expected_ids_list(tmp_path: Path) -> None:
    p = write(tmp_path / "ids.json", '["b", 1, "a", "b", "1", 2]')
    assert read_expected_ids(p) == ["b", "1", "a", "2"]


@pytest.mark.parametrize("key", ["members", "ids"])
def test_expected_ids_object(tmp_path: Path, key: str) -> None:
    p = write(tmp_path / "ids.json", f'{{"name": "dev", "{key}": ["x", "y"]}}')
    assert read_expected_ids(p) == ["x", "y"]


def test_expected_ids_bom_and_empty_list(tmp_path: Path) -> None:
    assert read_expected_ids(write(tmp_path / "a.json", b'\xef\xbb\xbf["x"]')) == ["x"]
    assert read_expected_ids(write(tmp_path / "b.json", "[]")) == []


@pytest.mark.parametrize(
    ("item", "found"),
    [("1.5", "float"), ("true", "boolean"), ("null", "null"), ("[1]", "array"),
     ('{"a": 1}', "object")],
)  # fmt: skip
def test_expected_ids_bad_item(tmp_path: Path, item: str, found: str) -> None:
    p = write(tmp_path / "ids.json", f'["a", {item}]')
    with pytest.raises(InputError, match=rf"ids\.json: id at index 1 .*found {found}"):
        read_expected_ids(p)


def test_expected_ids_bad_json_names_position(tmp_path: Path) -> None:
    p = write(tmp_path / "ids.json", '[\n  "a",\n  "b"\n')
    with pytest.raises(InputError, match=r"ids\.json: invalid JSON at line \d+ column \d+"):
        read_expected_ids(p)


@pytest.mark.parametrize(
    "text", ['{"name": "x"}', '{"ids": "a"}', '"a"', "3", '{"members": {"a": 1}}']
)
def test_expected_ids_wrong_shape(tmp_path: Path, text: str) -> None:
    with pytest.raises(InputError, match=r"ids\.json"):
        read_expected_ids(write(tmp_path / "ids.json", text))


def test_expected_ids_empty_missing_dir_and_encoding(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="empty"):
        read_expected_ids(write(tmp_path / "e.json", b""))
    with pytest.raises(InputError, match=r"nope\.json"):
        read_expected_ids(tmp_path / "nope.json")
    with pytest.raises(InputError, match="is a directory"):
        read_expected_ids(tmp_path)
    with pytest.raises(InputError, match="UTF-8 at line 2"):
        read_expected_ids(write(tmp_path / "u.json", b'[\n"\xff"]'))


# --------------------------------------------------------------------------- read_ids_file


def test_ids_file(tmp_path: Path) -> None:
    text = (
        "# header comment\n"
        "  a  \n"
        "\n"
        "b # trailing comment\n"
        "c\t# tab then comment\n"
        "   # indented comment\n"
        "d#e\n"
        "a\n"
        "f\r\n"
    )
    assert read_ids_file(write(tmp_path / "ids.txt", text)) == ["a", "b", "c", "d#e", "f"]


def test_ids_file_bom_empty_missing(tmp_path: Path) -> None:
    assert read_ids_file(write(tmp_path / "a.txt", b"\xef\xbb\xbfx\ny")) == ["x", "y"]
    assert read_ids_file(write(tmp_path / "e.txt", b"")) == []
    with pytest.raises(InputError, match=r"nope\.txt"):
        read_ids_file(tmp_path / "nope.txt")
    with pytest.raises(InputError, match="UTF-8"):
        read_ids_file(write(tmp_path / "u.txt", b"ok\n\xff\n"))
