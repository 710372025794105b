"""Claim-extraction round trip (seed 003): extracted claims against a curator's claim tree.

Every name loads with its module on first use (:mod:`assay._lazy`): scoring imports neither the
scorecard diff nor the round-trip benchmark.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay.suites.claims._lib.align import embedding_status, matcher_backend, matcher_line
    from assay.suites.claims._lib.diff import DiffResult, MetricMove, diff_runs
    from assay.suites.claims._lib.loading import read_papers
    from assay.suites.claims._lib.matcher import match_deterministic, trust_note
    from assay.suites.claims._lib.model import (
        Alignment,
        Claim,
        ClaimMatch,
        MatcherAnswer,
        Paper,
    )
    from assay.suites.claims._lib.panels import Panel, PanelSet, panels_agree, parse_panels
    from assay.suites.claims._lib.roles import normalize_role, roles_agree
    from assay.suites.claims._lib.roundtrip import (
        NEAR_COPIES,
        MemoEmbedder,
        build_scenarios,
        evaluate_matcher,
        figures_row,
        load_corpus,
        round_trip_figures,
    )
    from assay.suites.claims.metrics import claims_metric_specs
    from assay.suites.claims.scorer import PaperCounts, paper_counts, score_paper
    from assay.suites.claims.settings import ClaimsSettings
    from assay.suites.claims.summaries import claims_summaries
    from assay.suites.claims.task import ClaimsTask, task

_MODULES = {
    "assay.suites.claims._lib.align": ("embedding_status", "matcher_backend", "matcher_line"),
    "assay.suites.claims._lib.diff": ("DiffResult", "MetricMove", "diff_runs"),
    "assay.suites.claims._lib.loading": ("read_papers",),
    "assay.suites.claims._lib.matcher": ("match_deterministic", "trust_note"),
    "assay.suites.claims._lib.model": (
        "Alignment",
        "Claim",
        "ClaimMatch",
        "MatcherAnswer",
        "Paper",
    ),
    "assay.suites.claims._lib.panels": ("Panel", "PanelSet", "panels_agree", "parse_panels"),
    "assay.suites.claims._lib.roles": ("normalize_role", "roles_agree"),
    "assay.suites.claims._lib.roundtrip": (
        "NEAR_COPIES",
        "MemoEmbedder",
        "build_scenarios",
        "evaluate_matcher",
        "figures_row",
        "load_corpus",
        "round_trip_figures",
    ),
    "assay.suites.claims.metrics": ("claims_metric_specs",),
    "assay.suites.claims.scorer": ("PaperCounts", "paper_counts", "score_paper"),
    "assay.suites.claims.settings": ("ClaimsSettings",),
    "assay.suites.claims.summaries": ("claims_summaries",),
    "assay.suites.claims.task": ("ClaimsTask", "task"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "NEAR_COPIES",
    "Alignment",
    "Claim",
    "ClaimMatch",
    "ClaimsSettings",
    "ClaimsTask",
    "DiffResult",
    "MatcherAnswer",
    "MemoEmbedder",
    "MetricMove",
    "Panel",
    "PanelSet",
    "Paper",
    "PaperCounts",
    "build_scenarios",
    "claims_metric_specs",
    "claims_summaries",
    "diff_runs",
    "embedding_status",
    "evaluate_matcher",
    "figures_row",
    "load_corpus",
    "match_deterministic",
    "matcher_backend",
    "matcher_line",
    "normalize_role",
    "panels_agree",
    "paper_counts",
    "parse_panels",
    "read_papers",
    "roles_agree",
    "round_trip_figures",
    "score_paper",
    "task",
    "trust_note",
]
