"""The task registry: suites found through the ``assay.tasks`` entry-point group or registered
in-process with :func:`register_task`.

Entry points are resolved lazily and by name: :func:`task_names` reads the installed
distributions' metadata only, :func:`get_task` imports the one suite asked for, and only
:func:`available_tasks` (``assay tasks``, settings files naming every section) imports them all.
So ``assay score classification`` never imports the claims suite's httpx judge.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any

from assay.errors import UsageError

if TYPE_CHECKING:
    from assay._engine.task import Task

GROUP = "assay.tasks"
#: the suites assay ships, as its own ``assay.tasks`` entry points name them (pyproject.toml;
#: tests/engine/test_registry.py checks they agree): one of these names is always the built-in
#: suite, loaded without reading any distribution's metadata (``assay score extraction`` reads
#: none); a third-party entry point of the same name is ignored
BUILTIN_TASKS: dict[str, str] = {
    "classification": "assay.suites.classification:task",
    "translation": "assay.suites.translation:task",
    "extraction": "assay.suites.extraction:task",
    "biblio": "assay.suites.biblio:task",
    "claims": "assay.suites.claims:task",
    "contracteval": "assay.suites.contracteval:task",
    "legalbench": "assay.suites.legalbench:task",
    "subtype": "assay.suites.subtype:task",
    "docclass": "assay.suites.docclass:task",
    "maud": "assay.suites.maud:task",
    "multiclass": "assay.suites.multiclass:task",
    "chained": "assay.suites.chained:task",
    "scores": "assay.suites.scores:task",
}
_registered: dict[str, Task[Any]] = {}
_load_errors: dict[str, str] = {}
_entry_points: dict[str, EntryPoint] | None = None


def register_task(task: Task[Any]) -> Task[Any]:
    """Register a task instance under its ``name`` (usable as a decorator on an instance)."""
    _registered[task.name] = task
    return task


def _plugins() -> dict[str, EntryPoint]:
    """The group's entry points by name (metadata only: nothing imported), read once."""
    global _entry_points
    if _entry_points is None:
        found: dict[str, EntryPoint] = {}
        for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
            found.setdefault(ep.name, ep)
        _entry_points = found
    return _entry_points


def task_names() -> list[str]:
    """Every suite's name, registered in-process or by entry point, without importing any."""
    return sorted({*_registered, *BUILTIN_TASKS, *_plugins()})


def _entry_point(name: str) -> EntryPoint | None:
    """Suite ``name``'s entry point: a built-in's made from ``BUILTIN_TASKS`` (no metadata
    read), any other's from the installed distributions; None when there is none."""
    builtin = BUILTIN_TASKS.get(name)
    if builtin is not None:
        return EntryPoint(name, builtin, GROUP)
    return _plugins().get(name)


def _load(name: str) -> Task[Any] | None:
    """The suite ``name`` (imported on first use); None, with the reason recorded, when its
    entry point is missing or broken (a third-party plugin must not break assay)."""
    if name in _registered:
        return _registered[name]
    ep = _entry_point(name)
    if ep is None or name in _load_errors:
        return None
    from assay._engine.task import Task

    try:
        obj = ep.load()
    except Exception as err:
        _load_errors[name] = f"{type(err).__name__}: {err}"
        return None
    task = obj() if isinstance(obj, type) else obj
    if not isinstance(task, Task):
        _load_errors[name] = f"{ep.value} is not an assay Task"
        return None
    return _registered.setdefault(name, task)


def load_task_plugins() -> None:
    """Import every entry point of the group; a broken plugin is recorded, not fatal."""
    for name in sorted({*BUILTIN_TASKS, *_plugins()}):
        _load(name)


def available_tasks() -> dict[str, Task[Any]]:
    """Every loadable suite by name (imports them all: for listings, not for one command)."""
    load_task_plugins()
    return dict(sorted(_registered.items()))


def plugin_errors() -> dict[str, str]:
    load_task_plugins()
    return dict(_load_errors)


def get_task(name: str) -> Task[Any]:
    """The suite ``name``, importing only that one."""
    task = _load(name)
    if task is None:
        hint = f" ({_load_errors[name]})" if name in _load_errors else ""
        raise UsageError(
            f"unknown task {name!r}{hint}; registered: {', '.join(task_names()) or 'none'}"
        )
    return task
