"""One paper scored into its statistics row (seed 002, metrics version 5).

Metadata mode, each metric of ``metrics.METRICS`` for the paper:

- ``title_soft``: 1 for equal normalized titles, or a word-aligned prefix keeping at least
  ``title_prefix_ratio`` of the longer title; ``doi_match``: 1 for equal normalized DOIs;
- ``abstract_rouge_l`` (ROUGE-L F1 over whitespace tokens) and ``abstract_ned`` (1 − normalized
  edit distance), the gold abstract falling back on its abstract sections;
- the authors, matched globally greedily at ``author_threshold`` (Jaro–Winkler):
  ``authors_fullname_f1``, ``authors_f1`` (family names) and ``first_author``; then
  ``affiliation_sim``, ``email_f1``, ``orcid_f1``, ``corresponding_acc`` and ``keywords_f1``;
- the references matched by the cascade DOI > title > first author + year > citation string:
  ``ref_matching_f1``, ``ref_count_ratio``, ``ref_doi_recall`` and the per-field accuracies of
  the matched references (``ref_title_acc``, ``ref_year_acc`` …), with their micro counts.

A front-matter field the prediction abstained on suppresses its metrics (null, their
pre-suppression scores kept in ``@incl`` columns). The paper passes when it did not abstain and
every non-null floor metric (``title_soft``, ``doi_match``, ``authors_fullname_f1``,
``ref_matching_f1``) is at or above its floor. A missing or failed paper recovered nothing: 0 on
every floor metric, null elsewhere, and it fails the pass rate.

Sections mode: the gold body tokens recalled in a predicted section of the same type
(``section_recall``) or anywhere (``layout_recall``), the share of gold sections recalled at or
above the drop threshold (``coverage``), and ``layout_precision``.
"""

from __future__ import annotations

from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay.metrics.spec import mean_columns
from assay.suites.biblio._lib.export import PaperExport
from assay.suites.biblio._lib.front import (
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
from assay.suites.biblio._lib.records import export_of, read_cached
from assay.suites.biblio._lib.references import FIELD_METRICS, score_references
from assay.suites.biblio._lib.sections import score_sections as section_scores
from assay.suites.biblio.metrics import INCL, METRICS, MICRO, SUPPRESSES, SUPPRESSIBLE
from assay.suites.biblio.settings import BiblioSettings

#: the metrics of the pass rate's floors: a paper that produced nothing scores 0 on each
FLOOR_METRICS = ("title_soft", "doi_match", "authors_fullname_f1", "ref_matching_f1")


def score_paper(item: Item, settings: BiblioSettings) -> ItemScore:
    """The paper's row: its metadata metrics, or its section-text recall (``mode: sections``)."""
    if settings.mode == "sections":
        return score_sections(item, settings)
    return score_metadata(item, settings)


def score_metadata(item: Item, s: BiblioSettings) -> ItemScore:
    """A paper's metadata row: every metric, suppressed where the prediction abstained, the
    micro counts of the reference fields and the pass-rate columns."""
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
                "gold": None if no_gold else paper_view(export_of(item.gold)),
            },
        )
    gold = export_of(item.gold)
    dialect, pred = read_cached(item.pred)
    gold_dialect = read_cached(item.gold)[0]
    raw, extra = all_scores(pred, gold, s)
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
    passed = not abstained and passes(scores, s)
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


def all_scores(
    pred: PaperExport, gold: PaperExport, s: BiblioSettings
) -> tuple[dict[str, float | None], dict[str, Any]]:
    """Every metric of ``METRICS`` for the pair, before suppression, and the reference counts
    (``ref_counts`` for the details, ``_fields`` with each reference field's micro counts)."""
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


def passes(scores: dict[str, float | None], s: BiblioSettings) -> bool:
    """Every non-null floor metric at or above its floor (a null one is not checked)."""
    return all(
        scores[m] is None or float(scores[m] or 0.0) >= floor for m, floor in s.floors().items()
    )


def score_sections(item: Item, s: BiblioSettings) -> ItemScore:
    """A paper's section-text row: the recalls, coverage and precision, and the token counts
    of the micro layout recall and of each section type."""
    gold = export_of(item.gold, section_gold=True) if item.gold else PaperExport()
    pred = export_of(item.pred) if item.status == "ok" and item.pred is not None else None
    result = section_scores(
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
