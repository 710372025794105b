"""COMET (unbabel-comet), an optional extra: load a model from a local path or cache, score
(source, hypothesis, reference) triples, attach the scores to the prediction records
(:func:`attach_comet`), and say plainly when they could not be computed.

assay never downloads a model: ``--comet-model`` names a checkpoint file, a model directory
(``checkpoints/model.ckpt`` inside) or a model already in the local Hugging Face cache.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from assay._io.records import ReadResult, SourceRecord
from assay.errors import ConfigError, InputError
from assay.suites.translation._lib.entries import hypothesis_text, is_blank

if TYPE_CHECKING:
    from assay.suites.translation.settings import TranslationSettings

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


def _json_name(value: float | None) -> str:
    """NaN, Infinity or -Infinity, as JSON readers write them."""
    if value is None or math.isnan(value):
        return "NaN"
    return "Infinity" if value > 0 else "-Infinity"


def attach_comet(
    golds: Sequence[ReadResult],
    preds: Sequence[ReadResult],
    settings: TranslationSettings,
    scorer: CometScorer | None = None,
) -> list[ReadResult]:
    """The prediction records with their per-entry COMET score and where it came from.

    ``comet``: the score (None when there is none, or it is not finite: then
    ``comet_not_finite`` and ``comet_error``, the entry's listed COMET failure);
    ``comet_source``: ``"report"`` (the report's own scores, every scorable entry has one),
    ``"computed"`` (by ``scorer``, else by unbabel-comet loaded from ``settings.comet_model``)
    or None; ``comet_note``: why COMET was not computed.
    """
    gold_by_id: dict[str | None, dict[str, Any]] = {
        g.id: g.record for g in golds if isinstance(g, SourceRecord) and g.id is not None
    }
    scorable = [
        p
        for p in preds
        if isinstance(p, SourceRecord)
        and p.id in gold_by_id
        and any(not is_blank(r) for r in gold_by_id[p.id]["references"])
    ]
    note: str | None = None
    source: str | None = None
    scores: dict[int, float] = {}
    from_report = bool(scorable) and all(p.record.get("comet") is not None for p in scorable)
    if settings.comet == "off":
        note = "COMET not computed: switched off (comet: off)"
    elif not scorable:
        note = "COMET not computed: no entry has both a reference and a prediction record"
    elif from_report and settings.comet in ("auto", "report"):
        source = "report"
        scores = {id(p): float(p.record["comet"]) for p in scorable}
    elif settings.comet == "report":
        note = "COMET not computed: the report has no per-entry COMET score for every entry"
    else:
        try:
            scorer = scorer or load_comet(
                settings.comet_model, batch_size=settings.comet_batch_size, gpus=settings.comet_gpus
            )
            refs = [
                [r for r in gold_by_id[p.id]["references"] if not is_blank(r)] for p in scorable
            ]
            values = scorer.score(
                [str(gold_by_id[p.id]["source"]) for p in scorable],
                [
                    hypothesis_text(p.record["predicted"], settings.empty_prediction)
                    for p in scorable
                ],
                [r[0] for r in refs],
            )
        except CometUnavailable as err:
            if settings.comet == "on":
                raise ConfigError(f"translation.comet is 'on' but {err}") from None
            note = f"COMET not computed: {err}"
        else:
            if len(values) != len(scorable):
                raise InputError(
                    f"COMET scorer returned {len(values)} scores for {len(scorable)} segments"
                )
            source = "computed"
            scores = {id(p): float(v) for p, v in zip(scorable, values, strict=True)}
    origin = "in the report" if source == "report" else f"from {getattr(scorer, 'model_name', '?')}"
    out: list[ReadResult] = []
    for p in preds:
        if isinstance(p, SourceRecord):
            value = scores.get(id(p))
            finite = value is None or math.isfinite(value)
            record = {
                **p.record,
                # Infinity/NaN from a report or a model is no score: null, counted and listed
                "comet": value if finite else None,
                "comet_not_finite": not finite,
                "comet_source": source,
                "comet_note": note,
            }
            if not finite:
                record["comet_error"] = (
                    f"COMET score {_json_name(value)} {origin}: not a number, left out of comet"
                )
            out.append(SourceRecord(p.id, record, p.file, p.line))
        else:
            out.append(p)
    return out
