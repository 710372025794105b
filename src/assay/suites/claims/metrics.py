"""Seed 003's metrics, per paper and over the corpus.

Per paper (the item):

- recovery = (# reference claims matched exact or partial) / (# reference claims)
- panel agreement = (# matched claims with panel_match true) / (# matched claims)
- role agreement = (# matched claims with role_match true) / (# matched claims)

("n/a" agreements stay in the denominator as disagreements, the seed's definition, unless
``na_counts_as: excluded``.) Over the corpus each is a per-paper mean (its run entry also
carries the median, p10, min and max) and a micro ratio over pooled claim counts; both get a
bootstrap CI over papers. A paper that failed (its claims could not be read or matched) or is
missing (no extracted claims for it at all) is left out of every mean and ratio, as the seed's
harness does, and counted by ``failure`` (the share of papers not scored) and listed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from assay.metrics.spec import MetricSpec, mean_columns, mean_metric, ratio_metric
from assay.suites.claims.model import Alignment, Claim, ClaimMatch


@dataclass(frozen=True)
class PaperCounts:
    """The claim counts of one paper from which every metric is computed."""

    n_reference: int
    n_extracted: int
    exact: int
    partial: int
    panel_agree: int
    panel_den: int
    role_agree: int
    role_den: int
    unmatched_extracted: tuple[str, ...]
    failed: bool = False
    #: failed or missing: not scored, so out of every mean and ratio (the seed's rule)
    left_out: bool = False

    @property
    def matched(self) -> int:
        return self.exact + self.partial

    @property
    def none(self) -> int:
        return self.n_reference - self.matched

    @property
    def recovery(self) -> float | None:
        """(# reference claims with a match) / (# reference claims); None for no claims or a
        paper left out."""
        if self.left_out or not self.n_reference:
            return None
        return self.matched / self.n_reference

    @property
    def panel_agreement(self) -> float | None:
        """(# matched claims with panel_match true) / (# matched claims counted)."""
        return self.panel_agree / self.panel_den if self.panel_den else None

    @property
    def role_agreement(self) -> float | None:
        """(# matched claims with role_match true) / (# matched claims counted)."""
        return self.role_agree / self.role_den if self.role_den else None

    def stats(self) -> dict[str, float]:
        """The paper's row of sufficient statistics."""
        return {
            **mean_columns("recovery", self.recovery),
            **mean_columns("panel_agreement", self.panel_agreement),
            **mean_columns("role_agreement", self.role_agreement),
            **mean_columns("failure", 1.0 if self.left_out else 0.0),
            "recovered": float(self.matched),
            "n_reference": 0.0 if self.left_out else float(self.n_reference),
            "panel_agree": float(self.panel_agree),
            "panel_den": float(self.panel_den),
            "role_agree": float(self.role_agree),
            "role_den": float(self.role_den),
            "exact": float(self.exact),
            "partial": float(self.partial),
            "n_extracted": float(self.n_extracted),
            "unmatched_extracted": float(len(self.unmatched_extracted)),
        }


def _counted(match: ClaimMatch, which: str, exclude_na: bool) -> tuple[int, int]:
    value = match.panel_match if which == "panel" else match.role_match
    if value == "n/a" and exclude_na:
        return 0, 0
    return int(value is True), 1


def paper_counts(
    alignment: Alignment | None,
    n_reference: int,
    extracted: Sequence[Claim],
    *,
    na_counts_as: str = "disagreement",
    failed: bool = False,
    left_out: bool = False,
) -> PaperCounts:
    """Counts of one paper; ``alignment`` None means nothing was matched; ``left_out`` (a
    failed or missing paper) keeps it out of every mean and ratio."""
    matches = [m for m in (alignment.matches if alignment else []) if m.recovered]
    exclude = na_counts_as == "excluded"
    panel = [_counted(m, "panel", exclude) for m in matches]
    role = [_counted(m, "role", exclude) for m in matches]
    used = {m.cli_slug for m in matches}
    return PaperCounts(
        n_reference=n_reference,
        n_extracted=len(extracted),
        exact=sum(1 for m in matches if m.match_quality == "exact"),
        partial=sum(1 for m in matches if m.match_quality == "partial"),
        panel_agree=sum(a for a, _ in panel),
        panel_den=sum(d for _, d in panel),
        role_agree=sum(a for a, _ in role),
        role_den=sum(d for _, d in role),
        unmatched_extracted=tuple(c.slug for c in extracted if c.slug not in used),
        failed=failed,
        left_out=left_out or failed,
    )


def claims_metric_specs() -> list[MetricSpec]:
    """Per-paper means (headline), micro ratios and failures (core), match detail (diagnostic)."""
    return [
        mean_metric(
            "recovery",
            "recovery",
            tier="headline",
            description="mean over the scored papers of (# reference claims matched exact or "
            "partial) / (# reference claims); failed and missing papers are left out (counted "
            "by failure)",
        ),
        mean_metric(
            "role_agreement",
            "role_agreement",
            tier="headline",
            description="mean over papers of (# matched claims with role_match true) / "
            "(# matched claims)",
        ),
        mean_metric(
            "panel_agreement",
            "panel_agreement",
            tier="headline",
            description="mean over papers of (# matched claims with panel_match true) / "
            "(# matched claims)",
        ),
        ratio_metric(
            "recovery_micro",
            "recovered",
            "n_reference",
            description="Σ matched reference claims / Σ reference claims over papers",
        ),
        ratio_metric(
            "role_agreement_micro",
            "role_agree",
            "role_den",
            description="Σ matched claims with role_match true / Σ matched claims",
        ),
        ratio_metric(
            "panel_agreement_micro",
            "panel_agree",
            "panel_den",
            description="Σ matched claims with panel_match true / Σ matched claims",
        ),
        mean_metric(
            "failure",
            "failure",
            higher_is_better=False,
            description="share of papers not scored: extracted claims missing, unreadable or "
            "not matched (left out of the other metrics)",
        ),
        ratio_metric(
            "exact_rate",
            "exact",
            "n_reference",
            tier="diagnostic",
            description="Σ exact matches / Σ reference claims (high: the extraction's grain "
            "matches the curator's)",
        ),
        ratio_metric(
            "partial_rate",
            "partial",
            "n_reference",
            tier="diagnostic",
            description="Σ partial matches / Σ reference claims (high: over-decomposition)",
        ),
        ratio_metric(
            "unmatched_extracted_rate",
            "unmatched_extracted",
            "n_extracted",
            tier="diagnostic",
            higher_is_better=False,
            description="Σ extracted claims matched to no reference claim / Σ extracted claims",
        ),
        ratio_metric(
            "extracted_per_reference",
            "n_extracted",
            "n_reference",
            tier="diagnostic",
            higher_is_better=False,
            description="Σ extracted claims / Σ reference claims (over-extraction)",
        ),
    ]
