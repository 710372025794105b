"""assay: score saved AI outputs against gold, deterministically, and say how sure it is.

The Python API mirrors the CLI: ``assay.score`` → Run, ``assay.compare`` → Comparison,
``Run.load`` / ``Run.save``, and the settings functions.
"""

from assay._version import __version__
from assay.compare import Comparison, compare, gate
from assay.core import Run, available_tasks, get_task, register_task, score
from assay.settings import clear_settings_cache, configure, get_settings, load_settings
from assay.stats import SignificanceResult

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
