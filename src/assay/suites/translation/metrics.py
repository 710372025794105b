"""The run's metrics (seed 001), each a MetricSpec over the columns ``scorer.py`` writes:

====================  =======================================================================
``corpus_chrf``,      sacrebleu's corpus scores from the summed per-segment statistics (kinds
``corpus_bleu``,      ``sacrebleu_chrf``, ``sacrebleu_bleu``, ``sacrebleu_ter``, registered by
``corpus_ter``        :mod:`assay.metrics.corpus.kinds`); TER unless switched off
``exact_match_rate``  share of non-error entries whose prediction matches exactly; 0.0 when
                      none is left (kind ``rate_or_zero``)
``error_rate``        share of entries whose translation reported an error (diagnostic)
``comet``             mean per-entry COMET score, when any entry has one
plugin metrics        the mean of each numeric per-entry ``plugin_metrics`` value
====================  =======================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from assay.metrics.corpus.sufficient import corpus_metrics, n_references
from assay.metrics.spec import MetricSpec, mean_metric
from assay.suites.translation._lib.plugins import PLUGIN_COLUMN, column_of

if TYPE_CHECKING:  # the settings model (pydantic) and the engine load with the task
    from assay._engine.task import ItemScore
    from assay.suites.translation.settings import TranslationSettings

#: an entry's exact-match stats: (match, counted); an error entry is not counted
EXACT_COLUMNS = ("exact_match", "exact_match#n")


def exact_match_columns(counted: bool, match: bool) -> dict[str, float]:
    """The two exact-match stats: (match, counted); an error entry is not counted."""
    return {EXACT_COLUMNS[0]: float(counted and match), EXACT_COLUMNS[1]: float(counted)}


def exact_match_spec() -> MetricSpec:
    """exact_match_rate (seed 001): share of non-error entries with exact_match; 0.0 if none."""
    return MetricSpec(
        "exact_match_rate",
        "rate_or_zero",
        EXACT_COLUMNS,
        tier="headline",
        description="share of non-error entries whose prediction matches exactly "
        "(error entries left out; 0.0 when none is left)",
    )


def metric_specs(scores: Sequence[ItemScore], settings: TranslationSettings) -> list[MetricSpec]:
    """chrF++, BLEU, TER, exact_match_rate, error_rate, COMET when scored, plugin means."""
    nrefs = n_references([sc.details["references"] for sc in scores])
    specs = [m.spec(m.signature(nrefs)) for m in corpus_metrics(settings)]
    specs.append(exact_match_spec())
    specs.append(
        mean_metric(
            "error_rate",
            "error",
            tier="diagnostic",
            higher_is_better=False,
            description="share of entries whose translation reported an error",
        )
    )
    if any(sc.stats.get("comet#n", 0) > 0 for sc in scores):
        specs.append(
            mean_metric(
                "comet",
                "comet",
                tier="headline",
                description="mean per-entry COMET score over entries with a reference",
            )
        )
    plugin_names = sorted(
        {
            c.removeprefix(PLUGIN_COLUMN)
            for sc in scores
            for c in sc.stats
            if c.startswith(PLUGIN_COLUMN) and not c.endswith("#n")
        }
    )
    for name in plugin_names:
        specs.append(
            mean_metric(
                name,
                column_of(name),
                description="mean of a per-entry plugin metric over entries that carry it",
            )
        )
    return specs
