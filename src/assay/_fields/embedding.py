"""Embedding rescue (seed 000 §3) and the shared offline embedders, optional extras.

Two backends, neither a dependency and neither ever downloading:

- ``wordllama`` (extra ``[semantic]``): the model spec ``"wordllama"`` (or
  ``"wordllama:<config>_<dim>"``, default ``l2_supercat_256``) loads the token-embedding table and
  tokenizer that the wordllama wheel itself carries — numpy only, about 0.5 s, no network.
- sentence-transformers (extra ``[embeddings]``): any other spec is a model name in the local cache
  or a model directory given by ``path``.

``load_embedding_model`` returns no embedder and a status saying "off" and why when anything is
missing; the suites record that status in the run. Tests inject any object with ``encode``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from assay._fields.settings import FieldSettings


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


#: the model spec that selects the wordllama backend, alone or as ``wordllama:<config>_<dim>``
WORDLLAMA = "wordllama"
WORDLLAMA_DEFAULT = "l2_supercat_256"


class WordLlamaEmbedder:
    """wordllama's packaged static embeddings behind the ``Embedder`` protocol (numpy only)."""

    def __init__(self, inference: Any) -> None:
        self._inference = inference

    def encode(self, sentences: Sequence[str]) -> NDArray[np.float32]:
        out: NDArray[np.float32] = np.asarray(
            self._inference.embed(list(sentences)), dtype=np.float32
        )
        return out


def _load_wordllama(spec: str) -> tuple[Embedder | None, EmbeddingStatus]:
    """The wordllama model named by ``spec`` from the files inside the installed wheel.

    wordllama's own ``WordLlama.load`` looks for its tokenizer under a folder name the wheel does
    not use and then tries the network, so the two packaged files are opened directly."""
    _, _, variant = spec.partition(":")
    variant = variant or WORDLLAMA_DEFAULT
    try:
        import wordllama
        from safetensors import safe_open
        from wordllama.inference import WordLlamaInference
    except ImportError:
        return None, EmbeddingStatus(
            False, "wordllama is not installed; install the [semantic] extra", spec
        )
    from pathlib import Path

    root = Path(wordllama.__file__).parent
    config = variant.rsplit("_", 1)[0]
    weights = root / "weights" / f"{variant}.safetensors"
    tokenizer = root / "tokenizers" / f"{config}_tokenizer_config.json"
    missing = [str(p) for p in (weights, tokenizer) if not p.is_file()]
    if missing:
        return None, EmbeddingStatus(
            False, f"wordllama model {variant!r} is not packaged: {', '.join(missing)}", spec
        )
    try:
        from tokenizers import Tokenizer

        with safe_open(str(weights), framework="np", device="cpu") as f:
            table = f.get_tensor("embedding.weight")
        inference = WordLlamaInference(table, Tokenizer.from_file(str(tokenizer)))
    except Exception as err:  # a corrupt packaged model must not stop the scoring
        return None, EmbeddingStatus(
            False, f"cannot load wordllama {variant!r}: {type(err).__name__}: {err}", spec
        )
    return WordLlamaEmbedder(inference), EmbeddingStatus(True, f"wordllama {variant}", spec)


@lru_cache(maxsize=4)
def load_embedding_model(model: str, path: str | None) -> tuple[Embedder | None, EmbeddingStatus]:
    """The embedder named by ``model`` (``"wordllama[:variant]"``, else a sentence-transformers
    model from ``path`` or the local cache), never downloaded, cached per process, with its
    status; (None, "off" and why) when the package or model is absent."""
    if path is None and (model == WORDLLAMA or model.startswith(WORDLLAMA + ":")):
        return _load_wordllama(model)
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
