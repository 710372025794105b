"""The run's summaries (seed 001): how the entry rules applied, sacrebleu's signatures, whether
and how COMET was computed (with the language coverage of its XLM-R encoder), the TER segments
left out, and the report-level plugin values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay.metrics.corpus.options import sacrebleu_version
from assay.metrics.corpus.sufficient import CorpusMetric, corpus_metrics, n_references
from assay.suites.translation._lib.languages import (
    XLMR_LANGUAGES,
    base_code,
    in_xlmr,
    low_resource_warnings,
)
from assay.suites.translation._lib.plugins import flatten_numeric
from assay.suites.translation.settings import TranslationSettings


def summaries(
    items: Sequence[Item], scores: Sequence[ItemScore], settings: TranslationSettings
) -> dict[str, Any]:
    """Entry-rule counts, sacrebleu signatures, COMET status and report-level plugins."""
    nrefs = n_references([sc.details["references"] for sc in scores])
    metrics: list[CorpusMetric] = corpus_metrics(settings)
    flags = [set(sc.flags) for sc in scores]
    comet_failures = [
        {"id": it.id, "reason": sc.details.get("comet_error", "COMET score not finite")}
        for it, sc in zip(items, scores, strict=True)
        if "comet_not_finite" in sc.flags
    ]
    out: dict[str, Any] = {
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
        "comet": comet_summary(items, scores, settings),
        # TER segments past the size bound of assay.metrics.corpus.ter: out of corpus TER
        "ter_failures": [
            {"id": it.id, "reason": sc.details["ter_error"]}
            for it, sc in zip(items, scores, strict=True)
            if "ter_failed" in sc.flags
        ],
        # entries whose COMET score was NaN or infinite: out of comet, each listed
        "comet_failures": comet_failures,
        "plugin_metrics": {
            "report": flatten_numeric(_first(items, "pred", "report_plugin_metrics") or {})
        },
    }
    if comet_failures:  # the engine adds them to the run's warnings, printed after the table
        out["warnings"] = [comet_warning(comet_failures, out["comet"]["n"])]
    return out


def comet_warning(failures: Sequence[dict[str, Any]], n: int, shown: int = 5) -> str:
    """One line naming the entries whose COMET score was not finite."""
    named = "; ".join(f"{f['id']}: {f['reason']}" for f in failures[:shown])
    more = len(failures) - shown
    return (
        f"COMET: {len(failures)} entries have no finite score and are left out of comet (n "
        f"{n} of {n + len(failures)}): {named}" + (f"; … and {more} more" if more > 0 else "")
    )


def comet_summary(
    items: Sequence[Item], scores: Sequence[ItemScore], settings: TranslationSettings
) -> dict[str, Any]:
    """Whether COMET was computed, over how many entries, from where, and the coverage of the
    two languages by its encoder (with a warning for a language it does not cover)."""
    n = sum(1 for sc in scores if sc.stats.get("comet#n", 0) > 0)
    src = settings.source_lang or _first(items, "gold", "source_lang")
    tgt = settings.target_lang or _first(items, "gold", "target_lang")
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
        "model": settings.comet_model if source == "computed" else None,
        "reason": None if n else _first(items, "pred", "comet_note"),
        "languages": coverage,
        "warnings": low_resource_warnings(src, tgt),
        "note": "multi-reference entries are scored by COMET against their first reference",
    }


def _first(items: Sequence[Item], side: str, key: str) -> Any:
    """The first non-empty value of ``key`` in the items' gold or prediction records."""
    for it in items:
        record = it.gold if side == "gold" else it.pred
        if record is not None and record.get(key):
            return record[key]
    return None
