"""The docs run: every sh and python block of README.md and docs/*.md, checked against its output.

The convention (one pytest case per page, so a failure names the page):

- a page runs top to bottom in a fresh temporary folder; state carries from block to block;
- ```` ```sh ```` blocks run in ``bash -e``; ``uv run X`` runs X from this project's environment
  (a ``uv`` shim on PATH that drops ``run`` and execs the rest with the venv first on PATH);
- ```` ```python ```` blocks run in one namespace per page, in order, with the page's folder
  as the working directory;
- a ```` ```text ```` block separated from the command block before it by blank lines only is
  that block's expected output (stdout and stderr as printed): lines are compared after
  stripping trailing whitespace; a line that is exactly ``...`` elides any number of lines and
  ``…`` inside a line matches any text;
- ``<!-- doc-test: skip: REASON -->`` right before a block: not run (the reason is required);
  ``<!-- doc-test: shared -->``: run only when ../shared/data exists, which the page sees at
  ``../shared`` as in a checkout laid beside it.

``uv run pytest tests/test_docs.py -k translation`` runs one page. The ``assay`` the pages run
is a fork server's client (``tests/doc_server.py``): the CLI's imports are paid once.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import SHARED
from tests.doc_server import CLIENT

ROOT = Path(__file__).resolve().parents[1]
#: the README, the topic pages in docs/ and each suite's own page (src/assay/suites/*/docs.md)
PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "src" / "assay" / "suites").glob("*/docs.md")),
]
RUN_LANGS = {"sh": "sh", "bash": "sh", "python": "python"}
#: a fenced block: its language and body; fences of 3+ backticks, closed by the same fence
FENCE = re.compile(
    r"^(?P<fence>```+)(?P<lang>[\w+-]*)[^\n]*\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.S | re.M
)
MARKER = re.compile(r"<!--\s*doc-test:\s*(?P<what>skip|shared)\s*(?::\s*(?P<reason>.*?))?\s*-->")
#: seconds one block may take
BLOCK_TIMEOUT = 300
UV_SHIM = """#!/usr/bin/env bash
# doc-test shim: `uv run X ...` runs X from the project's environment
if [ "$1" = run ]; then
  shift
  while [ "${1#--}" != "$1" ]; do shift; done  # uv's own options (--quiet, ...) are dropped
  exec "$@"
fi
echo "doc-test: only 'uv run ...' is available here, not 'uv $*'" >&2
exit 127
"""


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: where it starts, its language, body and marker."""

    line: int
    lang: str
    body: str
    marker: str | None  # "skip", "shared" or None
    reason: str | None
    expected: str | None  # the text block that directly follows, if any


def parse_blocks(text: str) -> list[Block]:
    """The page's runnable blocks with their markers and expected outputs."""
    fences = list(FENCE.finditer(text))
    blocks = []
    for k, m in enumerate(fences):
        lang = RUN_LANGS.get(m.group("lang").lower())
        if lang is None:
            continue
        before = text[fences[k - 1].end() if k else 0 : m.start()]
        marker = reason = None
        tail = before.rstrip()
        found = list(MARKER.finditer(tail))
        if found and tail.endswith(found[-1].group(0)):
            marker, reason = found[-1].group("what"), found[-1].group("reason")
        expected = None
        if k + 1 < len(fences):
            nxt = fences[k + 1]
            between = text[m.end() : nxt.start()]
            if nxt.group("lang").lower() == "text" and not between.strip():
                expected = nxt.group("body")
        line = text.count("\n", 0, m.start()) + 1
        blocks.append(Block(line, lang, m.group("body"), marker, reason, expected))
    return blocks


def _line_pattern(line: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in line.split("…")), re.S)


def output_matches(expected: str, actual: str) -> bool:
    """Line by line after stripping trailing whitespace; ``...`` elides lines, ``…`` text."""
    want = [line.rstrip() for line in expected.rstrip("\n").split("\n")]
    got = [line.rstrip() for line in actual.rstrip("\n").split("\n")]
    while got and not got[0]:
        got.pop(0)
    while want and not want[0]:
        want.pop(0)
    patterns = [None if w == "..." else _line_pattern(w) for w in want]
    memo: dict[tuple[int, int], bool] = {}

    def match(i: int, j: int) -> bool:
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(patterns):
            ok = j == len(got)
        elif patterns[i] is None:
            ok = any(match(i + 1, k) for k in range(j, len(got) + 1))
        else:
            pat = patterns[i]
            ok = j < len(got) and pat is not None and pat.fullmatch(got[j]) is not None
            ok = ok and match(i + 1, j + 1)
        memo[key] = ok
        return ok

    return match(0, 0)


@dataclass
class PageRunner:
    """Runs one page's blocks in ``work`` (a fresh folder with ``../shared`` beside it)."""

    page: Path
    work: Path
    env: dict[str, str]

    def __post_init__(self) -> None:
        self.namespace: dict[str, object] = {"__name__": "__doc__"}

    def run_sh(self, body: str) -> tuple[bool, str]:
        proc = subprocess.run(
            ["bash", "-e", "-o", "pipefail", "-c", body],
            cwd=self.work,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=BLOCK_TIMEOUT,
            check=False,
        )
        return proc.returncode == 0, proc.stdout + (
            "" if proc.returncode == 0 else f"\n[exit {proc.returncode}]"
        )

    def run_python(self, body: str, line: int) -> tuple[bool, str]:
        buf = io.StringIO()
        ok = True
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            try:
                code = compile(body, f"{self.page.name}:{line}", "exec")
                exec(code, self.namespace)
            except BaseException:  # a failing doc block is reported, never raised through
                ok = False
                buf.write(traceback.format_exc())
        return ok, buf.getvalue()


def _page_id(page: Path) -> str:
    """``README.md``, ``scale.md``, or ``translation/docs.md`` for a suite's page."""
    return page.name if page.name != "docs.md" else f"{page.parent.name}/docs.md"


def _env(bin_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASSAY_", "PYTEST_"))}
    venv_bin = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join([str(bin_dir), venv_bin, env.get("PATH", "")])
    env["PYTHONUNBUFFERED"] = "1"
    env["NO_COLOR"] = "1"
    env["TERM"] = "dumb"
    env.pop("COLUMNS", None)
    return env


@pytest.fixture(scope="module")
def doc_server() -> Iterator[str | None]:
    """The fork server's socket (None when it did not come up: the shim runs the real CLI)."""
    folder = tempfile.mkdtemp(prefix="assay-docs-")
    path = os.path.join(folder, "assay.sock")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASSAY_", "PYTEST_"))}
    proc = subprocess.Popen([sys.executable, "-m", "tests.doc_server", path], cwd=ROOT, env=env)
    deadline = time.monotonic() + 120
    while not os.path.exists(path) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield path if os.path.exists(path) else None
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_page_runs(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, doc_server: str | None
) -> None:
    blocks = parse_blocks(page.read_text(encoding="utf-8"))
    runnable = [b for b in blocks if b.marker != "skip"]
    for b in blocks:
        assert b.marker != "skip" or b.reason, f"{page.name}:{b.line}: skip marker without reason"
    if not runnable:
        pytest.skip(f"{page.name}: no runnable blocks")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "uv"
    shim.write_text(UV_SHIM, encoding="utf-8")
    shim.chmod(0o755)
    real = Path(sys.executable).parent / "assay"
    client = bin_dir / "assay"
    client.write_text(
        CLIENT.format(python=sys.executable, socket=doc_server or "", fallback=str(real)),
        encoding="utf-8",
    )
    client.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    if SHARED.exists():
        (tmp_path / "shared").symlink_to(SHARED)
    env = _env(bin_dir)
    # python blocks see what the sh blocks see: the page's folder, its own run store
    for key in [k for k in os.environ if k.startswith("ASSAY_")]:
        monkeypatch.delenv(key)
    monkeypatch.chdir(work)
    monkeypatch.syspath_prepend(str(work))
    runner = PageRunner(page, work, env)
    has_shared = (SHARED / "data").is_dir()
    for b in runnable:
        if b.marker == "shared" and not has_shared:
            continue
        if b.lang == "sh":
            ok, output = runner.run_sh(b.body)
        else:
            ok, output = runner.run_python(b.body, b.line)
        where = f"{page.name}:{b.line} ({b.lang} block)"
        assert ok, f"{where} failed:\n{b.body}\n--- output ---\n{output}"
        if b.expected is not None and not output_matches(b.expected, output):
            pytest.fail(
                f"{where}: the output differs from the text block after it\n"
                f"--- documented ---\n{b.expected}--- printed ---\n{output}",
                pytrace=False,
            )


def test_output_matching() -> None:
    assert output_matches("a\n...\nd\n", "a\nb\nc\nd\n")
    assert output_matches("a\n...\n", "a\n")
    assert output_matches("run 1f…3 written\n", "run 1f2a3 written  \n")
    assert not output_matches("a\nb\n", "a\nc\n")
    assert not output_matches("a\n", "a\nb\n")
    assert not output_matches("x…y\n", "xz\n")


def test_parse_blocks_markers_and_outputs() -> None:
    text = (
        "<!-- doc-test: skip: needs a GPU -->\n```sh\ngpu\n```\n\n"
        "```sh\necho hi\n```\n\n```text\nhi\n```\n\n"
        "<!-- doc-test: shared -->\n```python\nprint(1)\n```\nprose\n```text\n1\n```\n"
        "```yaml\na: 1\n```\n"
    )
    skip, echo, py = parse_blocks(text)
    assert (skip.marker, skip.reason) == ("skip", "needs a GPU")
    assert echo.marker is None and echo.expected == "hi\n"
    assert py.marker == "shared" and py.expected is None  # prose in between: not its output
