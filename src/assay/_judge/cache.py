"""The judge's response cache: one JSON file an answer, keyed by (model, prompt version, inputs).

Reruns read answers from here, so they cost nothing and repeat exactly. Only answers that passed
validation are stored; an unreadable entry is ignored (and overwritten by the next answer).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from assay._engine.provenance import canonical_json
from assay._io.atomic import write_atomic


class CacheEntry(BaseModel):
    """A validated answer and what it cost when it was first obtained."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str
    model: str
    prompt: str
    prompt_version: int
    content: str
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    attempts: int = 1
    #: the model the endpoint named in its answer (None in entries written before it was kept)
    answered_model: str | None = None


def inputs_digest(request: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of everything sent but the model (messages, parameters)."""
    return hashlib.sha256(canonical_json(dict(request)).encode("utf-8")).hexdigest()


def cache_key(model: str, prompt: str, prompt_version: int, digest: str) -> str:
    """sha256 over (model, prompt name, prompt version, inputs digest)."""
    text = canonical_json([model, prompt, prompt_version, digest])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _safe(part: str) -> str:
    return re.sub(r"[^A-Za-z0-9._\-]+", "_", part)[:100] or "_"


class JudgeCache:
    """Answers under ``root/<model>/<prompt>.v<N>/<key>.json`` (written atomically)."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    def path(self, model: str, prompt: str, prompt_version: int, key: str) -> Path:
        return self.root / _safe(model) / f"{_safe(prompt)}.v{prompt_version}" / f"{key}.json"

    def get(self, model: str, prompt: str, prompt_version: int, key: str) -> CacheEntry | None:
        path = self.path(model, prompt, prompt_version, key)
        try:
            entry = CacheEntry.model_validate_json(path.read_bytes())
        except (OSError, ValidationError, ValueError):
            return None
        return entry if entry.key == key else None

    def put(self, entry: CacheEntry) -> Path:
        path = self.path(entry.model, entry.prompt, entry.prompt_version, entry.key)
        data = json.dumps(entry.model_dump(mode="json"), indent=2, ensure_ascii=False)
        return write_atomic(path, [(data + "\n").encode("utf-8")]).path
