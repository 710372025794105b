"""The evaluator's commit: assay's own checkout, found from the package, never the cwd."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from assay.core import provenance
from assay.core.provenance import assay_checkout, evaluator, git_commit

CHECKOUT = assay_checkout()


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout.strip()


@pytest.mark.skipif(CHECKOUT is None, reason="assay is not run from a git checkout of itself")
def test_commit_is_assays_own_whatever_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert CHECKOUT is not None
    other = tmp_path / "other-project"
    other.mkdir()
    _git(other, "init", "-q")
    (other / "x.txt").write_text("x")
    _git(other, "add", "x.txt")
    _git(other, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
    other_head = _git(other, "rev-parse", "HEAD")
    ours = _git(CHECKOUT, "rev-parse", "HEAD")
    for cwd in (other, tmp_path):  # inside another repository, and outside any
        monkeypatch.chdir(cwd)
        commit = git_commit()
        assert commit is not None and commit.split("+")[0] == ours != other_head
    assert git_commit(other) == other_head  # an explicit directory is still honoured


def test_no_checkout_means_no_commit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(provenance, "assay_checkout", lambda: None)
    assert git_commit() is None
    assert evaluator("0.1.0", None) == "assay 0.1.0"
    assert evaluator("0.1.0", "abc123+dirty") == "assay 0.1.0 (git abc123+dirty)"


def test_untracked_package_directory_is_not_a_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A virtualenv inside another project: the repository around the package does not track
    it, so its HEAD is not the evaluator's commit."""
    repo = tmp_path / "project"
    package = repo / ".venv" / "lib" / "assay"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "core").mkdir()
    _git(repo, "init", "-q")
    monkeypatch.setattr(provenance, "__file__", str(package / "core" / "provenance.py"))
    assert assay_checkout() is None
