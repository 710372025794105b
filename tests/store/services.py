"""Test helpers shared by the store, report and dashboard tests: demo runs, a throwaway
PostgreSQL server and a headless Chromium. A missing service skips with the reason, and
ASSAY_REQUIRE_SERVICES=1 (set by .ci/run) turns that skip into a failure."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import assay
from assay._engine.run import Run
from assay.suites.classification.examples import write_classification_demo
from tests.conftest import write_jsonl

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
XSS = "<script>window.__xss = 1; alert('xss')</script>"
XSS_IMG = '<img src=x onerror="window.__xss = 2">'


def require_service(available: bool, reason: str) -> None:
    """Skip with ``reason`` when a service is missing, or fail under ASSAY_REQUIRE_SERVICES=1."""
    if available:
        return
    if os.environ.get("ASSAY_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{reason} (ASSAY_REQUIRE_SERVICES=1)")
    pytest.skip(reason)


@dataclass(frozen=True)
class DemoRuns:
    """baseline and candidate on one surface; subset (fewer items) and reseeded on others;
    hostile: a run whose name and predictions carry script tags."""

    baseline: Run
    candidate: Run
    subset: Run
    reseeded: Run
    hostile: Run
    folder: Path


def make_demo_runs(folder: Path) -> DemoRuns:
    files = write_classification_demo(folder)
    common: dict[str, Any] = {"gold": files.gold, "expected_ids": files.expected_ids}
    base = assay.score("classification", pred=files.baseline, name="baseline", **common)
    cand = assay.score("classification", pred=files.candidate, name="candidate", **common)
    ids = [line for line in files.gold.read_text().splitlines()][:150]
    subset_ids = folder / "subset_ids.txt"
    import json

    subset_ids.write_text("\n".join(json.loads(x)["id"] for x in ids) + "\n")
    subset = assay.score(
        "classification", pred=files.candidate, gold=files.gold, ids_file=subset_ids, name="subset"
    )
    reseeded = assay.score(
        "classification", pred=files.candidate, name="reseeded", seed=7, **common
    )
    gold = write_jsonl(
        folder / "hostile_gold.jsonl",
        [{"id": f"h{i}", "expected": lab} for i, lab in enumerate(["memo", "letter"] * 10)],
    )
    preds = [{"id": f"h{i}", "predicted": "memo"} for i in range(20)]
    preds[1]["predicted"] = XSS
    preds[3]["predicted"] = XSS_IMG
    preds.append({"id": "<b>orphan</b>", "predicted": XSS})
    pred = write_jsonl(folder / "hostile.jsonl", preds)
    (folder / "hostile.jsonl").open("a").write("{not json <script>\n")
    hostile = assay.score("classification", pred=pred, gold=gold, name=f"hostile {XSS}")
    return DemoRuns(base, cand, subset, reseeded, hostile, folder)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


@contextmanager
def postgres_server() -> Iterator[str]:
    """initdb + pg_ctl start on 127.0.0.1 in a temporary folder; yields a SQLAlchemy URL."""
    bindir = _pg_bin()
    require_service(bindir is not None, "PostgreSQL is not installed (no initdb)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        require_service(False, "psycopg is not installed (the 'postgres' extra)")
    assert bindir is not None
    root = Path(tempfile.mkdtemp(prefix="assay-pg-"))
    data = root / "data"
    as_root = os.geteuid() == 0
    prefix: list[str] = []
    if as_root:
        import pwd

        user = pwd.getpwnam("postgres")
        os.chown(root, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    port = free_port()

    def run(*args: str) -> None:
        subprocess.run([*prefix, *args], check=True, capture_output=True, timeout=120)

    try:
        run(str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "assay", "-E", "UTF8")
        run(
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(root / "log.txt"),
            "-w",
            "-o",
            f"-h 127.0.0.1 -p {port} -k {root} -c fsync=off",
            "start",
        )
    except subprocess.CalledProcessError as err:
        shutil.rmtree(root, ignore_errors=True)
        pytest.fail(f"could not start PostgreSQL: {err.stderr.decode(errors='replace')}")
    try:
        yield f"postgresql+psycopg://assay@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
        )
        time.sleep(0.1)
        shutil.rmtree(root, ignore_errors=True)


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@contextmanager
def browser_context() -> Iterator[Any]:
    """A headless system Chromium driven by Playwright (never a downloaded browser)."""
    path = chromium_path()
    require_service(path is not None, "Chromium is not installed")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        require_service(False, "playwright (Python) is not installed")
    profile = tempfile.mkdtemp(prefix="assay-chromium-")
    try:
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                profile,
                executable_path=path,
                headless=True,
                args=CHROMIUM_ARGS,
                viewport={"width": 1280, "height": 900},
                offline=False,
            )
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def screenshot_dir(tmp_path: Path) -> Path:
    """Where browser tests put screenshots: docs/img when ASSAY_UPDATE_SCREENSHOTS=1 (to refresh
    the docs), else a temporary folder, so a test run never changes the checkout."""
    if os.environ.get("ASSAY_UPDATE_SCREENSHOTS") == "1":
        target = Path(__file__).resolve().parents[2] / "docs" / "img"
    else:
        target = tmp_path / "img"
    target.mkdir(parents=True, exist_ok=True)
    return target
