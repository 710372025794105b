"""Lazy re-exports for package ``__init__`` modules.

A package lists its public names as ``name → "module"`` and calls :func:`lazy_exports`; a
name's module is imported the first time the name is read, so ``import assay`` (and with it
``assay --version``) costs nothing of what it does not use. Type checkers see the names through
the package's ``if TYPE_CHECKING:`` imports.

A re-exported name may equal a subpackage's name, or an old one (``assay.compare`` the function,
and ``assay.compare`` the old path of the package ``assay._compare``, see ``assay._compat``):
importing the subpackage must not replace the function by the module on the parent, which the
import system otherwise does, so the package's module class ignores exactly that assignment.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from types import ModuleType
from typing import Any


class LazyPackage(ModuleType):
    """A package module whose ``_lazy_exports`` names load on first access."""

    _lazy_exports: Mapping[str, str]

    def __getattr__(self, name: str) -> Any:
        module = self._lazy_exports.get(name)
        if module is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        ModuleType.__setattr__(self, name, value)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._lazy_exports and isinstance(value, ModuleType):
            return  # a (sub)package imported under that name: the exported object keeps it
        ModuleType.__setattr__(self, name, value)

    def __dir__(self) -> list[str]:
        return sorted({*self.__dict__, *self._lazy_exports})


def lazy_exports(package: str, exports: Mapping[str, str]) -> None:
    """Make each name of ``exports`` an attribute of ``package`` imported from its module on
    first access."""
    module = sys.modules[package]
    module.__class__ = LazyPackage
    ModuleType.__setattr__(module, "_lazy_exports", dict(exports))
