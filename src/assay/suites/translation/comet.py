"""COMET (unbabel-comet), an optional extra: load a model from a local path or cache, score
(source, hypothesis, reference) triples, and say plainly when it could not be computed.

assay never downloads a model: ``--comet-model`` names a checkpoint file, a model directory
(``checkpoints/model.ckpt`` inside) or a model already in the local Hugging Face cache.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

INSTALL_HINT = "install unbabel-comet into this environment: uv pip install unbabel-comet"


class CometUnavailable(Exception):
    """COMET cannot be computed here; the message says why."""


@runtime_checkable
class CometScorer(Protocol):
    """Anything that scores segments: one float per (source, hypothesis, reference)."""

    model_name: str

    def score(
        self, sources: Sequence[str], hypotheses: Sequence[str], references: Sequence[str]
    ) -> list[float]: ...


@dataclass
class UnbabelComet:
    """A loaded unbabel-comet model; ``predict`` runs in batches, on CPU unless gpus > 0."""

    model_name: str
    model: Any
    batch_size: int = 16
    gpus: int = 0

    def score(
        self, sources: Sequence[str], hypotheses: Sequence[str], references: Sequence[str]
    ) -> list[float]:
        data = [
            {"src": s, "mt": h, "ref": r}
            for s, h, r in zip(sources, hypotheses, references, strict=True)
        ]
        output = self.model.predict(
            data, batch_size=self.batch_size, gpus=self.gpus, progress_bar=False
        )
        return [float(x) for x in output.scores]


def import_comet() -> ModuleType:
    """The ``comet`` package of unbabel-comet, or CometUnavailable with the install hint."""
    try:
        module = importlib.import_module("comet")
    except ImportError as err:
        raise CometUnavailable(f"unbabel-comet is not installed ({err}); {INSTALL_HINT}") from None
    if not hasattr(module, "load_from_checkpoint") or not hasattr(module, "download_model"):
        raise CometUnavailable(
            f"the installed 'comet' package is not unbabel-comet "
            f"(no load_from_checkpoint/download_model); {INSTALL_HINT}"
        )
    return module


def resolve_checkpoint(model: str, comet: ModuleType) -> Path:
    """A checkpoint path for ``model``: a file, a model directory, or the local cache only."""
    path = Path(model).expanduser()
    if path.is_file():
        return path
    if path.is_dir():
        ckpt = path / "checkpoints" / "model.ckpt"
        if ckpt.is_file():
            return ckpt
        raise CometUnavailable(f"COMET model directory {path} has no checkpoints/model.ckpt")
    try:
        found = comet.download_model(model, local_files_only=True)
    except Exception as err:  # the hub client raises many kinds when offline or not cached
        raise CometUnavailable(
            f"COMET model {model!r} is not in the local cache and assay does not download "
            f"models ({type(err).__name__}: {err}); pass a checkpoint path with --comet-model"
        ) from None
    return Path(str(found))


def load_comet(model: str, *, batch_size: int = 16, gpus: int = 0) -> CometScorer:
    """Load unbabel-comet's ``model`` from a local path or cache (CometUnavailable if not)."""
    comet = import_comet()
    checkpoint = resolve_checkpoint(model, comet)
    try:
        loaded = comet.load_from_checkpoint(str(checkpoint))
    except Exception as err:
        raise CometUnavailable(
            f"COMET checkpoint {checkpoint} could not be loaded ({type(err).__name__}: {err})"
        ) from None
    return UnbabelComet(model_name=model, model=loaded, batch_size=batch_size, gpus=gpus)
