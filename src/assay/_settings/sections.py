"""The suites' settings sections, as the settings layer finds them.

Each suite owns a top-level section of the settings, validated by its task's settings model.
The settings sit below the suites and the task registry and import neither: the layer that
knows the suites hands them two functions at start-up (the engine's registry does, in its
``install``, which ``assay/__init__.py`` calls), the section model of a suite by name (importing
that suite only) and the names of every suite (for an error listing them). Nothing here needs
pydantic, so the hand-over costs nothing at start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import BaseModel

#: suite name → its section model, None when there is no such suite
SectionModel = Callable[[str], "type[BaseModel] | None"]
SuiteNames = Callable[[], list[str]]

_model: SectionModel | None = None
_names: SuiteNames | None = None


def use_suite_sections(model: SectionModel, names: SuiteNames) -> None:
    """Find a suite's section model with ``model(name)`` and every suite's name with
    ``names()`` from now on."""
    global _model, _names
    _model, _names = model, names


def suite_section_model(name: str) -> type[BaseModel] | None:
    """The section model of suite ``name``; None when there is no such suite (or no suites were
    handed over: the settings then know only their own sections)."""
    return None if _model is None else _model(name)


def suite_names() -> list[str]:
    """Every suite's name, as the layer above knows them."""
    return [] if _names is None else _names()
