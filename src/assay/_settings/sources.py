"""Where the settings come from, known without building them (no pydantic, no YAML parser).

The first source that exists wins wholesale: the file named by ``ASSAY_CONFIG``, else
``assay.yaml`` in the working directory, else the embedded defaults; ``configure()`` overrides
(:mod:`assay._settings.loader`) go on top. A command whose start-up is its budget (``assay mt
sacrebleu``) asks :func:`defaults_in_effect` and, when no file or override is in effect, reads the
few defaults it needs from the constants here, which the settings models use as their defaults
(one value, two ways to reach it).
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "ASSAY_CONFIG"
DEFAULT_FILE = "assay.yaml"

#: ``stats.min_items_test``: below this many paired items a test warns that it is unreliable
MIN_ITEMS_TEST = 10


def settings_file() -> Path | None:
    """The settings file in effect: ``$ASSAY_CONFIG`` (even if missing: loading it then fails,
    naming it), else ``./assay.yaml`` when it exists, else None (the embedded defaults)."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    local = Path(DEFAULT_FILE)
    return local if local.is_file() else None


#: whether ``configure()`` overrides are in effect: the loader says so (it sits above)
_overridden = False


def note_overrides(active: bool) -> None:
    """The loader's word that ``configure()`` overrides are (or are no longer) in effect."""
    global _overridden
    _overridden = active


def defaults_in_effect() -> bool:
    """True when every setting is its embedded default: no settings file, and no
    ``configure()`` override in this process."""
    return settings_file() is None and not _overridden
