"""The handoff ablation (seed 000 §12): the same documents scored with the predicted-subtype
handoff and with the ground-truth-subtype handoff; sorter_loss_pp is the gap in percentage
points, with the paired bootstrap CI and p-value of the shared engine."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from assay._engine.run import Run
from assay.errors import UsageError
from assay.stats import DEFAULT_ALPHA, DEFAULT_N_BOOTSTRAP, DEFAULT_SEED, paired_test


@dataclass(frozen=True)
class HandoffAblation:
    """sorter_loss_pp = 100 · (ground-truth handoff − predicted handoff) on ``metric``."""

    metric: str
    predicted_handoff_overall: float | None
    ground_truth_handoff_overall: float | None
    sorter_loss_pp: float | None
    ci_lower_pp: float | None
    ci_upper_pp: float | None
    p_value: float
    significant: bool
    n_shared: int
    warnings: tuple[str, ...]
    #: the test that decided (exact sign-flip, randomization or bootstrap, by n) and its MDE
    test: str = ""
    mde_pp: float | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _pp(value: float | None) -> float | None:
    return None if value is None else 100.0 * value


def handoff_ablation(
    predicted: Run,
    ground_truth: Run,
    *,
    metric: str = "extractor_overall",
    n_resamples: int = DEFAULT_N_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
) -> HandoffAblation:
    """Paired test (the one dispatch, ``assay.stats.paired_test``: exact sign-flip at few
    documents, randomization below 50, the bootstrap above) of ground-truth minus predicted
    handoff on the shared documents (same model, prompt and documents: only the subtype cue
    differs); one metric, so no family to adjust."""
    spec = next((s for s in ground_truth.metric_specs() if s.name == metric), None)
    other = next((s for s in predicted.metric_specs() if s.name == metric), None)
    if spec is None or other is None or not spec.same_definition(other):
        raise UsageError(f"metric {metric!r} must be defined alike in both runs")
    table_gt, table_pred = ground_truth.table(), predicted.table()
    pred_ids = set(table_pred.ids)
    shared = [i for i in table_gt.ids if i in pred_ids]
    if not shared:
        raise UsageError("the two handoff runs share no documents")
    warnings = []
    if len(shared) != len(table_gt) or len(shared) != len(table_pred):
        warnings.append(
            f"the runs differ in documents: the ablation uses the {len(shared)} shared ones"
        )
    (sig,) = paired_test(
        table_gt.take(shared),
        table_pred.take(shared),
        [spec],
        n_resamples=n_resamples,
        seed=seed,
        alpha=alpha,
    )
    return HandoffAblation(
        metric=metric,
        predicted_handoff_overall=sig.system_b_score,
        ground_truth_handoff_overall=sig.system_a_score,
        sorter_loss_pp=_pp(sig.delta),
        ci_lower_pp=_pp(sig.ci_lower),
        ci_upper_pp=_pp(sig.ci_upper),
        p_value=sig.p_value,
        significant=sig.significant,
        n_shared=len(shared),
        warnings=tuple(warnings),
        test=sig.method,
        mde_pp=_pp(sig.mde),
    )
