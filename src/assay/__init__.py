"""assay: score saved AI outputs against gold, deterministically, and say how sure it is.

The Python API mirrors the CLI: ``assay.score`` → Run (from files, or from records in memory),
``assay.compare`` → Comparison, ``Run.load`` / ``Run.save``, the settings functions, and plain
metric functions with a CI in ``assay.metrics`` (``assay.metrics.accuracy(y_true, y_pred)``).

Every name is imported on first use (``assay._lazy``): ``import assay`` loads no suite, no
numpy and no scipy, so the command line starts in a blink.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports
from assay._version import __version__

if TYPE_CHECKING:
    from assay.compare import Comparison, compare, gate
    from assay.core import Run, available_tasks, get_task, register_task, score
    from assay.settings import clear_settings_cache, configure, get_settings, load_settings
    from assay.stats import SignificanceResult

_EXPORTS = {
    "Comparison": "assay.compare",
    "compare": "assay.compare",
    "gate": "assay.compare",
    "Run": "assay.core",
    "available_tasks": "assay.core",
    "get_task": "assay.core",
    "register_task": "assay.core",
    "score": "assay.core",
    "clear_settings_cache": "assay.settings",
    "configure": "assay.settings",
    "get_settings": "assay.settings",
    "load_settings": "assay.settings",
    "SignificanceResult": "assay.stats",
}
lazy_exports(__name__, _EXPORTS)

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
