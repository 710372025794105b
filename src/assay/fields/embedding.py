"""Embedding rescue (seed 000 §3), an optional extra: max(string score, cosine) below 0.7.

sentence-transformers is not a dependency. ``load_embedder`` imports it behind a guard and
loads the model from a local path or the local cache only (never the network); when anything
is missing it returns no embedder and a status saying "embedding rescue: off" and why, which
the extraction suite records in the run. Tests inject any object with an ``encode`` method.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from assay.fields.settings import FieldSettings


class Embedder(Protocol):
    """Anything that maps texts to one vector each (a sentence-transformers model does)."""

    def encode(self, sentences: Sequence[str]) -> Any: ...


@dataclass(frozen=True)
class EmbeddingStatus:
    """Whether the rescue is on, and why not when it is off."""

    enabled: bool
    reason: str
    model: str | None = None

    def line(self) -> str:
        state = "on" if self.enabled else "off"
        return f"embedding rescue: {state} ({self.reason})"


@lru_cache(maxsize=4)
def load_embedding_model(model: str, path: str | None) -> tuple[Embedder | None, EmbeddingStatus]:
    """A sentence-transformers model from ``path`` or the local cache (never downloaded), cached
    per process, with its status; (None, "off" and why) when the package or model is absent."""
    try:
        import sentence_transformers  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None, EmbeddingStatus(
            False,
            "sentence-transformers is not installed; install the [embeddings] extra",
            model,
        )
    source = path or model
    try:
        embedder = sentence_transformers.SentenceTransformer(source, local_files_only=True)
    except Exception as err:  # a missing or corrupt local model must not stop the scoring
        return None, EmbeddingStatus(
            False, f"cannot load {source!r} from local files: {type(err).__name__}: {err}", model
        )
    return embedder, EmbeddingStatus(True, f"model {source}", model)


def load_embedder(settings: FieldSettings) -> tuple[Embedder | None, EmbeddingStatus]:
    """The configured embedder (cached per process) and its status; never downloads."""
    if not settings.embedding_enabled:
        return None, EmbeddingStatus(False, "embedding_enabled is false", None)
    return load_embedding_model(settings.embedding_model, settings.embedding_path)


def _unit_rows(matrix: Any) -> NDArray[np.float64]:
    m = np.asarray(matrix, dtype=np.float64)
    if m.ndim == 1:
        m = m[None, :]
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    out: NDArray[np.float64] = np.divide(m, norms, out=np.zeros_like(m), where=norms > 0)
    return out


def cosine_matrix(
    embedder: Embedder, pred: Sequence[str], gold: Sequence[str]
) -> NDArray[np.float64]:
    """Cosine similarity of every (predicted, expected) pair, clipped to [0, 1]."""
    if not pred or not gold:
        return np.zeros((len(pred), len(gold)))
    vectors = _unit_rows(embedder.encode([*pred, *gold]))
    sim: NDArray[np.float64] = vectors[: len(pred)] @ vectors[len(pred) :].T
    return np.asarray(np.clip(sim, 0.0, 1.0), dtype=np.float64)


def rescue_matrix(
    scores: NDArray[np.float64],
    embedder: Embedder | None,
    pred: Sequence[str],
    gold: Sequence[str],
    settings: FieldSettings,
) -> NDArray[np.float64]:
    """max(string score, cosine) where the string score is below ``embedding_rescue_below``;
    never lowers a score; the input unchanged without an embedder."""
    if embedder is None or scores.size == 0:
        return scores
    low = scores < settings.embedding_rescue_below
    if not low.any():
        return scores
    cos = cosine_matrix(embedder, pred, gold)
    return np.where(low, np.maximum(scores, cos), scores)


def rescue(
    score: float, pred: str, gold: str, embedder: Embedder | None, settings: FieldSettings
) -> tuple[float, bool]:
    """The rescued scalar score and whether the cosine won."""
    if embedder is None or score >= settings.embedding_rescue_below:
        return score, False
    cos = float(cosine_matrix(embedder, [pred], [gold])[0, 0])
    return (cos, True) if cos > score else (score, False)
