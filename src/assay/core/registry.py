"""The task registry: suites found through the ``assay.tasks`` entry-point group or registered
in-process with :func:`register_task`."""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from assay.errors import UsageError

if TYPE_CHECKING:
    from assay.core.task import Task

GROUP = "assay.tasks"
_registered: dict[str, Task] = {}
_loaded = False
_load_errors: dict[str, str] = {}


def register_task(task: Task) -> Task:
    """Register a task instance under its ``name`` (usable as a decorator on an instance)."""
    _registered[task.name] = task
    return task


def load_task_plugins() -> None:
    """Import every entry point of the group once; a broken plugin is recorded, not fatal."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from assay.core.task import Task

    for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        if ep.name in _registered:
            continue
        try:
            obj = ep.load()
        except Exception as err:  # a third-party plugin must not break assay
            _load_errors[ep.name] = f"{type(err).__name__}: {err}"
            continue
        task = obj() if isinstance(obj, type) else obj
        if not isinstance(task, Task):
            _load_errors[ep.name] = f"{ep.value} is not an assay Task"
            continue
        _registered.setdefault(ep.name, task)


def available_tasks() -> dict[str, Task]:
    load_task_plugins()
    return dict(sorted(_registered.items()))


def plugin_errors() -> dict[str, str]:
    load_task_plugins()
    return dict(_load_errors)


def get_task(name: str) -> Task:
    tasks = available_tasks()
    if name not in tasks:
        hint = f" ({_load_errors[name]})" if name in _load_errors else ""
        raise UsageError(f"unknown task {name!r}{hint}; registered: {', '.join(tasks) or 'none'}")
    return tasks[name]
