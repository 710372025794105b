"""Loading, validating and caching the one settings object.

Sources, the first that exists wins wholesale: ``configure()`` overrides on top of the file named
by ``ASSAY_CONFIG``, else ``assay.yaml`` in the working directory, else the embedded defaults.
Each suite owns a top-level section validated by its task's ``settings_model``, found through
:mod:`assay._settings.sections` (the engine hands it over: the settings do not import the task
registry); an unknown key or a wrong type is a ConfigError naming the key and the file.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from assay._settings.model import AnalyticsSettings, RunSettings, Section, StatsSettings
from assay._settings.sections import suite_names, suite_section_model
from assay._settings.sources import DEFAULT_FILE as DEFAULT_FILE  # re-exported
from assay._settings.sources import ENV_VAR as ENV_VAR
from assay._settings.sources import note_overrides, settings_file
from assay.errors import ConfigError

_CORE_SECTIONS: dict[str, type[Section]] = {
    "stats": StatsSettings,
    "run": RunSettings,
    "analytics": AnalyticsSettings,
}

S = TypeVar("S", bound=BaseModel)


@dataclass(frozen=True)
class Settings:
    """All sections: ``stats``, ``run`` and one per registered suite (``section(name)``)."""

    stats: StatsSettings
    run: RunSettings
    suites: Mapping[str, BaseModel] = field(default_factory=dict)
    source: str = "<defaults>"
    analytics: AnalyticsSettings = field(default_factory=AnalyticsSettings)

    def section(self, name: str) -> BaseModel:
        """The validated section of suite ``name`` (its defaults when the file has none)."""
        if name in self.suites:
            return self.suites[name]
        model = suite_section_model(name)
        if model is None:
            raise ConfigError(f"no settings section {name!r}: no such registered suite")
        return model()

    def section_as(self, name: str, model: type[S]) -> S:
        value = self.section(name)
        if not isinstance(value, model):
            raise ConfigError(f"settings section {name!r} is not a {model.__name__}")
        return value

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "stats": self.stats.model_dump(mode="json"),
            "run": self.run.model_dump(mode="json"),
            "analytics": self.analytics.model_dump(mode="json"),
        }
        for name in sorted(self.suites):
            out[name] = self.suites[name].model_dump(mode="json")
        return out


def _format_error(err: ValidationError, section: str, source: str) -> str:
    first = err.errors()[0]
    loc = ".".join(str(p) for p in (section, *first["loc"]))
    msg = first["msg"]
    if first["type"] == "extra_forbidden":
        msg = "unknown key"
    more = f" (and {len(err.errors()) - 1} more)" if len(err.errors()) > 1 else ""
    return f"{source}: {loc}: {msg}{more}"


def settings_from_mapping(data: Mapping[str, Any], source: str = "<overrides>") -> Settings:
    """Validate a mapping of sections into Settings; errors name the key and the source."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{source}: the top level must be a mapping of sections")
    core: dict[str, Section] = {}
    suites: dict[str, BaseModel] = {}
    for key, value in data.items():
        if value is None:
            value = {}
        if not isinstance(value, Mapping):
            raise ConfigError(f"{source}: {key}: a section must be a mapping")
        model: type[BaseModel] | None = _CORE_SECTIONS.get(key) or suite_section_model(str(key))
        if model is None:
            known = sorted([*_CORE_SECTIONS, *suite_names()])
            raise ConfigError(f"{source}: {key}: unknown section (known: {', '.join(known)})")
        try:
            section = model.model_validate(dict(value))
        except ValidationError as err:
            raise ConfigError(_format_error(err, str(key), source)) from None
        if key in _CORE_SECTIONS:
            core[str(key)] = section  # type: ignore[assignment]
        else:
            suites[str(key)] = section
    return Settings(
        stats=core.get("stats", StatsSettings()),  # type: ignore[arg-type]
        run=core.get("run", RunSettings()),  # type: ignore[arg-type]
        suites=suites,
        source=source,
        analytics=core.get("analytics", AnalyticsSettings()),  # type: ignore[arg-type]
    )


def load_settings(path: str | os.PathLike[str]) -> Settings:
    """Read and validate one YAML settings file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{p}: settings file not found") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"{p}: cannot read settings: {err}") from None
    import yaml  # here, not at the top: only a settings file needs the YAML parser

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise ConfigError(f"{p}: invalid YAML: {err}".replace("\n", " ")) from None
    return settings_from_mapping(data or {}, str(p))


_cache: Settings | None = None
_overrides: dict[str, dict[str, Any]] = {}


def _base_settings() -> Settings:
    path = settings_file()
    if path is not None:
        return load_settings(path)
    return settings_from_mapping({}, "<defaults>")


def overridden() -> bool:
    """Whether ``configure()`` overrides are in effect."""
    return bool(_overrides)


def get_settings() -> Settings:
    """The process-wide settings: file (or defaults) plus ``configure`` overrides, cached."""
    global _cache
    if _cache is None:
        base = _base_settings()
        if _overrides:
            merged = base.to_dict()
            for key, values in _overrides.items():
                merged[key] = {**merged.get(key, {}), **values}
            _cache = settings_from_mapping(merged, f"{base.source} + configure()")
        else:
            _cache = base
    return _cache


def configure(**overrides: Mapping[str, Any]) -> Settings:
    """Override sections inline, e.g. ``configure(stats={"seed": 7})``; validated at once."""
    global _cache
    candidate = {k: dict(v) for k, v in _overrides.items()}
    for key, values in overrides.items():
        if not isinstance(values, Mapping):
            raise ConfigError(f"configure(): {key}: a section must be a mapping")
        candidate[key] = {**candidate.get(key, {}), **values}
    settings_from_mapping(candidate, "configure()")  # fail fast before touching the cache
    _overrides.clear()
    _overrides.update(candidate)
    note_overrides(overridden())
    _cache = None
    return get_settings()


def clear_settings_cache() -> None:
    """Forget the cached settings and every ``configure`` override."""
    global _cache
    _cache = None
    _overrides.clear()
    note_overrides(False)
