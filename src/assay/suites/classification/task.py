"""The classification suite (seed 000 §1–§2): exact match, failures, per-class and macro
accuracy, a confusion matrix and, for ``--positive CLASS``, binary precision / recall / F1."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import (
    BlockSummaries,
    ItemScore,
    LoadedInputs,
    Task,
    item_outcome,
    new_score,
    stats_columns,
)
from assay._io.compact import ShapedRecords
from assay._io.readers import json_type, read_records
from assay._io.records import ParseFailure, ReadResult, SourceRecord
from assay._labels.normalize import normalized_labels
from assay.errors import UsageError
from assay.metrics.spec import (
    MetricSpec,
    fbeta_metric,
    macro_metric,
    mean_metric,
    precision_metric,
    ratio_metric,
    recall_metric,
)
from assay.suites.classification.labels import ERROR_PREFIX, normalize_label
from assay.suites.classification.settings import ClassificationSettings

_LABEL_TYPES = (str, int, float, bool, dict)
_STATUS = attrgetter("status")
_SCALARS = (str, int, float, bool, type(None))
#: ``LoadedInputs.gathered`` key: the normalized gold labels seen while reading
_GOLD_LABELS = "gold_labels"


@dataclass(frozen=True)
class _Derived:
    """What ``score_item`` derives from the settings, once per settings object (a run)."""

    settings: ClassificationSettings
    valid: list[str] | None
    normalized: frozenset[str]  # the valid labels normalized
    positive: str | None  # the positive class normalized
    expected_field: str
    predicted_field: str
    _columns: dict[str, tuple[str, str]] = field(default_factory=dict)

    def columns(self, label: str) -> tuple[str, str]:
        """``(correct[label], count[label])``, built once per label."""
        hit = self._columns.get(label)
        if hit is None:
            hit = self._columns[label] = (f"correct[{label}]", f"count[{label}]")
        return hit


_LAST: list[_Derived] = []  # the settings object last seen and what was derived from it


def _derived(s: ClassificationSettings) -> _Derived:
    """The derived values for ``s`` (settings are fixed for a run: derived again only when
    another settings object comes)."""
    last = _LAST[0] if _LAST else None
    if last is not None and last.settings is s and last.valid is s.labels:
        return last
    valid = s.labels
    d = _Derived(
        settings=s,
        valid=valid,
        normalized=normalized_labels(valid) if valid else frozenset(),
        positive=None if s.positive is None else normalize_label(s.positive, valid),
        expected_field=s.expected_field,
        predicted_field=s.predicted_field,
    )
    _LAST[:] = [d]
    return d


def _label_field(res: SourceRecord, field: str, role: str) -> ReadResult:
    """Keep the record when ``field`` holds a usable label, else a failure naming the field."""
    if field not in res.record:
        return ParseFailure(res.file, res.line, f"{role} record has no field {field!r}", res.id)
    value = res.record[field]
    if value is not None and not isinstance(value, _LABEL_TYPES):
        return ParseFailure(
            res.file,
            res.line,
            f"{role} field {field!r} must be a label (string, number or object), "
            f"found {json_type(value)}",
            res.id,
        )
    return res


def _check(
    results: Iterable[ReadResult],
    field: str,
    role: str,
    id_field: str,
    labels: set[str] | None = None,
) -> Sequence[ReadResult]:
    """The results with unusable labels turned into failures, kept as columns
    (`ShapedRecords`: ~100 bytes a record, in memory on both paths); the normalized labels of
    the records kept are added to ``labels``."""
    return ShapedRecords(id_field, _checked(results, field, role, labels))


def _checked(
    results: Iterable[ReadResult], field: str, role: str, labels: set[str] | None
) -> Iterator[ReadResult]:
    """``_label_field`` of each record; a record whose label is a string is kept as it is
    without the call (a string is a label), and each distinct string label is normalized once
    (``normalize_label`` without a label set depends on the text only)."""
    seen: dict[str, None] = {}  # the string labels already added to ``labels``
    for r in results:
        if type(r) is SourceRecord:
            value = r.record.get(field, _ABSENT)
            if type(value) is str:
                if labels is not None and value not in seen:
                    if len(seen) < _SEEN_MAX:
                        seen[value] = None
                    labels.add(normalize_label(value))
                yield r
                continue
        if isinstance(r, SourceRecord):
            r = _label_field(r, field, role)
            if labels is not None and isinstance(r, SourceRecord):
                labels.add(normalize_label(r.record[field]))
        yield r


_ABSENT = object()
#: distinct string labels remembered by ``_checked`` (free text past it is normalized each time)
_SEEN_MAX = 4096


def _split(
    results: Iterable[ReadResult], s: ClassificationSettings, labels: set[str]
) -> tuple[Sequence[ReadResult], Sequence[ReadResult]]:
    """(gold, predictions) of one file holding both label columns, read in one pass."""
    golds = ShapedRecords(s.id_field)
    preds = ShapedRecords(s.id_field)
    for r in results:
        if isinstance(r, ParseFailure):
            golds.append(r)
            preds.append(r)
        else:
            golds.extend(_checked((r,), s.expected_field, "gold", labels))
            preds.append(_label_field(r, s.predicted_field, "prediction"))
    return golds, preds


class ClassificationTask(Task[ClassificationSettings], BlockSummaries[ClassificationSettings]):
    """Label classification: one gold label and one predicted label per item."""

    name: ClassVar[str] = "classification"
    description: ClassVar[str] = (
        "label classification: exact match, per-class, macro, binary P/R/F1"
    )
    metrics_version: ClassVar[int] = 1
    settings_model = ClassificationSettings
    #: items per score_batch call: one collector pause and one call per block, not per item
    batch_size: ClassVar[int] = 1024

    def load(
        self, pred: Path, gold: tuple[Path, ...], settings: ClassificationSettings
    ) -> LoadedInputs:
        """Separate gold and prediction files, or one file with both label columns."""
        pred_records = read_records(pred, id_field=settings.id_field)
        if len(gold) > 1:
            raise UsageError("classification takes one gold file or directory")
        # the gold labels are noted as they are read: ``prepare`` needs no second pass over
        # records that may be on disk
        labels: set[str] = set()
        if not gold:
            golds, preds = _split(pred_records, settings, labels)
            return LoadedInputs(preds, golds, (pred,), (pred,), {_GOLD_LABELS: labels})
        preds = _check(pred_records, settings.predicted_field, "prediction", settings.id_field)
        gold_records = read_records(gold[0], id_field=settings.id_field)
        golds = _check(gold_records, settings.expected_field, "gold", settings.id_field, labels)
        return LoadedInputs(preds, golds, (pred,), gold, {_GOLD_LABELS: labels})

    def prepare(
        self, loaded: LoadedInputs, settings: ClassificationSettings
    ) -> ClassificationSettings:
        """Without a configured label set, the valid labels are the gold labels seen."""
        if settings.labels is not None:
            return settings
        seen = loaded.gathered.get(_GOLD_LABELS)
        if seen is None:  # inputs not read by ``load``
            seen = {
                normalize_label(r.record.get(settings.expected_field))
                for r in loaded.gold
                if isinstance(r, SourceRecord)
            }
        return settings.model_copy(update={"labels": sorted(seen - {""})})

    def score_item(self, item: Item, settings: ClassificationSettings) -> ItemScore:
        """One item: the block of one (there is one scoring path, ``_score_block``)."""
        return self._score_block([item], settings)[0]

    def score_batch(
        self, items: Sequence[Item], settings: ClassificationSettings
    ) -> list[ItemScore]:
        """The block at once (``_score_block``); item by item through ``score_item`` when a
        subclass overrides that (its scoring is then the one used)."""
        if type(self).score_item is not _SCORE_ITEM:
            return super().score_batch(items, settings)
        return self._score_block(items, settings)

    def _score_block(
        self, items: Sequence[Item], settings: ClassificationSettings
    ) -> list[ItemScore]:
        """Each item's exact match, failure and per-class cells (and tp/fp/fn with a positive
        class). A block's distinct label texts are normalized once each (``normalize_label``
        of a string depends on the text and the label set only), and items with the same status,
        gold text and raw output text share one score (its fields are fixed by those three); the
        scores are made without the frozen ``__init__`` (``new_score``)."""
        d = _derived(settings)
        valid, normalized, positive = d.valid, d.normalized, d.positive
        expected_field, predicted_field, columns = d.expected_field, d.predicted_field, d.columns
        texts: dict[str, str] = {}  # a label text -> its normalized label, this block

        def norm(value: Any) -> str:
            if type(value) is str:
                hit = texts.get(value)
                if hit is None:
                    hit = texts[value] = normalize_label(value, valid)
                return hit
            return normalize_label(value, valid)

        # (status, gold text, raw text) -> the score they give, this block: items alike share
        # one (frozen) score, which the collector then encodes once (text or None values only:
        # ``True == 1`` would make other values' keys collide)
        made: dict[tuple[str, str | None, str | None], ItemScore] = {}
        out: list[ItemScore] = []
        for item in items:
            status = item.status
            gold_value = item.gold.get(expected_field)
            pred = item.pred
            raw = pred.get(predicted_field) if pred is not None else None
            key = None
            if (type(gold_value) is str or gold_value is None) and (
                type(raw) is str or raw is None
            ):
                key = (status, gold_value, raw)
                hit = made.get(key)
                if hit is not None:
                    out.append(hit)
                    continue
            expected = norm(gold_value)
            error_output = isinstance(raw, str) and raw.startswith(ERROR_PREFIX)
            error_row = error_output or status == "failed"
            usable = status == "ok" and not error_row
            predicted = norm(raw) if usable else None
            correct = 1.0 if usable and predicted == expected else 0.0
            correct_column, count_column = columns(expected)
            # exactly ``mean_columns("exact_match", ...)`` and ``mean_columns("failure", ...)``;
            # per-class columns exist for every gold class (zero counts for unusable rows), so
            # two runs on the same gold always define the same per-class and macro metrics
            stats: dict[str, float] = {
                "exact_match": correct,
                "exact_match#n": 1.0,
                "failure": 1.0 if error_row else 0.0,
                "failure#n": 1.0,
                correct_column: correct,
                count_column: 1.0 if usable else 0.0,
            }
            flags: tuple[str, ...] = ()
            if status != "ok":
                flags = (status,)
            if error_output:
                flags += ("error_row",)
            if usable and valid and predicted not in normalized:
                flags += ("invalid_label",)
            if positive is not None:
                pred_pos = predicted == positive
                gold_pos = expected == positive
                stats["tp"] = float(pred_pos and gold_pos)
                stats["fp"] = float(pred_pos and not gold_pos)
                stats["fn"] = float(gold_pos and not pred_pos)
            details = {
                "expected": expected,
                "predicted": predicted,
                "raw_output": raw if isinstance(raw, _SCALARS) else str(raw),
            }
            score = new_score(stats, {"exact_match": correct}, flags, details)
            if key is not None:
                made[key] = score
            out.append(score)
        return out

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: ClassificationSettings
    ) -> list[MetricSpec]:
        # the gold classes seen: every item has the column count[its gold label] (score_item)
        classes = sorted(c[6:-1] for c in stats_columns(scores) if c.startswith("count["))
        specs = [
            mean_metric(
                "exact_match",
                "exact_match",
                tier="headline",
                description="share of items whose normalized label equals gold "
                "(failed, error and missing rows count as misses)",
            ),
            mean_metric(
                "failure",
                "failure",
                higher_is_better=False,
                description="share of rows whose output is an ERROR: sentinel or unparseable",
            ),
        ]
        if classes:
            specs.append(
                macro_metric(
                    "macro_accuracy",
                    [(f"correct[{c}]", f"count[{c}]") for c in classes],
                    tier="headline",
                    description="unweighted mean of per-class accuracy over non-empty classes "
                    "(failed rows excluded)",
                )
            )
        for c in classes:
            specs.append(
                ratio_metric(
                    f"accuracy[{c}]",
                    f"correct[{c}]",
                    f"count[{c}]",
                    tier="diagnostic",
                    description=f"accuracy on items whose gold label is {c} (failed rows excluded)",
                )
            )
        if settings.positive is not None:
            specs += [
                precision_metric("precision", "tp", "fp", description="binary precision"),
                recall_metric("recall", "tp", "fn", description="binary recall"),
                fbeta_metric("f1", "tp", "fp", "fn", tier="headline", description="binary F1"),
            ]
        return specs

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: ClassificationSettings
    ) -> dict[str, Any]:
        """Confusion matrix and per-class table over usable rows; failures counted apart.

        The whole run as one block (``summarize_block``, ``merge_summaries``): the engine
        gives the same summaries from its blocks' parts as they are scored.
        """
        return self.merge_summaries([self.summarize_block(items, scores, settings)], settings)

    def summarize_block(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: ClassificationSettings
    ) -> _SummaryPart:
        """One pass over a block's items and scores: the confusion cells and the counts.

        ``n_failed`` counts the items whose record says failed: unreadable predictions and
        items whose scoring raised (``item_outcome``).
        """
        if len(items) != len(scores):
            raise ValueError(f"{len(items)} items but {len(scores)} scores")
        part = _SummaryPart()
        counts, gold = part.counts, part.gold
        # an item's part depends on its score and its status only: items sharing a score
        # object (``_score_block``) and a status are counted together, once per group
        keys = list(zip(map(id, scores), map(_STATUS, items), strict=True))
        first = dict(zip(keys, zip(items, scores, strict=True), strict=True))
        for key, times in Counter(keys).items():
            item, sc = first[key]
            details, flags = sc.details, sc.flags
            expected, predicted = str(details["expected"]), details["predicted"]
            gold.add(expected)
            if predicted is not None:
                counts[(expected, str(predicted))] += times
            if flags:
                part.n_error += times * ("error_row" in flags)
                part.n_invalid += times * ("invalid_label" in flags)
            status = item_outcome(item, sc)[0]
            part.n_failed += times * (status == "failed")
            part.n_missing += times * (status == "missing")
        return part

    def merge_summaries(
        self, parts: Sequence[Any], settings: ClassificationSettings
    ) -> dict[str, Any]:
        """The summaries of the blocks' parts taken together (sums, and the gold classes')."""
        counts: Counter[tuple[str, str]] = Counter()
        gold: set[str] = set()
        n_error = n_failed = n_missing = n_invalid = 0
        for part in parts:
            assert isinstance(part, _SummaryPart)
            counts.update(part.counts)
            gold |= part.gold
            n_error += part.n_error
            n_failed += part.n_failed
            n_missing += part.n_missing
            n_invalid += part.n_invalid
        expected_labels = sorted({e for e, _ in counts})
        labels = sorted(set(expected_labels) | {p for _, p in counts})
        per_class: dict[str, dict[str, float | int | None]] = {}
        for label in expected_labels:
            n = sum(v for (e, _), v in counts.items() if e == label)
            ok = counts[(label, label)]
            per_class[label] = {"n": n, "correct": ok, "accuracy": ok / n if n else None}
        return {
            "confusion": {
                "labels": labels,
                "matrix": [[counts[(e, p)] for p in labels] for e in labels],
                "rows": "expected",
                "columns": "predicted",
            },
            "per_class": per_class,
            "n_error_rows": n_error,
            "n_failed": n_failed,
            "n_missing": n_missing,
            "n_invalid_label": n_invalid,
            "positive": settings.positive,
            "warnings": _labels_warning(settings.labels, gold),
        }


#: the suite's own ``score_item``: another one (a subclass's, a patched one) is scored per item
_SCORE_ITEM = ClassificationTask.score_item


@dataclass
class _SummaryPart:
    """A block's part of the summaries: confusion cells over usable rows and the counts."""

    counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    gold: set[str] = field(default_factory=set)
    n_error: int = 0
    n_failed: int = 0
    n_missing: int = 0
    n_invalid: int = 0


def _labels_warning(labels: Sequence[str] | None, gold: set[str]) -> list[str]:
    """A --labels set that leaves out gold classes changes normalization silently: say so."""
    left_out = sorted(gold - set(labels or ()) - {"", "None"}) if labels else []
    if not left_out:
        return []
    return [
        f"--labels leaves out {len(left_out)} gold class(es): {', '.join(left_out)}; "
        "predictions of them are normalized against the other labels only"
    ]
