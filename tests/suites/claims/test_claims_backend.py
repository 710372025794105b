"""The matcher that ran is part of the run (issue 34, item 8): a runtime-only install used to
score the claims suite without wordllama under the same run id and signature as a full install.
Now the backend is in the settings (``matcher_backend``), hence the config digest, the run id and
the signature; a run whose configured embedder cannot run refuses, naming the install command,
unless ``--allow-fallback`` accepts it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import assay
from assay._cli import main
from assay._fields.embedding import load_embedding_model
from assay.errors import UsageError
from assay.suites.claims.examples import write_demo

HAS_WORDLLAMA = load_embedding_model("wordllama", None)[1].enabled


@pytest.fixture
def without_wordllama(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A runtime-only install: ``import wordllama`` fails."""
    load_embedding_model.cache_clear()
    monkeypatch.setitem(sys.modules, "wordllama", None)
    yield
    load_embedding_model.cache_clear()


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    reference, v1, _ = write_demo(tmp_path_factory.mktemp("claims"))
    return reference, v1


def test_a_missing_extra_refuses_with_the_install_command(
    demo: tuple[Path, Path], without_wordllama: None
) -> None:
    reference, v1 = demo
    with pytest.raises(UsageError, match=r"assay-eval\[semantic\].*--allow-fallback"):
        assay.score("claims", pred=v1, gold=reference, ci=False)


def test_the_fallback_is_recorded_and_is_another_run(
    demo: tuple[Path, Path], without_wordllama: None
) -> None:
    reference, v1 = demo
    fallback = assay.score("claims", pred=v1, gold=reference, ci=False, allow_fallback=True)
    assert fallback.settings["claims"]["matcher_backend"] == "hybrid:tfidf"
    assert "|matcher:hybrid:tfidf|" in fallback.signature
    chosen = assay.score("claims", pred=v1, gold=reference, ci=False, embedding_model="none")
    assert chosen.settings["claims"]["matcher_backend"] == "hybrid:tfidf"  # the same matcher
    load_embedding_model.cache_clear()
    sys.modules.pop("wordllama")
    if not HAS_WORDLLAMA:
        pytest.skip("the [semantic] extra is not installed: nothing to compare with")
    full = assay.score("claims", pred=v1, gold=reference, ci=False)
    backend = full.settings["claims"]["matcher_backend"]
    assert backend.startswith("hybrid:tfidf+wordllama-") and backend.endswith(":l2_supercat_256")
    assert full.run_id != fallback.run_id
    assert full.signature != fallback.signature
    assert full.provenance.config_sha256 != fallback.provenance.config_sha256


def test_the_cli_warns_before_scoring(
    demo: tuple[Path, Path],
    without_wordllama: None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    reference, v1 = demo
    args = ["claims", "evaluate", "--reference", str(reference), "--extracted", str(v1)]
    args += ["--no-store", "--no-ci", "-o", str(tmp_path / "run.json")]
    assert main(args) == 2
    assert "pip install 'assay-eval[semantic]'" in capsys.readouterr().err
    assert main([*args, "--allow-fallback"]) == 0
    err = capsys.readouterr().err
    assert "warning: falling back to hybrid:tfidf" in err
    # with the matcher lines, printed before scoring starts
    assert err.index("matcher:") < err.index("trust:") < err.index("warning: falling back")
    run = assay.Run.load(tmp_path / "run.json")
    assert run.settings["claims"]["matcher_backend"] == "hybrid:tfidf"
