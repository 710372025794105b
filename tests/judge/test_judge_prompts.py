"""Versioned prompt templates shipped in a package."""

from __future__ import annotations

import pytest

from assay._judge import available_prompts, load_prompt, parse_prompt
from assay.errors import ConfigError

TEXT = """---
name: demo
version: 3
description: a test prompt
---
## system
You judge. Costs are in $$.

## user
Compare $a with ${b}.
"""


def test_parse_and_render() -> None:
    prompt = parse_prompt(TEXT, "demo.v3.md")
    assert prompt.id == "demo@v3" and prompt.placeholders() == {"a", "b"}
    system, user = prompt.render({"a": "x", "b": "y"})
    assert system == {"role": "system", "content": "You judge. Costs are in $."}
    assert user["content"] == "Compare x with y."
    with pytest.raises(ConfigError, match=r"missing inputs \['b'\], unexpected inputs \['c'\]"):
        prompt.render({"a": "x", "c": "z"})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("## system\nx\n## user\ny", "starts with YAML front matter"),
        ("---\nname: d\n---\n## system\nx\n", "needs 'name' and 'version'"),
        ("---\nname: d\nversion: 1\n---\n## system\nx\n", "one '## user' section"),
    ],
)
def test_malformed_templates(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_prompt(text, "bad.md")


def test_shipped_matcher_prompt() -> None:
    assert available_prompts("assay.suites.claims._lib") == {"matcher": [1, 2]}
    prompt = load_prompt("assay.suites.claims._lib", "matcher")
    assert prompt.version == 2 and prompt == load_prompt("assay.suites.claims._lib", "matcher", 2)
    assert load_prompt("assay.suites.claims._lib", "matcher", 1).version == 1
    with pytest.raises(ConfigError, match="has versions"):
        load_prompt("assay.suites.claims._lib", "matcher", 9)
    with pytest.raises(ConfigError, match="no prompt"):
        load_prompt("assay.suites.claims._lib", "nothing")
