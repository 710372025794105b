"""The metric table of metrics version 5 (seed 002): names, seed tiers, suppression, and the
run's specs for each mode (``biblio_metric_specs``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from assay._engine.task import ItemScore
from assay.metrics.spec import MetricSpec, Tier, mean_metric, ratio_metric
from assay.suites.biblio._lib.references import FIELD_METRICS
from assay.suites.biblio.settings import BiblioSettings

METRICS_VERSION = 5
SeedTier = Literal["primary", "diagnostic"]

#: every per-paper metric, in the seed's order, with its seed tier and definition
METRICS: dict[str, tuple[SeedTier, str]] = {
    "title_soft": (
        "primary",
        "exact normalized title, or a word-aligned prefix keeping >= 70% of the longer title",
    ),
    "doi_match": ("primary", "1 for equal normalized DOIs; a DOI asserted against empty gold is 0"),
    "abstract_rouge_l": ("primary", "ROUGE-L F1 over whitespace tokens (LCS)"),
    "abstract_ned": ("diagnostic", "1 - normalized edit distance of the abstracts"),
    "authors_fullname_f1": (
        "primary",
        "F1 of full printed names, fuzzy, globally greedy (given/family split ignored)",
    ),
    "authors_f1": ("diagnostic", "F1 of family names, fuzzy, globally greedy"),
    "first_author": ("diagnostic", "token_sort_ratio of the first author's family name"),
    "affiliation_sim": ("diagnostic", "affiliation similarity of matched authors"),
    "email_f1": ("diagnostic", "F1 of author emails"),
    "orcid_f1": ("diagnostic", "F1 of author ORCID iDs"),
    "corresponding_acc": ("diagnostic", "accuracy of the corresponding-author flag"),
    "keywords_f1": ("diagnostic", "F1 of normalized keywords"),
    "ref_matching_f1": (
        "primary",
        "F1 of reference matching: DOI 1.0 > title 0.9 > first author + year 0.7 > "
        "citation string 0.6, globally greedy",
    ),
    "ref_title_acc": (
        "primary",
        "matched gold references with a title: token_sort_ratio >= 85",
    ),
    "ref_year_acc": ("primary", "matched gold references with a year: equal year"),
    "ref_doi_recall": (
        "primary",
        "gold references with a DOI recovered with that DOI (unmatched ones are misses)",
    ),
    "ref_count_ratio": ("diagnostic", "min/max ratio of reference counts"),
    "ref_author_acc": (
        "diagnostic",
        "matched gold references with authors: every gold surname recalled",
    ),
    "ref_journal_acc": ("diagnostic", "matched gold references with a container: correct"),
    "ref_volume_acc": ("diagnostic", "matched gold references with a volume: correct"),
    "ref_pages_acc": ("diagnostic", "matched gold references with pages: correct range"),
}
PRIMARY = tuple(m for m, (tier, _) in METRICS.items() if tier == "primary")
#: metrics with a micro average (Σcorrect / Σdenominator) beside their per-paper mean
MICRO = (*FIELD_METRICS[:2], "ref_doi_recall", *FIELD_METRICS[2:])
#: front-matter field abstained on → the metrics whose scores the abstention suppresses
SUPPRESSES: dict[str, tuple[str, ...]] = {
    "title": ("title_soft",),
    "doi": ("doi_match",),
    "abstract": ("abstract_rouge_l", "abstract_ned"),
    "authors": (
        "authors_fullname_f1",
        "authors_f1",
        "first_author",
        "affiliation_sim",
        "email_f1",
        "orcid_f1",
        "corresponding_acc",
    ),
    "keywords": ("keywords_f1",),
}
SUPPRESSIBLE = tuple(m for ms in SUPPRESSES.values() for m in ms)
INCL = "@incl"  # column suffix of a suppressible metric's pre-suppression score


def micro_name(metric: str) -> str:
    return f"{metric}_micro"


def incl_name(metric: str) -> str:
    return f"{metric}_incl_abstained"


def metadata_specs(suppressed: Iterable[str]) -> list[MetricSpec]:
    """The run's specs: each metric's mean (primary → tier headline, diagnostic → diagnostic),
    its micro average, pass rates and abstention rate (core, never gated by --threshold), and
    mean_incl_abstained for each metric an abstention suppressed on at least one paper."""
    specs: list[MetricSpec] = []
    for name, (tier, text) in METRICS.items():
        specs.append(
            mean_metric(
                name,
                name,
                tier="headline" if tier == "primary" else "diagnostic",
                description=f"{tier}: {text}",
            )
        )
    specs += [
        mean_metric(
            "pass_rate",
            "pass_rate",
            tier="core",
            description="papers passing every non-null floor; missing, failed and abstained "
            "papers fail",
        ),
        mean_metric(
            "pass_rate_excl_abstained",
            "pass_rate_excl_abstained",
            tier="diagnostic",
            description="legacy survivors-only pass rate: evaluated, non-abstained papers",
        ),
        mean_metric(
            "abstention_rate",
            "abstention_rate",
            tier="core",
            higher_is_better=False,
            description="share of evaluated predictions with a front-matter abstention",
        ),
    ]
    for name in MICRO:
        specs.append(
            ratio_metric(
                micro_name(name),
                f"{name}#correct",
                f"{name}#den",
                tier="diagnostic",
                description=f"micro average of {name}: Σcorrect / Σdenominator over papers",
            )
        )
    wanted = set(suppressed)
    for name in SUPPRESSIBLE:
        if name in wanted:
            specs.append(
                mean_metric(
                    incl_name(name),
                    name + INCL,
                    tier="diagnostic",
                    description=f"{name} including abstained papers' pre-suppression scores",
                )
            )
    return specs


SECTION_METRICS: dict[str, tuple[Tier, str]] = {
    "section_recall": ("headline", "gold body tokens recalled in a predicted section of the type"),
    "layout_recall": ("headline", "gold body tokens recalled anywhere (labels ignored)"),
    "coverage": ("core", "share of gold sections recalled at or above the drop threshold"),
    "layout_precision": ("core", "predicted body tokens found in gold"),
}


def section_specs(types: Iterable[str]) -> list[MetricSpec]:
    """Section-mode specs: the per-paper means, the micro layout recall and per-type recall."""
    specs = [
        mean_metric(name, name, tier=tier, description=text)
        for name, (tier, text) in SECTION_METRICS.items()
    ]
    specs.append(
        ratio_metric(
            "layout_recall_micro",
            "layout#overlap",
            "layout#gold",
            tier="diagnostic",
            description="micro layout recall: Σ recalled tokens / Σ gold tokens",
        )
    )
    for t in sorted(set(types)):
        specs.append(
            ratio_metric(
                f"section_recall[{t}]",
                f"type[{t}]#overlap",
                f"type[{t}]#gold",
                tier="diagnostic",
                description=f"recall of gold '{t}' tokens in predicted '{t}' sections",
            )
        )
    return specs


def biblio_metric_specs(scores: Sequence[ItemScore], settings: BiblioSettings) -> list[MetricSpec]:
    """The run's specs: section mode's with one recall per section type that occurs; metadata
    mode's with ``mean_incl_abstained`` for each metric an abstention suppressed."""
    if settings.mode == "sections":
        types = {t for sc in scores for t in sc.details.get("per_type", {})}
        return section_specs(types)
    suppressed = {m for sc in scores for m in sc.details.get("suppressed", ())}
    return metadata_specs(suppressed)
