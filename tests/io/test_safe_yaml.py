"""assay._io.safe_yaml: YAML within its alias, node and depth budgets, and PyYAML kept out of
the JSON readers' imports."""

from __future__ import annotations

import subprocess
import sys

import pytest

from assay._io.safe_yaml import YAMLLimitError, safe_yaml_load
from assay._io.strict import MAX_DEPTH


def test_yaml_budgets() -> None:
    assert safe_yaml_load("a: 1\nb: [x, y]\n") == {"a": 1, "b": ["x", "y"]}
    laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n"
        for p, c in zip("abcdef", "bcdefg", strict=True)
    )
    with pytest.raises(YAMLLimitError, match="nodes once aliases are expanded"):
        safe_yaml_load(laughs)
    with pytest.raises(YAMLLimitError, match="nested deeper"):
        safe_yaml_load("a: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


def test_the_json_readers_do_not_import_pyyaml() -> None:
    """Reading JSON and JSONL (every scoring command) loads no PyYAML: it is ~1 MiB of RSS
    and ~10 ms of start-up that only YAML inputs and config files need."""
    probe = (
        "import sys, assay._io.strict, assay._io.readers, assay._engine.task\n"
        "print('yaml' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"
