"""assay._judge's public names load with their module on first use (every lazy package's names are
checked against its module map in tests/test_lazy.py)."""

from __future__ import annotations

import subprocess
import sys


def test_the_settings_module_alone_does_not_import_the_client_cache_or_ledger() -> None:
    probe = (
        "import sys, assay._judge.settings\n"
        "print(sorted(m for m in sys.modules if m.startswith('assay._judge')))"
    )
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert res.stdout.strip() == "['assay._judge', 'assay._judge.settings']"
