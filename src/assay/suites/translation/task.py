"""The translation suite (seed 001): corpus chrF++, BLEU and TER from sacrebleu's per-segment
statistics (extracted as sacrebleu extracts them), exact_match_rate, COMET and plugin metrics,
each with a bootstrap CI and a paired test between runs."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from assay._engine.item import Item
from assay._engine.task import ItemScore, LoadedInputs, Task
from assay._io.records import ReadResult, SourceRecord
from assay.errors import ConfigError, InputError
from assay.metrics.corpus import kinds as _kinds  # noqa: F401  (registers the kinds)
from assay.metrics.corpus.options import sacrebleu_version
from assay.metrics.corpus.sufficient import (
    SEGMENTS_COLUMN,
    CorpusMetric,
    corpus_metrics,
    n_references,
)
from assay.metrics.spec import MetricSpec, mean_columns, mean_metric
from assay.suites.translation.comet import CometScorer, CometUnavailable, load_comet
from assay.suites.translation.entries import hypothesis_text, is_blank, recomputed_exact_match
from assay.suites.translation.inputs import (
    detect_format,
    read_gold_jsonl,
    read_jsonl_entries,
    read_report,
    read_text_system,
)
from assay.suites.translation.languages import (
    XLMR_LANGUAGES,
    base_code,
    in_xlmr,
    low_resource_warnings,
)
from assay.suites.translation.plugins import column_of, flatten_numeric
from assay.suites.translation.segments import exact_match_columns, exact_match_spec
from assay.suites.translation.settings import TranslationSettings
from assay.suites.translation.statsrow import StatsRow


def _refs(item: Item) -> tuple[str, ...]:
    return tuple(r for r in item.gold.get("references", []) if not is_blank(r))


class TranslationTask(Task[TranslationSettings]):
    """Machine translation: one source, one or more references and one hypothesis per entry.

    ``comet_scorer`` injects a COMET scorer (any object with ``score(sources, hypotheses,
    references)``); without it, unbabel-comet is loaded from a local path or cache when present.
    """

    name: ClassVar[str] = "translation"
    description: ClassVar[str] = "machine translation: chrF++, BLEU, TER, exact match, COMET"
    metrics_version: ClassVar[int] = 1
    #: entries scored at once: the batch shares one vectorized extraction per metric
    batch_size: ClassVar[int] = 2048
    settings_model = TranslationSettings

    def __init__(self, comet_scorer: CometScorer | None = None) -> None:
        self.comet_scorer = comet_scorer

    # ------------------------------------------------------------------ inputs

    def load(
        self, pred: Path, gold: tuple[Path, ...], settings: TranslationSettings
    ) -> LoadedInputs:
        """A test report, JSONL entries or text lines (``gold`` = reference files or JSONL)."""
        fmt = detect_format(pred, settings)
        if fmt == "report":
            if gold:
                raise InputError(f"{pred}: a test report carries its references; drop --gold")
            golds, preds = read_report(pred, settings)
            gold_paths: tuple[Path, ...] = (pred,)
        elif fmt == "jsonl":
            golds, preds = read_jsonl_entries(pred, settings, need_gold=not gold)
            if gold:
                golds = [g for path in gold for g in read_gold_jsonl(path, settings)]
            gold_paths = gold or (pred,)
        else:
            golds, preds = read_text_system(pred, gold)
            gold_paths = gold
        preds = self._attach_comet(golds, preds, settings)
        return LoadedInputs(preds, golds, (pred,), gold_paths)

    def _attach_comet(
        self, golds: Sequence[ReadResult], preds: Sequence[ReadResult], s: TranslationSettings
    ) -> list[ReadResult]:
        """Per-entry COMET scores into the prediction records, with where they came from."""
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
        if s.comet == "off":
            note = "COMET not computed: switched off (comet: off)"
        elif not scorable:
            note = "COMET not computed: no entry has both a reference and a prediction record"
        elif from_report and s.comet in ("auto", "report"):
            source = "report"
            scores = {id(p): float(p.record["comet"]) for p in scorable}
        elif s.comet == "report":
            note = "COMET not computed: the report has no per-entry COMET score for every entry"
        else:
            try:
                scorer = self.comet_scorer or load_comet(
                    s.comet_model, batch_size=s.comet_batch_size, gpus=s.comet_gpus
                )
                refs = [
                    [r for r in gold_by_id[p.id]["references"] if not is_blank(r)] for p in scorable
                ]
                values = scorer.score(
                    [str(gold_by_id[p.id]["source"]) for p in scorable],
                    [hypothesis_text(p.record["predicted"], s.empty_prediction) for p in scorable],
                    [r[0] for r in refs],
                )
            except CometUnavailable as err:
                if s.comet == "on":
                    raise ConfigError(f"translation.comet is 'on' but {err}") from None
                note = f"COMET not computed: {err}"
            else:
                if len(values) != len(scorable):
                    raise InputError(
                        f"COMET scorer returned {len(values)} scores for {len(scorable)} segments"
                    )
                source = "computed"
                scores = {id(p): float(v) for p, v in zip(scorable, values, strict=True)}
        out: list[ReadResult] = []
        for p in preds:
            if isinstance(p, SourceRecord):
                value = scores.get(id(p))
                finite = value is None or math.isfinite(value)
                record = {
                    **p.record,
                    # Infinity/NaN from a report or a model is no score: null, and counted
                    "comet": value if finite else None,
                    "comet_not_finite": not finite,
                    "comet_source": source,
                    "comet_note": note,
                }
                out.append(SourceRecord(p.id, record, p.file, p.line))
            else:
                out.append(p)
        return out

    # ------------------------------------------------------------------ scoring

    def score_item(self, item: Item, settings: TranslationSettings) -> ItemScore:
        """One entry: ``score_batch`` of one item (there is one scoring path)."""
        return self.score_batch([item], settings)[0]

    def score_batch(self, items: Sequence[Item], settings: TranslationSettings) -> list[ItemScore]:
        """Entries → their sacrebleu statistics rows, exact-match, COMET and plugin columns.

        The corpus statistics of the whole batch are extracted at once (the vectorized chrF and
        BLEU counts of ``mt sacrebleu``, each reference preprocessed once), and the per-segment
        scores are each metric's corpus formula over that one segment's row, for all rows at once.
        """
        refs = [_refs(item) for item in items]
        predicted = [_predicted(item) for item in items]
        hypotheses = [hypothesis_text(p, settings.empty_prediction) for p in predicted]
        segments = np.array([1.0 if r else 0.0 for r in refs])
        corpus: list[tuple[CorpusMetric, list[list[float]], list[float]]] = []
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
            self._entry_score(
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

    @staticmethod
    def _entry_score(
        item: Item,
        k: int,
        refs: tuple[str, ...],
        predicted: Any,
        hypothesis: str,
        corpus: Sequence[tuple[CorpusMetric, list[list[float]], list[float]]],
        s: TranslationSettings,
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
            if s.exact_match == "report" and isinstance(flag, bool):
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
        if s.plugin_metrics and pred is not None:
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
        return ItemScore(
            stats=_row(stats, shapes), scores=scores, flags=tuple(flags), details=details
        )

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: TranslationSettings
    ) -> list[MetricSpec]:
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
                c.removeprefix("plugin:")
                for sc in scores
                for c in sc.stats
                if c.startswith("plugin:") and not c.endswith("#n")
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

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: TranslationSettings
    ) -> dict[str, Any]:
        """Entry-rule counts, sacrebleu signatures, COMET status and report-level plugins."""
        nrefs = n_references([sc.details["references"] for sc in scores])
        metrics: list[CorpusMetric] = corpus_metrics(settings)
        flags = [set(sc.flags) for sc in scores]
        return {
            "entry_rules": {
                "entries": len(items),
                "scored_segments": sum(1 for f in flags if "blank_expected" not in f),
                "blank_expected": sum(1 for f in flags if "blank_expected" in f),
                "blank_prediction_scored_as": settings.empty_prediction,
                "blank_prediction": sum(1 for f in flags if "blank_prediction" in f),
                "error_entries": sum(1 for f in flags if "error_entry" in f),
                "missing": sum(1 for it in items if it.status == "missing"),
                "failed": sum(1 for it in items if it.status == "failed"),
            },
            "sacrebleu": {
                "version": sacrebleu_version(),
                "signatures": {m.name: m.signature(nrefs) for m in metrics},
            },
            "comet": _comet_summary(items, scores, settings),
            # TER segments past the size bound of assay.metrics.corpus.ter: out of corpus TER
            "ter_failures": [
                {"id": it.id, "reason": sc.details["ter_error"]}
                for it, sc in zip(items, scores, strict=True)
                if "ter_failed" in sc.flags
            ],
            "plugin_metrics": {
                "report": flatten_numeric(_first(items, "pred", "report_plugin_metrics") or {})
            },
        }

    def cli_group(self) -> Any:
        from assay._cli.mt import mt_group

        return mt_group


#: a batch's column-name tuples, each with its name → position index (shared by its rows)
Shapes = dict[tuple[str, ...], tuple[tuple[str, ...], dict[str, int]]]


def _row(stats: dict[str, float], shapes: Shapes) -> StatsRow:
    """``stats`` as a `StatsRow` over the names it shares with the batch's entries of the same
    columns (in ``shapes``, added there when new)."""
    names = tuple(stats)
    shape = shapes.get(names)
    if shape is None:
        shape = shapes[names] = (names, {name: k for k, name in enumerate(names)})
    return StatsRow(*shape, tuple(stats.values()))


def _predicted(item: Item) -> Any:
    """The entry's predicted text (None when missing or unreadable)."""
    return item.pred.get("predicted") if item.status == "ok" and item.pred is not None else None


def _first(items: Sequence[Item], side: str, key: str) -> Any:
    """The first non-empty value of ``key`` in the items' gold or prediction records."""
    for it in items:
        record = it.gold if side == "gold" else it.pred
        if record is not None and record.get(key):
            return record[key]
    return None


def _comet_summary(
    items: Sequence[Item], scores: Sequence[ItemScore], s: TranslationSettings
) -> dict[str, Any]:
    n = sum(1 for sc in scores if sc.stats.get("comet#n", 0) > 0)
    src = s.source_lang or _first(items, "gold", "source_lang")
    tgt = s.target_lang or _first(items, "gold", "target_lang")
    coverage = {
        code: {"in_xlmr": in_xlmr(code), "name": XLMR_LANGUAGES.get(base_code(code))}
        for code in (src, tgt)
        if code
    }
    source = _first(items, "pred", "comet_source") if n else None
    return {
        "computed": n > 0,
        "n": n,
        "not_finite": sum(1 for sc in scores if "comet_not_finite" in sc.flags),
        "source": source,
        "model": s.comet_model if source == "computed" else None,
        "reason": None if n else _first(items, "pred", "comet_note"),
        "languages": coverage,
        "warnings": low_resource_warnings(src, tgt),
        "note": "multi-reference entries are scored by COMET against their first reference",
    }


#: the suite's one instance: the package's ``task``, named by the ``assay.tasks`` entry point
task = TranslationTask()
