"""YAML front matter and files parsed within budgets: PyYAML's safe loader, which expands
aliases without bound (a "billion laughs" document holds 10⁹ nodes in a few hundred bytes),
checked first for at most ``MAX_YAML_ALIASES`` aliases, ``MAX_YAML_NODES`` alias-expanded nodes
and ``MAX_DEPTH`` levels (``assay._io.strict``). A module of its own so that the JSON readers
never import PyYAML (~1 MiB and ~10 ms on every scoring command)."""

from __future__ import annotations

from typing import Any

import yaml

from assay._io.strict import MAX_DEPTH

__all__ = ["MAX_YAML_ALIASES", "MAX_YAML_NODES", "YAMLLimitError", "safe_yaml_load"]

#: aliases (``*name``) one YAML document may use
MAX_YAML_ALIASES = 100
#: nodes of one YAML document once its aliases are expanded
MAX_YAML_NODES = 100_000


class YAMLLimitError(yaml.YAMLError):
    """A YAML document beyond the alias, size or depth budget (``problem`` says which)."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.problem_mark = None


#: libyaml's safe loader when PyYAML was built with it (about 10x faster), else the Python one
_SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _check_yaml_budget(text: str) -> None:
    """Walk the parser's events: count aliases, the expanded node count and the depth."""
    sizes: dict[str, int] = {}
    stack: list[tuple[int, str | None]] = []  # (nodes so far, anchor) per open collection
    total = 0
    aliases = 0
    for event in yaml.parse(text, Loader=_SAFE_LOADER):
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_YAML_ALIASES:
                raise YAMLLimitError(f"more than {MAX_YAML_ALIASES} aliases")
            size = sizes.get(str(event.anchor), 1)
        elif isinstance(event, yaml.ScalarEvent):
            size = 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.CollectionStartEvent):
            if len(stack) >= MAX_DEPTH:
                raise YAMLLimitError(f"nested deeper than {MAX_DEPTH} levels")
            stack.append((1, event.anchor))
            continue
        elif isinstance(event, yaml.CollectionEndEvent):
            size, anchor = stack.pop()
            if anchor is not None:
                sizes[anchor] = size
        else:
            continue
        if stack:
            count, anchor = stack[-1]
            stack[-1] = (count + size, anchor)
        else:
            total += size
        if total > MAX_YAML_NODES or (stack and stack[-1][0] > MAX_YAML_NODES):
            raise YAMLLimitError(f"more than {MAX_YAML_NODES:,} nodes once aliases are expanded")


def safe_yaml_load(text: str) -> Any:
    """``yaml.safe_load`` (libyaml when available) within the alias, node and depth budgets.

    Raises ``yaml.YAMLError`` (``YAMLLimitError`` past a budget). A document without an alias
    or deep nesting pays one extra parse only when it holds a ``*``.
    """
    if "*" in text or text.count("[") + text.count("{") + text.count("\n") > MAX_DEPTH:
        _check_yaml_budget(text)
    return yaml.load(text, Loader=_SAFE_LOADER)
