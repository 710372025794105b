"""Versioned prompt templates shipped inside a package and read with importlib.resources.

A template is ``<package>/prompts/<name>.v<N>.md``: YAML front matter (``name``, ``version``,
``description``), then a ``## system`` and a ``## user`` section whose ``$placeholders`` are
filled with :class:`string.Template` (write ``$$`` for a literal dollar). The version is part of
every cache key, so a changed prompt never reuses an old answer; bump it when the wording changes.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from string import Template

import yaml

from assay.errors import ConfigError

Message = dict[str, str]
_FILE = re.compile(r"^(?P<name>[a-z0-9_\-]+)\.v(?P<version>\d+)\.md$")
_SECTION = re.compile(r"^## (system|user)\s*$", re.M)


@dataclass(frozen=True)
class PromptTemplate:
    """One version of a prompt: its system and user messages with ``$placeholders``."""

    name: str
    version: int
    system: str
    user: str
    description: str = ""

    @property
    def id(self) -> str:
        """``name@vN``, as recorded with every call."""
        return f"{self.name}@v{self.version}"

    @property
    def sha256(self) -> str:
        return hashlib.sha256(f"{self.system}\0{self.user}".encode()).hexdigest()

    def placeholders(self) -> set[str]:
        found: set[str] = set()
        for text in (self.system, self.user):
            for m in Template.pattern.finditer(text):
                name = m.group("named") or m.group("braced")
                if name:
                    found.add(name)
        return found

    def render(self, inputs: Mapping[str, str]) -> list[Message]:
        """The chat messages with every placeholder filled; a missing or extra input is an error."""
        wanted = self.placeholders()
        missing = sorted(wanted - set(inputs))
        extra = sorted(set(inputs) - wanted)
        if missing or extra:
            raise ConfigError(
                f"prompt {self.id}: missing inputs {missing or '[]'}, unexpected inputs "
                f"{extra or '[]'}"
            )
        return [
            {"role": "system", "content": Template(self.system).substitute(inputs)},
            {"role": "user", "content": Template(self.user).substitute(inputs)},
        ]


def parse_prompt(text: str, source: str) -> PromptTemplate:
    """A template from its file text (front matter + ``## system`` + ``## user``)."""
    if not text.startswith("---\n"):
        raise ConfigError(f"{source}: a prompt template starts with YAML front matter")
    head, sep, body = text[4:].partition("\n---\n")
    if not sep:
        raise ConfigError(f"{source}: front matter is not closed by '---'")
    meta = yaml.safe_load(head) or {}
    if not isinstance(meta, dict) or "name" not in meta or "version" not in meta:
        raise ConfigError(f"{source}: front matter needs 'name' and 'version'")
    pieces = _SECTION.split(body)
    sections = {pieces[i]: pieces[i + 1].strip() for i in range(1, len(pieces) - 1, 2)}
    if set(sections) != {"system", "user"}:
        raise ConfigError(f"{source}: needs exactly one '## system' and one '## user' section")
    return PromptTemplate(
        name=str(meta["name"]),
        version=int(meta["version"]),
        system=sections["system"],
        user=sections["user"],
        description=str(meta.get("description", "")).strip(),
    )


def available_prompts(package: str) -> dict[str, list[int]]:
    """Prompt names shipped in ``package`` and their versions, ascending."""
    folder = resources.files(package).joinpath("prompts")
    found: dict[str, list[int]] = {}
    if not folder.is_dir():
        return found
    for entry in folder.iterdir():
        m = _FILE.match(entry.name)
        if m:
            found.setdefault(m["name"], []).append(int(m["version"]))
    return {k: sorted(v) for k, v in sorted(found.items())}


def load_prompt(package: str, name: str, version: int | None = None) -> PromptTemplate:
    """Prompt ``name`` shipped in ``package`` (``<package>/prompts/<name>.v<N>.md``); the
    highest version unless ``version`` is given."""
    versions = available_prompts(package).get(name, [])
    if not versions:
        raise ConfigError(f"no prompt {name!r} in package {package}")
    chosen = versions[-1] if version is None else version
    if chosen not in versions:
        raise ConfigError(f"prompt {name!r} has versions {versions}, not {version}")
    file = resources.files(package).joinpath("prompts", f"{name}.v{chosen}.md")
    template = parse_prompt(file.read_text(encoding="utf-8"), f"{package}/prompts/{file.name}")
    if template.name != name or template.version != chosen:
        raise ConfigError(
            f"{package}/prompts/{file.name}: front matter says {template.id}, file name "
            f"says {name}@v{chosen}"
        )
    return template
