"""The evaluator's commit: assay's own checkout, found from the package, never the cwd."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from assay._engine import provenance
from assay._engine.provenance import assay_checkout, evaluator, git_commit

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


def _four_calls(package: Path) -> str | None:
    """The commit as the four ``git`` calls before it was one ``status`` computed it: the
    top-level, the package tracked there, HEAD, and a change to a tracked file."""
    try:
        top = Path(_git(package, "rev-parse", "--show-toplevel"))
        _git(top, "ls-files", "--error-unmatch", str(package / "__init__.py"))
        head = _git(top, "rev-parse", "HEAD")
        dirty = _git(top, "status", "--porcelain", "--untracked-files=no")
    except subprocess.CalledProcessError:
        return None
    return f"{head}+dirty" if dirty else head or None


def test_one_status_names_the_commit_as_the_four_calls_did(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unborn HEAD, clean, an untracked file, a staged change, a change in the work tree, a
    deleted file, packed refs, a detached HEAD and a linked work tree (``git worktree``, as
    this checkout's helpers use): the same commit and dirty mark either way."""
    repo = tmp_path / "repo"
    package = repo / "src" / "assay"
    (package / "core").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "core" / "x.py").write_text("x = 1\n")
    _git(repo.parent, "init", "-q", str(repo))
    commit = ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm"]

    def check(where: Path) -> str | None:
        monkeypatch.setattr(provenance, "__file__", str(where / "core" / "provenance.py"))
        ours = git_commit()
        assert ours == _four_calls(where)
        return ours

    assert check(package) is None  # nothing committed: the package is untracked
    _git(repo, "add", ".")
    assert check(package) is None  # tracked, but no HEAD yet
    _git(repo, *commit, "first")
    head = _git(repo, "rev-parse", "HEAD")
    assert check(package) == head
    (repo / "notes.txt").write_text("untracked")
    assert check(package) == head  # untracked files do not make it dirty
    (package / "core" / "x.py").write_text("x = 2\n")
    assert check(package) == head + "+dirty"  # a change in the work tree
    _git(repo, "add", "src")
    assert check(package) == head + "+dirty"  # the same change, staged
    _git(repo, *commit, "second")
    head = _git(repo, "rev-parse", "HEAD")
    _git(repo, "pack-refs", "--all")
    assert check(package) == head  # a packed branch ref
    (package / "core" / "x.py").unlink()
    assert check(package) == head + "+dirty"  # a deleted file
    _git(repo, "checkout", "-q", "--", ".")
    _git(repo, "checkout", "-q", "--detach", "HEAD~1")
    assert check(package) == _git(repo, "rev-parse", "HEAD")  # detached
    linked = tmp_path / "linked"
    _git(repo, "worktree", "add", "-q", "--detach", str(linked), head)
    assert check(linked / "src" / "assay") == head
    (linked / "src" / "assay" / "core" / "x.py").write_text("x = 3\n")
    assert check(linked / "src" / "assay") == head + "+dirty"
    assert check(package) != head  # the main work tree is its own
