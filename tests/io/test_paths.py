"""Ids turned into file names stay inside their folder (assay._io.paths)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from assay._io.paths import confined, unsafe_name
from assay.errors import InputError


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("../evil", "a path separator"),
        ("/etc/passwd", "a path separator"),
        ("a\\..\\b", "a path separator"),
        ("..", "the name '..'"),
        (".", "the name '.'"),
        ("", "empty name"),
        ("  ", "empty name"),
        ("a\x00b", "a NUL character"),
    ],
)
def test_unsafe_names(name: str, problem: str) -> None:
    assert unsafe_name(name) == problem


def test_plain_names_and_links(tmp_path: Path) -> None:
    assert confined(tmp_path, "doc 1.txt") == tmp_path / "doc 1.txt"
    assert confined(tmp_path, "...pdf") == tmp_path / "...pdf"
    outside = tmp_path.parent / f"{tmp_path.name}-outside.txt"
    outside.write_text("secret")
    os.symlink(outside, tmp_path / "link.txt")
    with pytest.raises(InputError, match="a link out of the folder"):
        confined(tmp_path, "link.txt", what="document id")
