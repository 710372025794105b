"""One validated settings object for every threshold and option of every suite."""

from assay.settings.loader import (
    DEFAULT_FILE,
    ENV_VAR,
    Settings,
    clear_settings_cache,
    configure,
    get_settings,
    load_settings,
    settings_from_mapping,
)
from assay.settings.model import RunSettings, Section, StatsSettings

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
