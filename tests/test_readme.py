"""The docs' CLI reference matches --help (tests/test_docs.py runs every other block)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from assay._cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: every markdown file whose ``<!-- help: CMD -->`` blocks must match ``assay CMD --help``: the
#: README, the topic pages in docs/ and each suite's own page
DOCS = [
    README,
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "src" / "assay" / "suites").glob("*/docs.md")),
]
#: a help block: the marker, a ```text fence, the help text (possibly still empty), and a closing
#: fence alone on its line — never a fence that opens the next block
HELP_BLOCK = re.compile(r"<!-- help: (.*?) -->\n```text\n(.*?)^```$", re.S | re.M)


def _help(command: str) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        main([*command.split(), "--help"])
    return buf.getvalue().rstrip()


@pytest.mark.parametrize(
    "doc", DOCS, ids=lambda p: p.name if p.name != "docs.md" else f"{p.parent.name}/docs.md"
)
def test_cli_reference_matches_help(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    blocks = HELP_BLOCK.findall(text)
    if doc == README:
        assert len(blocks) >= 8
    for command, documented in blocks:
        assert documented.rstrip("\n") == _help(command.strip()), (
            f"{doc.name}: help for {command!r} is stale"
        )


def rewrite_readme() -> None:
    """Refresh every help block in README.md and docs/: ``uv run python -m tests.test_readme``."""

    def block(m: re.Match[str]) -> str:
        return f"<!-- help: {m.group(1)} -->\n```text\n{_help(m.group(1).strip())}\n```"

    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        new = HELP_BLOCK.sub(block, text)
        if new != text:
            doc.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    rewrite_readme()
