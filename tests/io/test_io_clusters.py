"""Cluster maps from --clusters files: JSON, two-column TSV/CSV (WMT docids), one column."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import SHARED

from assay._io.clusters import read_cluster_map
from assay.errors import InputError


def test_two_column_tsv_with_header(tmp_path: Path) -> None:
    p = tmp_path / "c.tsv"
    p.write_text("id\tcluster\na\tk1\nb\tk1\nc\tk2\n")
    m = read_cluster_map(p)
    assert m.labels_for(["c", "a", "b"]) == ("k2", "k1", "k1")
    with pytest.raises(InputError, match=r"no cluster for 1 of 2 item\(s\), e.g. 'zz'"):
        m.labels_for(["a", "zz"])


def test_json_and_one_column(tmp_path: Path) -> None:
    j = tmp_path / "c.json"
    j.write_text('{"x": "doc1", "y": 7}')
    assert read_cluster_map(j).labels_for(["y", "x"]) == ("7", "doc1")
    one = tmp_path / "docs.txt"
    one.write_text("d1\nd1\nd2\n")
    assert read_cluster_map(one).labels_for(["1", "2", "3"]) == ("d1", "d1", "d2")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a\tk1\nb\n", r"c.tsv:2: expected 'id'\\t'cluster'"),
        ("a\tk1\na\tk2\n", "c.tsv:2: id 'a' is in cluster 'k1' and 'k2'"),
        ("", "no clusters"),
    ],
)
def test_bad_maps_name_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    p = tmp_path / "c.tsv"
    p.write_text(text)
    with pytest.raises(InputError, match=message):
        read_cluster_map(p).labels_for(["a"]) if text.strip() else read_cluster_map(p)


def test_bad_json(tmp_path: Path) -> None:
    p = tmp_path / "c.json"
    p.write_text('{"a": [1]}')
    with pytest.raises(InputError, match="cluster of 'a' must be a string or integer, got array"):
        read_cluster_map(p)


@pytest.mark.skipif(not (SHARED / "data").exists(), reason="needs ../shared/data")
def test_wmt22_docids_map_line_numbers() -> None:
    """WMT22 cs-en: 1,448 segments in 137 documents, ids 0-based in the file, 1-based lines."""
    path = SHARED / "data/mt/wmt22/cs-en/generaltest2022.cs-en.docids.tsv"
    m = read_cluster_map(path)
    labels = m.labels_for([str(k) for k in range(1, 1449)])
    assert len(labels) == 1448 and len(set(labels)) == 137
    assert labels[0] == "mediafax.cz.17807"
