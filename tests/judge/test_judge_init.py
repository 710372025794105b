"""assay.judge's public names load with their module on first use."""

from __future__ import annotations

import subprocess
import sys

import assay.judge


def test_the_settings_module_alone_does_not_import_the_client_cache_or_ledger() -> None:
    probe = (
        "import sys, assay.judge.settings\n"
        "print(sorted(m for m in sys.modules if m.startswith('assay.judge')))"
    )
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert res.stdout.strip() == "['assay.judge', 'assay.judge.settings']"


def test_every_public_name_resolves_to_its_module_object() -> None:
    for module, names in assay.judge._MODULES.items():
        for name in names:
            value = getattr(assay.judge, name)
            assert getattr(sys.modules[module], name) is value
    assert sorted(assay.judge.__all__) == sorted(
        name for names in assay.judge._MODULES.values() for name in names
    )
