"""Every package built on ``assay._lazy`` keeps its three lists of public names in step.

A lazy package names each public name three times, because three readers need it: the
``if TYPE_CHECKING:`` imports (for mypy and editors), the name → module map that
:func:`assay._lazy.lazy_exports` loads from at run time, and a literal ``__all__`` (mypy's and
``import *``'s). These tests hold the three equal, so a name added to one list and not the others
fails here, not in a user's import.
"""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

from assay._lazy import LazyPackage

SRC = Path(__file__).resolve().parents[1] / "src"


def _lazy_packages() -> list[str]:
    """Dotted names of the source's modules that call ``lazy_exports``."""
    found = []
    for path in sorted((SRC / "assay").rglob("__init__.py")):
        if "lazy_exports(__name__" in path.read_text(encoding="utf-8"):
            found.append(".".join(path.parent.relative_to(SRC).parts))
    return found


def _type_checking_imports(package: str) -> dict[str, str]:
    """name → module of the ``from module import name`` lines under ``if TYPE_CHECKING:``."""
    init = SRC.joinpath(*package.split("."), "__init__.py")
    names: dict[str, str] = {}
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom) and stmt.module, ast.unparse(stmt)
                for alias in stmt.names:
                    names[alias.asname or alias.name] = stmt.module
    return names


PACKAGES = _lazy_packages()


def test_the_lazy_packages_are_found() -> None:
    assert {"assay", "assay._judge", "assay._report", "assay._settings"} <= set(PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_all_the_type_checking_imports_and_the_lazy_map_name_the_same_things(
    package: str,
) -> None:
    module = importlib.import_module(package)
    assert isinstance(module, LazyPackage)
    lazy = dict(module._lazy_exports)
    assert _type_checking_imports(package) == lazy
    eager = {name for name in module.__all__ if name not in lazy}
    assert all(name in vars(module) for name in eager), eager  # e.g. assay.__version__
    assert set(module.__all__) == set(lazy) | eager
    assert len(module.__all__) == len(set(module.__all__))


@pytest.mark.parametrize("package", PACKAGES)
def test_every_lazy_name_resolves_to_its_modules_object(package: str) -> None:
    module = importlib.import_module(package)
    for name, source in module._lazy_exports.items():
        assert getattr(module, name) is getattr(importlib.import_module(source), name)
        assert source in sys.modules
