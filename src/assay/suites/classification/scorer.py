"""One item scored into its statistics row (seed 000 §1–§2).

=================  ==========================================================================
``exact_match``    1.0 iff ``normalize_label(output) == normalize_label(expected)``, else 0.0;
                   failed, error and missing rows count as misses
``failure``        1.0 for a row whose output starts with the ``ERROR: `` sentinel (model
                   error, invalid class, timeout) or could not be parsed, else 0.0
``correct[c]``,    per-class accuracy counts for the item's gold class ``c``: correct, and
``count[c]``       1 for every item (a failed, error or missing row is a miss in its class's
                   denominator, as the README promises)
``usable[c]``      1 when the item has a usable output: the denominator of seed 000 §2's
                   per-class accuracy "failed rows excluded", kept as a diagnostic
``tp``, ``fp``,    with a positive class: the item as a binary question
``fn``
=================  ==========================================================================

:func:`score_item` is the definition; a run scores its items a block at a time by
``_lib.block.score_block``, which gives the same scores faster.
"""

from __future__ import annotations

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._labels.normalize import is_error_output, normalize_label, normalized_labels
from assay.metrics.spec import mean_columns
from assay.suites.classification.settings import ClassificationSettings

#: a raw output of these types is kept in the details as it is; any other is shown as text
SCALARS = (str, int, float, bool, type(None))


def score_item(item: Item, settings: ClassificationSettings) -> ItemScore:
    """The item's exact match, failure and per-class cells, and tp/fp/fn with a positive class.

    Labels are normalized against ``settings.labels`` (``prepare`` sets them to the gold labels
    seen when none are configured); a usable prediction outside them is flagged
    ``invalid_label``.
    """
    labels = settings.labels
    gold = item.gold.get(settings.expected_field)
    raw = item.pred.get(settings.predicted_field) if item.pred is not None else None
    expected = normalize_label(gold, labels)
    error_output = is_error_output(raw)
    error_row = error_output or item.status == "failed"
    usable = item.status == "ok" and not error_row
    predicted = normalize_label(raw, labels) if usable else None
    correct = 1.0 if usable and predicted == expected else 0.0
    stats = {
        **mean_columns("exact_match", correct),
        **mean_columns("failure", 1.0 if error_row else 0.0),
        f"correct[{expected}]": correct,
        f"count[{expected}]": 1.0,
        f"usable[{expected}]": 1.0 if usable else 0.0,
    }
    if settings.positive is not None:
        positive = normalize_label(settings.positive, labels)
        pred_pos, gold_pos = predicted == positive, expected == positive
        stats["tp"] = float(pred_pos and gold_pos)
        stats["fp"] = float(pred_pos and not gold_pos)
        stats["fn"] = float(gold_pos and not pred_pos)
    flags: tuple[str, ...] = () if item.status == "ok" else (item.status,)
    if error_output:
        flags += ("error_row",)
    if usable and labels and predicted not in normalized_labels(labels):
        flags += ("invalid_label",)
    details = {
        "expected": expected,
        "predicted": predicted,
        "raw_output": raw if isinstance(raw, SCALARS) else str(raw),
    }
    return ItemScore(stats, {"exact_match": correct}, flags, details)
