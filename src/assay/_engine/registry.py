"""The task registry: suites found through the ``assay.tasks`` entry-point group or registered
in-process with :func:`register_task`.

Entry points are resolved lazily and by name: :func:`task_names` reads the installed
distributions' metadata only, :func:`get_task` imports the one suite asked for, and only
:func:`available_tasks` (``assay tasks``, settings files naming every section) imports them all.
So ``assay score classification`` never imports the claims suite's httpx judge.

The engine sits below the suites and names none of them. The layer that knows them hands the
registry the built-in table at start-up (``assay/__init__.py`` calls :func:`install` with
``assay.suites.BUILTIN_TASKS``): a built-in suite is then found without reading any
distribution's metadata, nor importing ``importlib.metadata``. :func:`install` also gives the
settings layer the way to a suite's section model (:func:`section_model`), which it may not
import itself. Without the table, the built-in suites are found through their entry points
like any plugin.

A suite registers its own metric kinds when its module is imported; :func:`ensure_kinds` imports
the suite of a run read from an artifact before its specs are finalized.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import partial, reduce
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from pydantic import BaseModel

    from assay._engine.task import Task
    from assay.metrics.spec import MetricSpec

GROUP = "assay.tasks"
#: the suites assay ships, name → ``module:attribute``, as the layer that knows them hands them
#: to :func:`install` (they are the entry points pyproject.toml declares; tests/engine/
#: test_registry.py checks they agree): one of these names is always the built-in suite,
#: loaded without reading any distribution's metadata; a third-party entry point of the same
#: name is ignored
BUILTIN_TASKS: dict[str, str] = {}
_registered: dict[str, Task[Any]] = {}
_load_errors: dict[str, str] = {}
_entry_points: dict[str, EntryPoint] | None = None


def install(builtin_tasks: Mapping[str, str]) -> None:
    """Take the built-in suites' table, and give the settings layer the suites' sections."""
    from assay._settings.sections import use_suite_sections

    BUILTIN_TASKS.update(builtin_tasks)
    use_suite_sections(section_model, task_names)


def register_task(task: Task[Any]) -> Task[Any]:
    """Register a task instance under its ``name`` (usable as a decorator on an instance)."""
    _registered[task.name] = task
    return task


@contextmanager
def registered(task: Task[Any]) -> Iterator[Task[Any]]:
    """``task`` registered under its name for the block (its settings section found through
    it), and the registry as it was afterwards."""
    before = _registered.get(task.name)
    _registered[task.name] = task
    try:
        yield task
    finally:
        if before is None:
            _registered.pop(task.name, None)
        else:
            _registered[task.name] = before


def _plugins() -> dict[str, EntryPoint]:
    """The group's entry points by name (metadata only: nothing imported), read once."""
    global _entry_points
    if _entry_points is None:
        from importlib.metadata import entry_points

        found: dict[str, EntryPoint] = {}
        for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
            found.setdefault(ep.name, ep)
        _entry_points = found
    return _entry_points


def task_names() -> list[str]:
    """Every suite's name, registered in-process or by entry point, without importing any."""
    return sorted({*_registered, *BUILTIN_TASKS, *_plugins()})


def _import_builtin(target: str) -> Any:
    """The object a built-in's ``module:attribute`` names, found as ``EntryPoint.load`` finds
    it (without importing ``importlib.metadata``)."""
    module, _, attrs = target.partition(":")
    return reduce(getattr, attrs.split("."), importlib.import_module(module))


def _load(name: str) -> Task[Any] | None:
    """The suite ``name`` (imported on first use); None, with the reason recorded, when its
    entry point is missing or broken (a third-party plugin must not break assay). A built-in
    is found in ``BUILTIN_TASKS`` (no metadata read), any other in the installed
    distributions' entry points."""
    if name in _registered:
        return _registered[name]
    if name in _load_errors:
        return None
    builtin = BUILTIN_TASKS.get(name)
    load: Callable[[], Any]
    if builtin is not None:
        target, load = builtin, partial(_import_builtin, builtin)
    else:
        ep = _plugins().get(name)
        if ep is None:
            return None
        target, load = ep.value, ep.load
    from assay._engine.task import Task

    try:
        obj = load()
    except Exception as err:
        _load_errors[name] = f"{type(err).__name__}: {err}"
        return None
    task = obj() if isinstance(obj, type) else obj
    if not isinstance(task, Task):
        _load_errors[name] = f"{target} is not an assay Task"
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
        from assay.errors import UsageError

        hint = f" ({_load_errors[name]})" if name in _load_errors else ""
        raise UsageError(
            f"unknown task {name!r}{hint}; registered: {', '.join(task_names()) or 'none'}"
        )
    return task


def section_model(name: str) -> type[BaseModel] | None:
    """The settings model of suite ``name``, importing that suite only; None if there is no
    such suite, or it is a broken plugin (``assay tasks`` says why)."""
    if name not in BUILTIN_TASKS and name not in task_names():  # a built-in: no metadata read
        return None
    task = _load(name)
    return None if task is None else task.settings_model


def ensure_kinds(task: str, specs: Iterable[MetricSpec]) -> list[MetricSpec]:
    """``specs`` of a run of suite ``task``, each one's kind registered: a kind that is not
    built-in is the suite's own, registered when its module is imported, so the suite is
    imported (that one, then every plugin if some kind is still unknown). A kind no suite
    registers stays unknown: finalizing its spec raises the UsageError listing the known."""
    from assay.metrics.kinds import is_registered

    specs = list(specs)
    missing = [s.kind for s in specs if not is_registered(s.kind)]
    if missing:
        _load(task)
        if not all(is_registered(kind) for kind in missing):
            load_task_plugins()
    return specs
