"""Entries scored into their statistics rows (seed 001), a batch at a time.

An entry's row holds, under seed 001's entry rules (``_lib/entries.py``):

* sacrebleu's per-segment sufficient statistics of chrF++, BLEU and TER (all zeros for an entry
  without a reference, which then adds nothing to any corpus sum), and ``segments`` (1 when it
  has a reference);
* ``exact_match`` / ``exact_match#n``: the report's flag (or whitespace-normalized equality),
  an error entry not counted, a missing one a counted miss;
* ``error``, ``comet`` (when it has a reference) and each numeric ``plugin_metrics`` value, as
  per-entry means.

Its scores are each metric's corpus formula over that one segment's row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay.metrics.corpus.sufficient import SEGMENTS_COLUMN, CorpusMetric, corpus_metrics
from assay.metrics.spec import mean_columns
from assay.suites.translation._lib.entries import hypothesis_text, is_blank, recomputed_exact_match
from assay.suites.translation._lib.plugins import column_of, flatten_numeric
from assay.suites.translation._lib.statsrow import Shapes, stats_row
from assay.suites.translation.metrics import exact_match_columns
from assay.suites.translation.settings import TranslationSettings

#: a metric's per-segment rows and sentence scores over a batch
CorpusRows = tuple[CorpusMetric, list[list[float]], list[float]]


def score_batch(items: Sequence[Item], settings: TranslationSettings) -> list[ItemScore]:
    """Entries → their sacrebleu statistics rows, exact-match, COMET and plugin columns.

    The corpus statistics of the whole batch are extracted at once (the vectorized chrF and
    BLEU counts of ``mt sacrebleu``, each reference preprocessed once), and the per-segment
    scores are each metric's corpus formula over that one segment's row, for all rows at once.
    """
    refs = [_refs(item) for item in items]
    predicted = [_predicted(item) for item in items]
    hypotheses = [hypothesis_text(p, settings.empty_prediction) for p in predicted]
    segments = np.array([1.0 if r else 0.0 for r in refs])
    corpus: list[CorpusRows] = []
    # TER segments past its size bound: left out (zero row), flagged and listed
    failures: dict[tuple[int, int], str] = {}
    # the rows' values are mostly small counts: one float object per distinct value,
    # shared by every entry's stats dict (~24 bytes × columns × entries less to hold)
    shared: dict[float, float] = {}
    for metric in corpus_metrics(settings):
        rows = metric.extract(hypotheses, refs, failures if metric.key == "ter" else None)
        sentence = metric.spec("").finalize(np.column_stack([rows, segments]))
        values = [[shared.setdefault(v, v) for v in row] for row in rows.tolist()]
        corpus.append((metric, values, sentence.tolist()))
    ter_errors = {i: why for (_, i), why in failures.items()}
    shapes: Shapes = {}  # the batch's column names, shared by its entries' rows
    return [
        entry_score(
            item,
            k,
            refs[k],
            predicted[k],
            hypotheses[k],
            corpus,
            settings,
            shapes,
            ter_errors.get(k),
        )
        for k, item in enumerate(items)
    ]


def entry_score(
    item: Item,
    k: int,
    refs: tuple[str, ...],
    predicted: Any,
    hypothesis: str,
    corpus: Sequence[CorpusRows],
    settings: TranslationSettings,
    shapes: Shapes,
    ter_error: str | None = None,
) -> ItemScore:
    """Entry ``k`` of a batch: its corpus rows and sentence scores plus its own columns."""
    pred = item.pred if item.status == "ok" else None
    error = pred is not None and pred.get("error") is not None
    stats: dict[str, float] = {}
    scores: dict[str, float | None] = {}
    for metric, rows, sentence in corpus:
        stats.update(zip(metric.columns, rows[k], strict=True))
        failed = metric.key == "ter" and ter_error is not None
        scores[metric.key] = sentence[k] if refs and not failed else None
    stats[SEGMENTS_COLUMN] = 1.0 if refs else 0.0

    if pred is not None and not error:
        flag = pred.get("exact_match")
        if settings.exact_match == "report" and isinstance(flag, bool):
            match = flag
        else:
            match = recomputed_exact_match(refs, predicted)
        stats.update(exact_match_columns(True, match))
        scores["exact_match"] = float(match)
    elif error:
        stats.update(exact_match_columns(False, False))
        scores["exact_match"] = None
    else:  # missing or unreadable: a miss that stays in the denominator
        stats.update(exact_match_columns(True, False))
        scores["exact_match"] = 0.0
    stats.update(mean_columns("error", 1.0 if error else 0.0))

    comet = pred.get("comet") if pred is not None else None
    stats.update(mean_columns("comet", comet if refs else None))
    if comet is not None and refs:
        scores["comet"] = float(comet)
    if settings.plugin_metrics and pred is not None:
        for name, value in flatten_numeric(pred.get("plugin_metrics") or {}).items():
            stats.update(mean_columns(column_of(name), value))

    flags: list[str] = [item.status] if item.status != "ok" else []
    if not refs:
        flags.append("blank_expected")
    if is_blank(predicted):
        flags.append("blank_prediction")
    if error:
        flags.append("error_entry")
    if pred is not None and pred.get("comet_not_finite"):
        flags.append("comet_not_finite")
    if ter_error is not None:
        flags.append("ter_failed")
    details: dict[str, Any] = {
        "source": item.gold.get("source", ""),
        "references": list(refs),
        "predicted": predicted,
    }
    if hypothesis != predicted:  # only when the entry rules changed the text
        details["scored_as"] = hypothesis
    why = pred.get("error") if pred is not None else item.error
    if why is not None:
        details["error"] = why
    if ter_error is not None:
        details["ter_error"] = ter_error
    if pred is not None and pred.get("comet_error"):
        details["comet_error"] = pred["comet_error"]
    return ItemScore(
        stats=stats_row(stats, shapes), scores=scores, flags=tuple(flags), details=details
    )


def _refs(item: Item) -> tuple[str, ...]:
    """The entry's non-blank references."""
    return tuple(r for r in item.gold.get("references", []) if not is_blank(r))


def _predicted(item: Item) -> Any:
    """The entry's predicted text (None when missing or unreadable)."""
    return item.pred.get("predicted") if item.status == "ok" and item.pred is not None else None
