"""The offline embedders: wordllama from its own wheel, refusals that say why."""

from __future__ import annotations

import numpy as np
import pytest

from assay._fields.embedding import cosine_matrix, load_embedding_model

pytest.importorskip("wordllama", reason="the [semantic] extra (wordllama) is not installed")


def test_wordllama_loads_offline_and_ranks_a_paraphrase_above_an_unrelated_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import socket

    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("the embedder tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    load_embedding_model.cache_clear()
    embedder, status = load_embedding_model("wordllama", None)
    assert embedder is not None, status.reason
    assert status.enabled and status.line() == "embedding rescue: on (wordllama l2_supercat_256)"
    vectors = np.asarray(embedder.encode(["a", "b c"]))
    assert vectors.shape == (2, 256)
    sim = cosine_matrix(
        embedder,
        ["The cat sat on the mat"],
        ["A feline rested on a rug", "Quarterly stock prices rose sharply"],
    )
    assert sim[0, 0] > sim[0, 1]
    load_embedding_model.cache_clear()


def test_unknown_wordllama_variant_is_off_with_the_reason() -> None:
    embedder, status = load_embedding_model("wordllama:nosuch_64", None)
    assert embedder is None
    assert not status.enabled and "not packaged" in status.reason
