"""The tree keeps the shape docs/architecture.md draws: layer ranks, no cycles, private names kept
private, every suite the same files.

Every import of ``src/assay`` is read from the source (at module level, inside functions, under
``TYPE_CHECKING``) together with every string naming an assay module (``"assay._cli.score:x"``,
lazy export tables, ``importlib.import_module("assay...")``): a lazy or a textual reference is
still a dependency.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PAGE = ROOT / "docs" / "architecture.md"
#: a string that names an assay module, optionally with ``:attribute``
MODULE_STRING = re.compile(r"^(assay(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(?::[A-Za-z_][A-Za-z0-9_.]*)?$")
#: the files every suite has (``_lib/`` is optional and holds everything else)
SUITE_FILES = {
    "__init__.py",
    "task.py",
    "settings.py",
    "scorer.py",
    "metrics.py",
    "summaries.py",
    "examples.py",
    "docs.md",
}

#: known violations, each to be removed as it is mended; an entry that no longer occurs fails
#: the test too, so the list only shrinks
KNOWN: set[str] = set()


@dataclass(frozen=True)
class Edge:
    """``source`` refers to ``target`` (a module) at ``line``; ``name`` is the imported name."""

    source: str
    target: str
    line: int
    name: str | None
    type_only: bool


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((SRC / "assay").rglob("*.py"))}


def _resolve(target: str) -> str | None:
    """The longest known module that is ``target`` or a prefix of it."""
    mods = modules()
    parts = target.split(".")
    while parts:
        name = ".".join(parts)
        if name in mods:
            return name
        parts.pop()
    return None


def _package_of(module: str) -> str:
    return module if modules()[module].name == "__init__.py" else module.rpartition(".")[0]


@cache
def edges() -> tuple[Edge, ...]:
    found: list[Edge] = []
    for mod, path in modules().items():
        tree = ast.parse(path.read_text("utf-8"))
        package = _package_of(mod)
        for node, type_only in _walk(tree, False):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "assay":
                        target = _resolve(alias.name)
                        if target:
                            found.append(Edge(mod, target, node.lineno, None, type_only))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([base] if base else [])])
                if base.split(".")[0] != "assay":
                    continue
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    target = full if full in modules() else _resolve(base)
                    if target:
                        found.append(Edge(mod, target, node.lineno, alias.name, type_only))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                match = MODULE_STRING.match(node.value)
                if match and "." in match.group(1):
                    target = _resolve(match.group(1))
                    if target and target != "assay":
                        found.append(Edge(mod, target, node.lineno, None, type_only))
    return tuple(found)


def _walk(node: ast.AST, type_only: bool) -> Iterator[tuple[ast.AST, bool]]:
    for child in ast.iter_child_nodes(node):
        inner = type_only or (
            isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test)
        )
        yield child, inner
        yield from _walk(child, inner)


@cache
def ranks() -> dict[str, int]:
    """The rank table of docs/architecture.md: module prefix → rank."""
    text = PAGE.read_text("utf-8")
    table = text.split("<!-- ranks: begin -->")[1].split("<!-- ranks: end -->")[0]
    out: dict[str, int] = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].isdigit():
            for name in re.findall(r"`([^`]+)`", cells[1]):
                out[name] = int(cells[0])
    return out


def rank_of(module: str) -> int:
    best = max((p for p in ranks() if module == p or module.startswith(p + ".")), key=len)
    return ranks()[best]


def violations() -> set[str]:
    """Every broken rule, one line each."""
    return {*_rank_violations(), *_cycles(), *_private_uses(), *_suite_shapes()}


def _rank_violations() -> set[str]:
    out = set()
    for e in edges():
        if rank_of(e.target) > rank_of(e.source):
            out.add(f"rank: {e.source} ({rank_of(e.source)}) -> {e.target} ({rank_of(e.target)})")
    return out


def _cycles() -> set[str]:
    """Each strongly connected component of the module graph (type-only imports aside) of
    more than one module, by Tarjan's algorithm."""
    graph: dict[str, set[str]] = defaultdict(set)
    for e in edges():
        if e.source != e.target:
            # importing a submodule runs its package's __init__, which is no edge back
            if e.source.startswith(e.target + "."):
                continue
            graph[e.source].add(e.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: set[str] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.add("cycle: " + " <-> ".join(sorted(component)))

    for v in sorted(modules()):
        if v not in index:
            visit(v)
    return found


def _private_owner(target: str, name: str | None) -> str | None:
    """The package the innermost private part of ``target`` (or the imported ``name``) belongs
    to, or None when nothing private is named: ``assay._fields._order`` is private to
    ``assay._fields``, a ``_name`` of ``assay._engine.task`` to ``assay._engine``."""
    parts = target.split(".")
    owner = None
    for i, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            owner = ".".join(parts[:i])
    if name and name.startswith("_") and not name.startswith("__"):
        owner = _package_of(target)
    return owner


def _private_uses() -> set[str]:
    """Private names used outside their package; ``assay._compat``, whose table names every
    old and new path, excepted."""
    out = set()
    for e in edges():
        if e.source == "assay._compat":
            continue
        owner = _private_owner(e.target, e.name)
        if owner is not None and not (e.source == owner or e.source.startswith(owner + ".")):
            shown = f"{e.target}.{e.name}" if e.name and e.name.startswith("_") else e.target
            out.add(f"private: {e.source} uses {shown} (private to {owner})")
    return out


def suite_dirs() -> list[Path]:
    base = SRC / "assay" / "suites"
    return sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))


def _suite_shapes() -> set[str]:
    out = set()
    for suite in suite_dirs():
        present = {p.name for p in suite.iterdir() if p.name != "__pycache__"}
        for missing in sorted(SUITE_FILES - present):
            out.add(f"shape: suites/{suite.name} has no {missing}")
        for extra in sorted(present - SUITE_FILES - {"_lib"}):
            out.add(f"shape: suites/{suite.name}/{extra} belongs in _lib/ or is not a suite file")
    return out


def test_rank_table_covers_every_module() -> None:
    uncovered = [m for m in modules() if not any(m == p or m.startswith(p + ".") for p in ranks())]
    assert uncovered == []


def test_the_tree_keeps_its_architecture() -> None:
    found = violations()
    new = sorted(found - KNOWN)
    stale = sorted(KNOWN - found)
    assert new == [], "\n".join(new)
    assert stale == [], "mended, remove from KNOWN:\n" + "\n".join(stale)


@pytest.mark.parametrize(
    ("target", "name", "owner"),
    [
        ("assay._engine.task", None, "assay"),
        ("assay._fields._order", None, "assay._fields"),
        ("assay.suites.translation._lib.inputs", None, "assay.suites.translation"),
        ("assay._engine.task", "_bad_row", "assay._engine"),
        ("assay.metrics.kinds", "_KINDS", "assay.metrics"),
        ("assay.metrics.kinds", "safe_divide", None),
    ],
)
def test_private_owner(target: str, name: str | None, owner: str | None) -> None:
    """The rule the check applies: a private part belongs to the package that holds it."""
    assert _private_owner(target, name) == owner
