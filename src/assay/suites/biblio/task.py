"""The biblio suite (seed 002): scholarly-paper metadata scored against gold exports.

Cohort: a prediction pairs with the gold paper of its normalized DOI, else with the gold file
of the same paper id (file stem). Missing and failed papers score 0 on the pass-rate floor
metrics and fail the pass rate; unmatched predictions are listed and left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import ItemScore, KeyFunction, LoadedInputs, Task
from assay._io.readers import read_json_dir
from assay._io.records import ParseFailure, ReadResult, SourceRecord
from assay.metrics.spec import MetricSpec, mean_columns
from assay.suites.biblio.dialects import (
    read_export,
    read_section_gold,
    source_file_stem,
)
from assay.suites.biblio.export import ExportError, PaperExport, paper_id
from assay.suites.biblio.front import (
    affiliation_sim,
    corresponding_acc,
    doi_match,
    email_f1,
    keywords_f1,
    match_authors,
    ned_similarity,
    orcid_f1,
    rouge_l,
    title_soft,
)
from assay.suites.biblio.metrics import (
    INCL,
    METRICS,
    METRICS_VERSION,
    MICRO,
    SUPPRESSES,
    SUPPRESSIBLE,
    metadata_specs,
    section_specs,
)
from assay.suites.biblio.normalize import normalize_doi
from assay.suites.biblio.references import FIELD_METRICS, score_references
from assay.suites.biblio.sections import score_sections
from assay.suites.biblio.settings import BiblioSettings

#: files of a results directory that are never scored (a batch's own records)
EXCLUDED_FILES = frozenset({"run_info.json", "validation_report.json"})
SECTION_GOLD = ".sectiongold.json"
FLOOR_METRICS = ("title_soft", "doi_match", "authors_fullname_f1", "ref_matching_f1")


#: exports validated by ``load``, keyed by the id of their record dict, so a single-process run
#: validates each file once; the identity check makes a stale or foreign entry a plain miss
_PARSED: dict[int, tuple[dict[str, Any], str, PaperExport]] = {}


def _read(record: dict[str, Any], *, section_gold: bool = False) -> tuple[str, PaperExport]:
    """(dialect, validated export) of a record, from load's cache when it is the same object."""
    hit = _PARSED.get(id(record))
    if hit is not None and hit[0] is record:
        return hit[1], hit[2]
    return read_section_gold(record) if section_gold else read_export(record)


def _export(record: dict[str, Any], *, section_gold: bool = False) -> PaperExport:
    return _read(record, section_gold=section_gold)[1]


def _validated(
    results: Iterable[ReadResult], role: str, *, section_gold: bool = False
) -> list[ReadResult]:
    """Records keyed by paper id; an export that does not validate (unknown schema, a required
    block absent, a field of the wrong type) is a failure naming the file and the key.

    Section gold is keyed by its ``paper_id`` when it has one (bibr joins on it), else by the
    file stem."""
    out: list[ReadResult] = []
    for res in results:
        if isinstance(res, ParseFailure):
            pid = paper_id(res.id) if res.id else None
            out.append(ParseFailure(res.file, res.line, res.reason, pid))
            continue
        pid = paper_id(res.id) if res.id else res.id
        try:
            if section_gold:
                dialect, export = read_section_gold(res.record)
                own = res.record.get("paper_id")
                pid = own if isinstance(own, str) and own.strip() else pid
            else:
                dialect, export = read_export(res.record)
        except ExportError as err:
            out.append(ParseFailure(res.file, res.line, f"{role} export: {err}", pid))
            continue
        _PARSED[id(res.record)] = (res.record, dialect, export)
        out.append(SourceRecord(pid, res.record, res.file, res.line))
    return out


def _files(results: Sequence[ReadResult]) -> tuple[Path, ...]:
    return tuple(sorted({Path(r.file) for r in results}))


def record_doi(record: dict[str, Any]) -> str:
    """The normalized DOI of an export record ("" when it has none or is malformed)."""
    block = record.get("metadata", record.get("info"))
    if isinstance(block, dict) and isinstance(block.get("doi"), str):
        return normalize_doi(block["doi"])
    return ""


class BiblioTask(Task[BiblioSettings]):
    """Paper metadata and references (metrics version 5), or section text (mode sections)."""

    name: ClassVar[str] = "biblio"
    description: ClassVar[str] = (
        "scholarly-paper metadata: title, DOI, abstract, authors, references, section text"
    )
    metrics_version: ClassVar[int] = METRICS_VERSION
    settings_model = BiblioSettings

    def load(self, pred: Path, gold: tuple[Path, ...], settings: BiblioSettings) -> LoadedInputs:
        """Every ``*.json`` of the results dir but run_info.json and validation_report.json;
        gold exports (or ``*.sectiongold.json`` in sections mode) from every gold dir."""
        _PARSED.clear()
        if not gold:
            from assay.errors import UsageError

            raise UsageError("biblio needs at least one gold directory (--gold-dirs / --gold)")
        preds = _validated(read_json_dir(pred, id_field=None, exclude=EXCLUDED_FILES), "prediction")
        golds: list[ReadResult] = []
        for g in gold:
            if settings.mode == "sections":
                found = read_json_dir(g, id_field=None, pattern="*" + SECTION_GOLD)
            else:
                found = (
                    r
                    for r in read_json_dir(g, id_field=None, exclude=EXCLUDED_FILES)
                    if not r.file.endswith(SECTION_GOLD)
                )
            golds += _validated(found, "gold", section_gold=settings.mode == "sections")
        return LoadedInputs(preds, golds, _files(preds), _files(golds))

    def prepare(self, loaded: LoadedInputs, settings: BiblioSettings) -> BiblioSettings:
        """Index the gold papers by normalized DOI and by the stem of their
        ``source.file_name`` for the cohort's pairing."""
        index: dict[str, list[str]] = {}
        files: dict[str, list[str]] = {}
        for res in loaded.gold:
            if isinstance(res, SourceRecord) and res.id:
                doi = record_doi(res.record)
                if doi:
                    index.setdefault(doi, []).append(res.id)
                for stem in {res.id, source_file_stem(res.record)}:
                    if stem:
                        files.setdefault(stem.lower(), []).append(res.id)
        prepared = settings.model_copy()
        prepared._doi_index = {k: tuple(v) for k, v in index.items()}
        prepared._file_index = {k: tuple(dict.fromkeys(v)) for k, v in files.items()}
        return prepared

    def cohort_from_predictions(self, settings: BiblioSettings) -> bool:
        """Seed 002, metadata mode: the cohort is the predictions that match gold, and
        --expected-ids adds the expected papers without a prediction (0 on the floors), never
        restricts. Section text is scored per gold artifact (a gold paper without a prediction
        is missing), as bibr's section mode does."""
        return settings.mode == "metadata"

    def pred_key(self, settings: BiblioSettings) -> KeyFunction:
        """The gold paper of the prediction's normalized DOI; else the gold paper of the
        prediction's file name: its paper id (file stem), then the stem of its
        ``source.file_name`` (bibr's filename key), each matched against gold ids and gold
        ``source.file_name`` stems, case-insensitively.

        When several gold papers share the DOI, the one with the prediction's own id wins,
        else the filename decides. A prediction matching nothing keeps its own id (unmatched).
        """
        index, files = settings._doi_index, settings._file_index

        def key(record: SourceRecord) -> str | None:
            ids = index.get(record_doi(record.record), ())
            if len(ids) == 1 and record.id not in ids:
                return ids[0]
            if record.id in ids:
                return record.id
            for stem in (record.id, source_file_stem(record.record)):
                found = files.get(stem.lower(), ()) if stem else ()
                if len(found) == 1:
                    return found[0]
                if record.id in found:
                    return record.id
            return record.id

        return key

    def score_item(self, item: Item, settings: BiblioSettings) -> ItemScore:
        if settings.mode == "sections":
            return self._score_sections(item, settings)
        return self._score_metadata(item, settings)

    # ------------------------------------------------------------------ metadata

    def _all_scores(
        self, pred: PaperExport, gold: PaperExport, s: BiblioSettings
    ) -> tuple[dict[str, float | None], dict[str, Any]]:
        pm, gm = pred.metadata, gold.metadata
        gold_abstract = gm.abstract or " ".join(
            x.text for x in gold.sections if x.type.lower() == "abstract"
        )
        authors = match_authors(pred.authors, gold.authors, threshold=s.author_threshold)
        refs = score_references(gold.references, pred.references, s)
        scores: dict[str, float | None] = {
            "title_soft": title_soft(
                pm.title,
                gm.title,
                prefix_ratio=s.title_prefix_ratio,
                min_words=s.title_min_words,
                min_chars=s.title_min_chars_unspaced,
            ),
            "doi_match": doi_match(pm.doi, gm.doi),
            "abstract_rouge_l": rouge_l(pm.abstract, gold_abstract),
            "abstract_ned": ned_similarity(pm.abstract, gold_abstract),
            "authors_fullname_f1": authors.fullname_f1,
            "authors_f1": authors.family_f1,
            "first_author": authors.first_author,
            "affiliation_sim": affiliation_sim(pred.authors, gold.authors),
            "email_f1": email_f1(pred.authors, gold.authors),
            "orcid_f1": orcid_f1(pred.authors, gold.authors),
            "corresponding_acc": corresponding_acc(pred.authors, gold.authors),
            "keywords_f1": keywords_f1(pm.keywords, gm.keywords),
            "ref_matching_f1": refs.matching.f1,
            "ref_count_ratio": refs.count_ratio,
            "ref_doi_recall": refs.doi_recall,
        }
        fields = {**refs.fields, "ref_doi_recall": refs.doi}
        for name in FIELD_METRICS:
            scores[name] = refs.fields[name].score
        ref_counts = {
            "gold": refs.matching.n_gold,
            "pred": refs.matching.n_pred,
            "matched": len(refs.matching.pairs),
            "levels": refs.matching.level_counts(),
            "fields": {
                name: {
                    "with_field": fields[name].with_field,
                    "matched_with_field": fields[name].matched,
                    "correct": fields[name].correct,
                }
                for name in MICRO
            },
        }
        return {m: scores[m] for m in METRICS}, {"ref_counts": ref_counts, "_fields": fields}

    def _passes(self, scores: dict[str, float | None], s: BiblioSettings) -> bool:
        """Every non-null floor metric at or above its floor (a null one is not checked)."""
        return all(
            scores[m] is None or float(scores[m] or 0.0) >= floor for m, floor in s.floors().items()
        )

    def _score_metadata(self, item: Item, s: BiblioSettings) -> ItemScore:
        stats: dict[str, float] = {}
        if item.status != "ok" or item.pred is None:
            # seed 002 / bibr: a paper that produced nothing recovered nothing: 0.0 on every
            # floor metric (DOI included, whatever the gold holds), null elsewhere
            scores: dict[str, float | None] = {
                m: (0.0 if m in FLOOR_METRICS else None) for m in METRICS
            }
            for m in METRICS:
                stats.update(mean_columns(m, scores[m]))
            for m in SUPPRESSIBLE:
                stats.update(mean_columns(m + INCL, scores[m]))
            for m in MICRO:
                stats[f"{m}#correct"] = stats[f"{m}#den"] = 0.0
            stats.update(mean_columns("pass_rate", 0.0))
            stats.update(mean_columns("pass_rate_excl_abstained", None))
            stats.update(mean_columns("abstention_rate", None))
            no_gold = not item.gold
            return ItemScore(
                stats=stats,
                scores={**scores, "pass": 0.0},
                flags=(item.status, "no_gold") if no_gold else (item.status,),
                details={
                    "error": item.error,
                    "gold": None if no_gold else paper_view(_export(item.gold)),
                },
            )
        gold = _export(item.gold)
        dialect, pred = _read(item.pred)
        gold_dialect = _read(item.gold)[0]
        raw, extra = self._all_scores(pred, gold, s)
        abstained = sorted(pred.abstained_fields())
        suppressed = {m for f in abstained for m in SUPPRESSES[f]}
        scores = {m: (None if m in suppressed else v) for m, v in raw.items()}
        for m in METRICS:
            stats.update(mean_columns(m, scores[m]))
        for m in SUPPRESSIBLE:
            stats.update(mean_columns(m + INCL, raw[m]))
        for m in MICRO:
            correct, den = extra["_fields"][m].micro
            stats[f"{m}#correct"], stats[f"{m}#den"] = float(correct), float(den)
        passed = not abstained and self._passes(scores, s)
        stats.update(mean_columns("pass_rate", 1.0 if passed else 0.0))
        stats.update(mean_columns("pass_rate_excl_abstained", None if abstained else float(passed)))
        stats.update(mean_columns("abstention_rate", 1.0 if abstained else 0.0))
        flags = [f"abstained:{f}" for f in abstained]
        if abstained:
            flags.insert(0, "abstained")
        return ItemScore(
            stats=stats,
            scores={**scores, "pass": 1.0 if passed else 0.0},
            flags=tuple(flags),
            details={
                "ref_counts": extra["ref_counts"],
                "abstained_fields": abstained,
                "suppressed": sorted(suppressed),
                "pre_suppression": {m: raw[m] for m in sorted(suppressed)},
                "producer": pred.extraction.producer,
                "dialect": dialect,
                "gold_dialect": gold_dialect,
                # gold beside prediction in the drill-down: why a title or an author failed
                "gold": paper_view(gold),
                "predicted": paper_view(pred),
            },
            abstained=bool(abstained),
        )

    # ------------------------------------------------------------------ sections

    def _score_sections(self, item: Item, s: BiblioSettings) -> ItemScore:
        gold = _export(item.gold, section_gold=True) if item.gold else PaperExport()
        pred = _export(item.pred) if item.status == "ok" and item.pred is not None else None
        result = score_sections(
            pred.sections if pred else [], gold.sections, drop_threshold=s.section_drop_threshold
        )
        scores = {
            "section_recall": result.section_recall,
            "layout_recall": result.layout_recall,
            "coverage": result.coverage,
            "layout_precision": result.layout_precision,
        }
        stats: dict[str, float] = {}
        for name, value in scores.items():
            stats.update(mean_columns(name, value))
        stats["layout#overlap"] = float(result.layout_overlap)
        stats["layout#gold"] = float(result.gold_tokens)
        for t, (ov, n) in result.per_type.items():
            stats[f"type[{t}]#overlap"] = float(ov)
            stats[f"type[{t}]#gold"] = float(n)
        return ItemScore(
            stats=stats,
            scores=scores,
            flags=() if pred else (item.status,),
            details={
                "dropped": result.dropped,
                "per_type": {t: list(v) for t, v in result.per_type.items()},
                "gold_tokens": result.gold_tokens,
                "pred_tokens": result.pred_tokens,
                "error": item.error,
            },
        )

    # ------------------------------------------------------------------ specs and summaries

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: BiblioSettings
    ) -> list[MetricSpec]:
        if settings.mode == "sections":
            types = {t for sc in scores for t in sc.details.get("per_type", {})}
            return section_specs(types)
        suppressed = {m for sc in scores for m in sc.details.get("suppressed", ())}
        return metadata_specs(suppressed)

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: BiblioSettings
    ) -> dict[str, Any]:
        if settings.mode == "sections":
            return _section_summaries(items, scores)
        return _metadata_summaries(items, scores)

    def cli_group(self) -> Any:
        from assay._cli.biblio import biblio_group

        return biblio_group


def _rate(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _metadata_summaries(items: Sequence[Item], scores: Sequence[ItemScore]) -> dict[str, Any]:
    """pass_rate (+ its n), the survivors-only rate, abstentions, reference field coverage."""
    passes = [float(sc.scores.get("pass") or 0.0) for sc in scores]
    evaluated = [(it, sc) for it, sc in zip(items, scores, strict=True) if it.status == "ok"]
    survivors = [float(sc.scores.get("pass") or 0.0) for _, sc in evaluated if not sc.abstained]
    abstained = [it.id for it, sc in evaluated if sc.abstained]
    coverage: dict[str, dict[str, Any]] = {}
    total_gold = sum(int(sc.details["ref_counts"]["gold"]) for _, sc in evaluated)
    for name in MICRO:
        with_field = sum(
            int(sc.details["ref_counts"]["fields"][name]["with_field"]) for _, sc in evaluated
        )
        coverage[name] = {
            "gold_refs_with_field": with_field,
            "gold_refs": total_gold,
            "field_coverage": with_field / total_gold if total_gold else None,
        }
    dialects: dict[str, dict[str, int]] = {}
    for _, sc in evaluated:
        for side in ("dialect", "gold_dialect"):
            kind = "predictions" if side == "dialect" else "gold"
            name = str(sc.details.get(side))
            dialects.setdefault(kind, {})[name] = dialects.get(kind, {}).get(name, 0) + 1
    return {
        "metrics_version": METRICS_VERSION,
        "tiers": {m: tier for m, (tier, _) in METRICS.items()},
        "dialects": {k: dict(sorted(v.items())) for k, v in sorted(dialects.items())},
        "pass_rate": _rate(passes),
        "pass_rate_n": len(passes),
        "pass_rate_excl_abstained": _rate(survivors),
        "pass_rate_excl_abstained_n": len(survivors),
        "abstention_rate": len(abstained) / len(evaluated) if evaluated else None,
        "n_abstained": len(abstained),
        "abstained_ids": abstained,
        "abstained_fields": {
            it.id: sc.details["abstained_fields"] for it, sc in evaluated if sc.abstained
        },
        "reference_coverage": coverage,
    }


def _section_summaries(items: Sequence[Item], scores: Sequence[ItemScore]) -> dict[str, Any]:
    """The drop report (gold sections recalled below the threshold) and per-type totals."""
    drops = [
        {"id": it.id, "status": it.status, "sections": sc.details["dropped"]}
        for it, sc in zip(items, scores, strict=True)
        if sc.details["dropped"]
    ]
    per_type: dict[str, list[int]] = {}
    for sc in scores:
        for t, (ov, n) in sc.details["per_type"].items():
            acc = per_type.setdefault(t, [0, 0])
            acc[0] += int(ov)
            acc[1] += int(n)
    return {
        "metrics_version": METRICS_VERSION,
        "mode": "sections",
        "drop_report": drops,
        "n_dropped_sections": sum(len(d["sections"]) for d in drops),
        "per_type_recall": {
            t: {"recalled_tokens": ov, "gold_tokens": n, "recall": ov / n if n else None}
            for t, (ov, n) in sorted(per_type.items())
        },
    }


#: references listed per paper in an item's gold/prediction view
MAX_VIEW_REFERENCES = 30


def paper_view(paper: PaperExport) -> dict[str, Any]:
    """What the drill-down shows of a paper: title, DOI, authors as printed, references."""
    authors = [a.full_name or " ".join(x for x in (a.given, a.family) if x) for a in paper.authors]
    refs = [
        " · ".join(x for x in (r.title or r.raw, r.year, r.doi) if x) or "(empty reference)"
        for r in paper.references[:MAX_VIEW_REFERENCES]
    ]
    if len(paper.references) > MAX_VIEW_REFERENCES:
        refs.append(f"… and {len(paper.references) - MAX_VIEW_REFERENCES} more")
    return {
        "title": paper.metadata.title,
        "doi": paper.metadata.doi,
        "authors": authors,
        "references": refs,
    }
