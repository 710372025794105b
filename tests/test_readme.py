"""The README stays true: its CLI reference matches --help and its Python example runs."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from assay.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def _help(command: str) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        main([*command.split(), "--help"])
    return buf.getvalue().rstrip()


def test_cli_reference_matches_help() -> None:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"<!-- help: (.*?) -->\n```text\n(.*?)\n```", text, re.S)
    assert len(blocks) >= 8
    for command, documented in blocks:
        assert documented == _help(command.strip()), f"README help for {command!r} is stale"


def test_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = README.read_text(encoding="utf-8")
    code = re.findall(r"```python\n(.*?)```", text, re.S)
    assert code
    monkeypatch.chdir(tmp_path)
    for block in code:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, "README.md", "exec"), {})
    assert (tmp_path / "api-demo" / "candidate.run.json").is_file()


def rewrite_readme() -> None:
    """Refresh every help block in README.md: ``uv run python -m tests.test_readme``."""
    text = README.read_text(encoding="utf-8")

    def block(m: re.Match[str]) -> str:
        return f"<!-- help: {m.group(1)} -->\n```text\n{_help(m.group(1).strip())}\n```"

    README.write_text(
        re.sub(r"<!-- help: (.*?) -->\n```text\n(.*?)\n```", block, text, flags=re.S),
        encoding="utf-8",
    )


if __name__ == "__main__":
    rewrite_readme()
