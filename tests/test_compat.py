"""Old import paths keep working for one version (assay._compat): each warns once, naming the new
path, and gives the module that lives there now, the same object."""

from __future__ import annotations

import json
import subprocess
import sys

from assay._compat import MOVED

#: imports every old path in a fresh interpreter and reports, per path, the module it gave
#: (its __name__, or its target's for a forwarding package) and the warning it raised
PROBE = r"""
import importlib, json, sys, warnings
from assay._compat import MOVED
out = {}
for old, new in sorted(MOVED.items()):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    target = importlib.import_module(new)
    same = module is target or (getattr(module, "__getattr__", None) is not None
                                and module.__name__ == old and hasattr(module, "__path__"))
    out[old] = {
        "same": same,
        "warned": [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)],
        "spec": getattr(target.__spec__, "name", None),
    }
print(json.dumps(out))
"""


def test_every_old_path_imports_the_module_that_lives_there_now() -> None:
    res = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=False, timeout=300
    )
    assert res.returncode == 0, res.stderr
    found = json.loads(res.stdout.splitlines()[-1])
    assert sorted(found) == sorted(MOVED)
    for old, got in found.items():
        assert got["same"], old
        # the module keeps its own name: the import system's old-path spec is put back
        assert got["spec"] == MOVED[old], old
    # the first import of each old path warns, naming where it moved
    warned = {old for old, got in found.items() if any(MOVED[old] in w for w in got["warned"])}
    assert "assay.core" in warned and "assay.tasks.translation.sufficient" in warned


def test_an_old_submodule_of_a_package_that_became_a_module_still_imports() -> None:
    code = (
        "import warnings; warnings.simplefilter('ignore');"
        "import assay.examples.legal as m, assay.distributed as d;"
        "from assay.examples import write_classification_demo as w;"
        "print(m.__name__, d.score_on_dask.__module__, w.__module__)"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert res.stdout.split() == [
        MOVED["assay.examples.legal"],
        "assay._engine.dask",
        "assay.suites.classification.examples",
    ]


def test_the_public_function_keeps_its_name_beside_the_old_package_path() -> None:
    """``assay.compare`` is the function; importing the old package ``assay.compare.gate``
    must not replace it on ``assay``."""
    code = (
        "import warnings; warnings.simplefilter('ignore'); import assay, assay.compare.gate;"
        "print(callable(assay.compare) and not hasattr(assay.compare, '__path__'))"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert res.stdout.strip() == "True"
