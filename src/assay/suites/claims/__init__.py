"""Claim-extraction round trip (seed 003): extracted claims against a curator's claim tree."""

from assay.suites.claims.loading import read_papers
from assay.suites.claims.matcher import match_deterministic
from assay.suites.claims.metrics import PaperCounts, claims_metric_specs, paper_counts
from assay.suites.claims.model import Alignment, Claim, ClaimMatch, MatcherAnswer, Paper
from assay.suites.claims.panels import Panel, PanelSet, panels_agree, parse_panels
from assay.suites.claims.roles import normalize_role, roles_agree
from assay.suites.claims.settings import ClaimsSettings
from assay.suites.claims.task import ClaimsTask

task = ClaimsTask()

__all__ = [
    "Alignment",
    "Claim",
    "ClaimMatch",
    "ClaimsSettings",
    "ClaimsTask",
    "MatcherAnswer",
    "Panel",
    "PanelSet",
    "Paper",
    "PaperCounts",
    "claims_metric_specs",
    "match_deterministic",
    "normalize_role",
    "panels_agree",
    "paper_counts",
    "parse_panels",
    "read_papers",
    "roles_agree",
    "task",
]
