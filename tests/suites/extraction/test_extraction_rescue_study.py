"""The embedding-rescue study on CUAD spans, with the real wordllama model (offline)."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

import pytest
from click.testing import CliRunner

from assay._cli.app import build_cli
from assay._fields.embedding import load_embedding_model
from assay.errors import InputError
from assay.suites.extraction._lib.rescue_study import CLAUSE_CATEGORIES, alias_pairs, rescue_study
from tests.fields.test_fields_cuad import MASTER

needs_wordllama = pytest.mark.skipif(
    importlib.util.find_spec("wordllama") is None, reason="wordllama (extra [semantic]) absent"
)
needs_cuad = pytest.mark.skipif(not MASTER.is_file(), reason=f"CUAD data not found at {MASTER}")


def _tiny(path: Path) -> Path:
    header = ["Filename", "Parties-Answer", *CLAUSE_CATEGORIES]
    rows = [
        ["a.pdf", 'ACME CORPORATION ("Acme"); ZENITH LLC ("Licensee")',
         "['Licensor grants Licensee a license to use the Software in the Territory']",
         "[]", "[]", "['This Agreement is governed by the laws of New York.']", "[]"],
        ["b.pdf", 'I-ESCROW, INC. ("i-Escrow")',
         "['The Company grants a royalty-free license to the Marks']",
         "[]", "[]", "['Governed by the laws of the State of Texas.']", "[]"],
    ]  # fmt: skip
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    return path


def test_alias_pairs_from_the_parties_answer(tmp_path: Path) -> None:
    with _tiny(tmp_path / "m.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    same, other = alias_pairs(rows)
    assert same == [("Acme", "ACME CORPORATION"), ("Licensee", "ZENITH LLC"),
                    ("i-Escrow", "I-ESCROW, INC.")]  # fmt: skip
    assert other == [("Acme", "I-ESCROW, INC."), ("i-Escrow", "ACME CORPORATION")]


def test_not_a_master_clauses_file(tmp_path: Path) -> None:
    bad = tmp_path / "x.csv"
    bad.write_text("a,b\n1,2\n", encoding="utf-8")
    embedder = type("E", (), {"encode": lambda self, s: [[1.0, 0.0] for _ in s]})()
    with pytest.raises(InputError, match=r"not CUAD's master_clauses\.csv"):
        rescue_study(bad, embedder)


@needs_wordllama
def test_tiny_study_with_wordllama(tmp_path: Path) -> None:
    embedder, status = load_embedding_model("wordllama", None)
    assert embedder is not None, status.reason
    rows = rescue_study(_tiny(tmp_path / "m.csv"), embedder)
    by = {(r.kind, r.category): r for r in rows}
    assert by[("names / same party", "Parties")].n_pairs == 3
    assert all(r.rescued <= r.string_misses <= r.n_pairs for r in rows)
    # deterministic: the same model gives the same counts
    assert rescue_study(_tiny(tmp_path / "m.csv"), embedder) == rows


@needs_wordllama
@needs_cuad
def test_cuad_figures_of_the_docs(tmp_path: Path) -> None:
    """The figures suites/extraction/docs.md reports (wordllama l2_supercat_256)."""
    embedder, _ = load_embedding_model("wordllama", None)
    assert embedder is not None
    by = {(r.kind, r.category): r for r in rescue_study(MASTER, embedder)}
    same, other = by[("names / same party", "Parties")], by[("names / other contract", "Parties")]
    assert (same.n_pairs, same.string_misses, same.rescued) == (1012, 617, 7)
    assert (other.n_pairs, other.string_misses, other.rescued) == (835, 814, 2)
    gl = by[("clause / other contract", "Governing Law")]
    assert (gl.n_pairs, gl.rescued) == (437, 151)
    out = tmp_path / "study.json"
    result = CliRunner().invoke(
        build_cli(), ["extraction", "rescue-study", str(MASTER), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "embedding rescue: on (wordllama l2_supercat_256)" in result.output
    assert out.is_file()
