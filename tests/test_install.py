"""The README's install from a built wheel, run as written in a scratch environment (issue 36).

The README's two install blocks (marked ``tests/test_install.py``) are read from the page and
run with the real ``uv`` (the docs run shims it), the wheel's folder and the environment moved
under a temporary folder: the wheel is built from this checkout, installed with the locked
versions as constraints, and must bring exactly the runtime's packages (the lock's closure
without the dev group and the extras: 43 with assay-eval itself), run ``assay --version``,
``assay demo`` and a stored ``assay score`` (the store's migrations travel in the wheel). The
extras block runs with ``--dry-run``. uv's cache is used offline first (what ``uv sync`` left
in it), the index only when the cache lacks something. ~10–60 s.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: a block the README marks as this test's, and the fenced sh body after the marker
BLOCK = re.compile(
    r"<!-- doc-test: skip: run (?P<how>as written|by tests/test_install\.py with --dry-run)"
    r"[^>]*-->\n```sh\n(?P<body>.*?)^```",
    re.S | re.M,
)
#: the README's names for the wheel's folder and the environment
DIST = re.compile(r"(?<![\w/.~-])dist(?=/|\s|$)")
ENV = "~/.venvs/assay"


def _blocks() -> tuple[str, str]:
    """(the install block, the extras block) as the README writes them."""
    found = {m["how"]: m["body"] for m in BLOCK.finditer(README.read_text(encoding="utf-8"))}
    return found["as written"], found["by tests/test_install.py with --dry-run"]


def _moved(body: str, tmp: Path) -> str:
    """The block with its wheel folder and environment under ``tmp``."""
    return DIST.sub(str(tmp / "dist"), body.replace(ENV, str(tmp / "env")))


def _uv() -> str:
    uv = shutil.which("uv")
    if uv is None:
        if os.environ.get("ASSAY_REQUIRE_SERVICES"):
            pytest.fail("uv is not on PATH")
        pytest.skip("uv is not on PATH")
    return uv


def _env(**extra: str) -> dict[str, str]:
    """This process's environment without this project's venv or pytest's variables."""
    drop = ("VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT", "PYTHONPATH", "ASSAY_", "PYTEST_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    venv_bin = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    return {**env, **extra}


def _bash(body: str, cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", body],
        cwd=cwd,
        env=_env(**extra),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _run_block(body: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The block offline (uv's cache), else with the index when the cache lacks something."""
    done = _bash(body, cwd, UV_OFFLINE="1")
    if done.returncode != 0 and "network" in done.stderr.lower():
        done = _bash(body, cwd, UV_VENV_CLEAR="1")  # the first try's environment is replaced
    return done


def _runtime(uv: str, tmp: Path) -> set[str]:
    """The lock's runtime closure for this interpreter: package names, normalized."""
    from packaging.requirements import Requirement

    out = tmp / "runtime.txt"
    args = ["export", "--frozen", "--no-dev", "--no-emit-project", "--no-hashes", "-q"]
    subprocess.run([uv, *args, "-o", str(out)], cwd=ROOT, env=_env(), check=True)
    names = set()
    for line in out.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate():
            names.add(_norm(req.name))
    return names


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_readme_wheel_install_works_as_written(tmp_path: Path) -> None:
    uv = _uv()
    install, extras = _blocks()
    done = _run_block(_moved(install, tmp_path), ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == "assay, version 0.1.0"  # its last line

    env = tmp_path / "env"
    listed = subprocess.run(
        [uv, "pip", "list", "--python", str(env), "--format", "json"],
        env=_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    installed = {_norm(p["name"]) for p in json.loads(listed.stdout)}
    expected = _runtime(uv, tmp_path) | {"assay-eval"}
    assert installed == expected, (sorted(installed - expected), sorted(expected - installed))
    said = re.search(r"bring the (\d+) runtime packages", README.read_text(encoding="utf-8"))
    assert said is not None and int(said[1]) == len(installed)  # the README's count

    work = tmp_path / "work"
    work.mkdir()
    assay = str(env / "bin" / "assay")
    store = f"sqlite:///{tmp_path / 'store.db'}"
    demo = subprocess.run(
        [assay, "demo"], cwd=work, env=_env(ASSAY_STORE=store), capture_output=True, text=True
    )
    assert demo.returncode == 0, demo.stdout + demo.stderr
    assert (work / "assay-demo" / "candidate.run.json").is_file()
    args = ["score", "classification", "--pred", "assay-demo/candidate.jsonl"]
    scored = subprocess.run(
        [assay, *args, "--gold", "assay-demo/gold.jsonl", "--store", store, "--no-ci"],
        cwd=work,
        env=_env(),
        capture_output=True,
        text=True,
    )
    assert scored.returncode == 0, scored.stdout + scored.stderr
    assert "stored as" in scored.stdout  # the store's migrations are in the wheel

    dry = _run_block(_moved(extras, tmp_path).rstrip() + " --dry-run\n", ROOT)
    assert dry.returncode == 0, dry.stdout + dry.stderr
