"""Everything a task suite imports, from one module: the plugin author's guide.

A suite turns saved predictions and gold into one statistics row per item; the engine pairs
the records, scores the items, sums the rows and computes every metric with its bootstrap CI
and paired tests from the sums. A suite writes four things::

    from assay.suite import ItemScore, LoadedInputs, Section, Task, mean_columns, mean_metric

    class WordsSettings(Section):          # its section of assay.yaml, and `assay score` options
        field: str = "text"

    class WordsTask(Task[WordsSettings]):
        name = "words"; description = "exact match of a text field"
        settings_model = WordsSettings

        def load(self, pred, gold, settings): ...            # files -> LoadedInputs
        def score_item(self, item, settings): ...            # one Item -> ItemScore
        def metric_specs(self, scores, settings): ...        # the run's MetricSpecs
        def summaries(self, items, scores, settings): ...     # optional: tables for reports

The README's "Writing a task suite" has the whole of it, runnable.

**The flow.** ``load`` reads the prediction and gold files into records (collect them with
:func:`record_list`, read them with :func:`read_records`), ``prepare`` completes the settings
from the inputs, ``pred_key``/``gold_key`` pair a prediction with its gold (the record's id by
default), ``score_item`` scores one :class:`Item` (missing and failed ones too: they stay in
the denominators), or ``score_batch`` a block of ``batch_size`` items when they share work
(it must return what ``score_item`` would, item by item), ``metric_specs`` names the run's
metrics, ``summaries`` adds what is not a metric (confusion matrices, per-class tables).

**Statistics rows.** ``ItemScore.stats`` maps column names to finite numbers. A metric is a
:class:`MetricSpec`: the columns it sums over the items and the kind that turns the sums into
the score (``mean_metric``: Σv / Σ[v defined], with the row made by ``mean_columns``;
``ratio_metric``: Σnum / Σden; ``precision_metric``, ``recall_metric``, ``fbeta_metric``
over pooled tp/fp/fn; ``macro_metric`` over per-class pairs). The rule: a row is sparse, a
column an item leaves out counts as 0 for it, but every column a spec names must be emitted
by some item of the run. Emit 0.0 explicitly where there is nothing to count, or leave the
spec out of ``metric_specs`` when no item defines it; a spec naming a column no item emitted
stops the run with "unknown stats column(s)", naming the suite, the metric and the columns.

**Metric kinds.** The built-in kinds are rates in [0, 1] (``mean``, ``ratio``,
``precision``, ``recall``, ``fbeta``, ``macro``) and sacrebleu's corpus BLEU, chrF (both in
[0, 100]) and TER ([0, ∞), lower is better). A quantity of another range (an average error
in days, a count) takes a kind of its own: :func:`register_kind` with its ``lower`` and
``upper`` bounds, its direction (``higher_is_better``, or None to leave it to each spec) and
``sample(rng, n)``, valid statistics of n items for the checks below. A kind maps sums of
shape (..., k) to scores of shape (...), NaN where undefined (:func:`safe_divide`).

**Checks.** :func:`check_kinds` runs assay's common checks on kinds (values in the declared
range, invariance to item order, the value a function of the column sums, vectorized, the
bootstrap CI containing the point estimate, the bootstrap's fast path equal to the generic
one); :func:`check_suite` scores a suite on example data and runs them on its specs, with
the statistics-row rule and ``score_batch`` against ``score_item``. Each raises
:class:`CheckFailed` (an ``AssertionError``) naming every failed check: call them in the
suite's tests.

**The folder.** assay's own suites share one shape (``src/assay/suites/<name>/``, see
docs/architecture.md), which a plugin package can copy: ``__init__.py`` (the entry point
``task`` and the public names), ``task.py`` (the :class:`Task`, delegating to the files
below), ``settings.py`` (its :class:`Section`), ``scorer.py`` (an item to its
:class:`ItemScore`), ``metrics.py`` (its MetricSpecs and kinds), ``summaries.py``,
``examples.py`` (example data), ``docs.md``, and a private ``_lib/`` for everything else.

**Registering.** Name the task instance under the ``assay.tasks`` entry-point group of the
package (``my_suite = "my_package.my_suite:task"``), or call :func:`register_task` in-process;
``assay score my_suite``, ``assay tasks``, compare, significance and gate then work on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay._engine.checks import CheckFailed, check_kinds, check_suite
    from assay._engine.item import Item
    from assay._engine.registry import register_task
    from assay._engine.spill import record_list
    from assay._engine.task import BlockSummaries, ItemScore, LoadedInputs, Task
    from assay._io.readers import read_records
    from assay._io.records import ReadResult, SourceRecord
    from assay._settings.model import Section
    from assay.errors import ConfigError, InputError, RunInputError
    from assay.metrics.kinds import FloatArray, register_kind, safe_divide
    from assay.metrics.spec import (
        MetricSpec,
        Tier,
        fbeta_metric,
        macro_metric,
        mean_columns,
        mean_metric,
        precision_metric,
        ratio_metric,
        recall_metric,
    )

_MODULES = {
    "assay._engine.checks": ("CheckFailed", "check_kinds", "check_suite"),
    "assay._engine.item": ("Item",),
    "assay._engine.registry": ("register_task",),
    "assay._engine.spill": ("record_list",),
    "assay._engine.task": ("BlockSummaries", "ItemScore", "LoadedInputs", "Task"),
    "assay._io.readers": ("read_records",),
    "assay._io.records": ("ReadResult", "SourceRecord"),
    "assay._settings.model": ("Section",),
    "assay.errors": ("ConfigError", "InputError", "RunInputError"),
    "assay.metrics.kinds": ("FloatArray", "register_kind", "safe_divide"),
    "assay.metrics.spec": (
        "MetricSpec",
        "Tier",
        "fbeta_metric",
        "macro_metric",
        "mean_columns",
        "mean_metric",
        "precision_metric",
        "ratio_metric",
        "recall_metric",
    ),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "BlockSummaries",
    "CheckFailed",
    "ConfigError",
    "FloatArray",
    "InputError",
    "Item",
    "ItemScore",
    "LoadedInputs",
    "MetricSpec",
    "ReadResult",
    "RunInputError",
    "Section",
    "SourceRecord",
    "Task",
    "Tier",
    "check_kinds",
    "check_suite",
    "fbeta_metric",
    "macro_metric",
    "mean_columns",
    "mean_metric",
    "precision_metric",
    "ratio_metric",
    "read_records",
    "recall_metric",
    "record_list",
    "register_kind",
    "register_task",
    "safe_divide",
]
