"""One validated settings object for every threshold and option of every suite.

The names below load with their module on first use (:mod:`assay._lazy`), so
``assay._settings.sources`` (where the settings come from) is read without pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay._settings.loader import (
        Settings,
        clear_settings_cache,
        configure,
        get_settings,
        load_settings,
        settings_from_mapping,
    )
    from assay._settings.model import RunSettings, Section, StatsSettings
    from assay._settings.sources import DEFAULT_FILE, ENV_VAR

_MODULES = {
    "assay._settings.loader": (
        "Settings",
        "clear_settings_cache",
        "configure",
        "get_settings",
        "load_settings",
        "settings_from_mapping",
    ),
    "assay._settings.model": ("RunSettings", "Section", "StatsSettings"),
    "assay._settings.sources": ("DEFAULT_FILE", "ENV_VAR"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "DEFAULT_FILE",
    "ENV_VAR",
    "RunSettings",
    "Section",
    "Settings",
    "StatsSettings",
    "clear_settings_cache",
    "configure",
    "get_settings",
    "load_settings",
    "settings_from_mapping",
]
