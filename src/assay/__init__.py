"""assay: score saved AI outputs against gold, deterministically, and say how sure it is.

The Python API mirrors the CLI: ``assay.score`` → Run (from files, or from records in memory),
``assay.compare`` → Comparison, ``Run.load`` / ``Run.save``, the settings functions, and plain
metric functions with a CI in ``assay.metrics`` (``assay.metrics.accuracy(y_true, y_pred)``).

Every name is imported on first use (``assay._lazy``): ``import assay`` loads no suite, no
numpy and no scipy, so the command line starts in a blink.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay import _compat
from assay._engine import registry as _registry
from assay._lazy import lazy_exports
from assay._version import __version__
from assay.suites import BUILTIN_TASKS as _BUILTIN_TASKS

if TYPE_CHECKING:
    from assay._compare import Comparison, compare, gate
    from assay._engine import Run, available_tasks, get_task, register_task, score
    from assay._settings import clear_settings_cache, configure, get_settings, load_settings
    from assay.stats import SignificanceResult

_EXPORTS = {
    "Comparison": "assay._compare",
    "compare": "assay._compare",
    "gate": "assay._compare",
    "Run": "assay._engine",
    "available_tasks": "assay._engine",
    "get_task": "assay._engine",
    "register_task": "assay._engine",
    "score": "assay._engine",
    "clear_settings_cache": "assay._settings",
    "configure": "assay._settings",
    "get_settings": "assay._settings",
    "load_settings": "assay._settings",
    "SignificanceResult": "assay.stats",
}
lazy_exports(__name__, _EXPORTS)
_compat.install()  # the old import paths, for one version
# the layers meet here: the engine's registry is handed the built-in suites, and hands the
# settings the suites' sections (neither imports a layer above it; both cost nothing now)
_registry.install(_BUILTIN_TASKS)

__all__ = [
    "Comparison",
    "Run",
    "SignificanceResult",
    "__version__",
    "available_tasks",
    "clear_settings_cache",
    "compare",
    "configure",
    "gate",
    "get_settings",
    "get_task",
    "load_settings",
    "register_task",
    "score",
]
