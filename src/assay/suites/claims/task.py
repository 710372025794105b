"""The claims suite (seed 003): extracted claims scored against a curator's reference, per paper.

The item is a paper: its reference claims are the gold, its extracted claims the prediction.
``load`` reads both sides (``_lib/loading.py``), pairs the papers (by slug, or by DOI) and
aligns each pair once with the configured matcher (``_lib/align.py``); each paper's alignment
is scored into its counts (``scorer.py``); the run's metrics are the specs of ``metrics.py``
and its summaries those of ``summaries.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import ItemScore, LoadedInputs, Task
from assay._judge import JudgeClient
from assay.errors import UsageError
from assay.metrics.spec import MetricSpec
from assay.suites.claims._lib.align import (
    align_papers,
    matcher_backend,
    pair_by_doi,
    refuse_fallback,
)
from assay.suites.claims._lib.loading import read_papers
from assay.suites.claims.metrics import claims_metric_specs
from assay.suites.claims.scorer import score_paper
from assay.suites.claims.settings import ClaimsSettings
from assay.suites.claims.summaries import claims_summaries


class ClaimsTask(Task[ClaimsSettings]):
    """Claim-extraction round trip: recovery, panel agreement and role agreement per paper.

    ``client`` is an optional JudgeClient for the LLM matcher (the CLI passes one so it can
    report what the run spent); without it the task builds one from the settings.
    """

    name: ClassVar[str] = "claims"
    description: ClassVar[str] = (
        "claim-extraction round trip: recovery, panel and role agreement per paper"
    )
    metrics_version: ClassVar[int] = 1
    settings_model = ClaimsSettings
    #: one item is one paper: CIs and tests resample papers, the claims of a paper together
    item_unit: ClassVar[str] = "paper"

    def __init__(self, client: JudgeClient | None = None) -> None:
        self.client = client
        #: set by load when --max-cost stopped the LLM matcher: why, and the papers left out
        self.stopped: str | None = None
        self.not_matched: list[str] = []
        #: set by load with the LLM matcher: the models that answered, the pass's warnings
        self.answered_by: list[str] = []
        self.warnings: list[str] = []

    def __getstate__(self) -> dict[str, Any]:
        # a client holds sockets and locks; workers only score
        return {**vars(self), "client": None}

    def load(self, pred: Path, gold: tuple[Path, ...], settings: ClaimsSettings) -> LoadedInputs:
        """Reference papers (gold) and extracted papers (predictions), aligned pair by pair."""
        if len(gold) != 1:
            raise UsageError("claims takes exactly one reference (--gold / --reference)")
        backend = matcher_backend(settings)
        if backend.fallback is not None and not settings.allow_fallback:
            raise UsageError(refuse_fallback(settings, backend))  # before anything is aligned
        golds = read_papers(gold[0])
        preds = read_papers(pred)
        if settings.pair_by_doi:
            preds = pair_by_doi(preds, golds)
        aligned = align_papers(preds, golds, settings, client=self.client)
        self.stopped, self.not_matched = aligned.stopped, aligned.not_matched
        self.answered_by, self.warnings = aligned.answered_by, aligned.warnings
        if aligned.not_matched:  # never matched: out of the partial scorecard altogether
            left = set(aligned.not_matched)
            golds = [g for g in golds if g.id not in left]
        return LoadedInputs(aligned.records, golds, (pred,), gold)

    def prepare(self, loaded: LoadedInputs, settings: ClaimsSettings) -> ClaimsSettings:
        """The matcher that ran, recorded in the settings, so the run's config digest, id and
        signature know it (never read from the settings file): ``matcher_backend`` tells a run
        with the configured embedder from one that fell back without it (issue 34: they were
        the same run), and the LLM matcher's answering models are in ``judge.answered_by``."""
        update: dict[str, object] = {"matcher_backend": matcher_backend(settings).name}
        answered = self.answered_by or None if settings.matcher == "llm" else None
        if settings.judge.answered_by != answered:
            update["judge"] = settings.judge.model_copy(update={"answered_by": answered})
        return settings.model_copy(update=update)

    def score_item(self, item: Item, settings: ClaimsSettings) -> ItemScore:
        return score_paper(item, settings)

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: ClaimsSettings
    ) -> list[MetricSpec]:
        return claims_metric_specs()

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: ClaimsSettings
    ) -> dict[str, Any]:
        out = claims_summaries(
            items, scores, settings, stopped=self.stopped, not_matched=self.not_matched
        )
        if self.warnings:  # the engine adds them to the run's warnings
            out["warnings"] = list(self.warnings)
        return out


task = ClaimsTask()
