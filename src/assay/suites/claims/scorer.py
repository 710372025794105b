"""One paper scored into its statistics row (seed 003).

The item is a paper: its reference claims (the curator's) are the gold, its extracted claims
the prediction, aligned by the matcher when the inputs were read. From the alignment:

- recovery = (# reference claims matched exact or partial) / (# reference claims)
- panel agreement = (# matched claims with panel_match true) / (# matched claims)
- role agreement = (# matched claims with role_match true) / (# matched claims)

("n/a" agreements stay in the denominator as disagreements, the seed's definition, unless
``na_counts_as: excluded``.) A paper that failed (its claims could not be read or matched) or is
missing (no extracted claims for it at all) is left out of every mean and ratio, as the seed's
harness does, and counted by ``failure``. The row holds the counts the corpus metrics pool
(``metrics.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay.metrics.spec import mean_columns
from assay.suites.claims._lib.model import Alignment, Claim, ClaimMatch, Paper
from assay.suites.claims.settings import ClaimsSettings


def score_paper(item: Item, settings: ClaimsSettings) -> ItemScore:
    """The paper's row: its counts (``paper_counts``) from the alignment made when the inputs
    were read, the three agreements, and why it scored as it did."""
    reference = Paper.from_record(item.gold)
    alignment: Alignment | None = None
    extracted: Paper | None = None
    if item.status == "ok" and item.pred is not None:
        extracted = Paper.from_record(item.pred)
        alignment = Alignment.model_validate(item.pred["alignment"])
    counts = paper_counts(
        alignment,
        len(reference.claims),
        extracted.claims if extracted else (),
        na_counts_as=settings.na_counts_as,
        failed=item.status == "failed",
        left_out=item.status != "ok",
    )
    flags: list[str] = [] if item.status == "ok" else [item.status]
    if extracted is not None and not extracted.claims:
        flags.append("no_extracted_claims")
    return ItemScore(
        stats=counts.stats(),
        scores={
            "recovery": counts.recovery,
            "panel_agreement": counts.panel_agreement,
            "role_agreement": counts.role_agreement,
        },
        flags=tuple(flags),
        details=paper_details(counts, alignment, extracted, item, reference),
    )


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


def paper_details(
    counts: PaperCounts,
    alignment: Alignment | None,
    extracted: Paper | None,
    item: Item,
    reference: Paper,
) -> dict[str, Any]:
    """Why a paper scored as it did: every match with the two claims' sentences (reference
    beside extracted, for the report), and every unmatched extracted claim."""
    texts = {c.slug: c.text for c in extracted.claims} if extracted else {}
    ref_texts = {c.slug: c.text for c in reference.claims}
    details: dict[str, Any] = {
        "matcher": alignment.matcher if alignment else None,
        "n_reference": counts.n_reference,
        "n_extracted": counts.n_extracted,
        "match_quality": {"exact": counts.exact, "partial": counts.partial, "none": counts.none},
        "matches": [
            {
                **m.model_dump(mode="json", exclude_none=True),
                "reference": ref_texts.get(m.ref_slug),
                "extracted": texts.get(m.cli_slug) if m.cli_slug else None,
            }
            for m in alignment.matches
        ]
        if alignment
        else [],
        "unmatched_extracted": [
            {"slug": slug, "claim": texts[slug]} for slug in counts.unmatched_extracted
        ],
    }
    if alignment is not None and alignment.judge is not None:
        details["judge"] = alignment.judge.model_dump(mode="json")
    if item.pred is not None and item.pred.get("paired_by"):
        details["paired_by"] = item.pred["paired_by"]
    return details
