"""The biblio suite's settings section (``biblio:`` in assay.yaml): every threshold of seed 002."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, PrivateAttr

from assay._settings.model import SuiteSection


class BiblioSettings(SuiteSection):
    """Thresholds of metrics version 5 with the seed's defaults, and the cohort options."""

    mode: Literal["metadata", "sections"] = Field(
        "metadata", description="score metadata, or section text against *.sectiongold.json"
    )
    title_prefix_ratio: float = Field(
        0.7, ge=0.0, le=1.0, description="title_soft: share of the longer title a prefix keeps"
    )
    title_min_words: int = Field(2, ge=1, description="title_soft: words the shorter side needs")
    title_min_chars_unspaced: int = Field(
        6, ge=1, description="title_soft: characters needed in scripts without word spaces"
    )
    author_threshold: float = Field(
        0.85,
        ge=0.0,
        le=1.0,
        description="Jaro-Winkler (0-1) an author name pair needs (authors_f1, fullname_f1)",
    )
    ref_surname_threshold: float = Field(
        0.9,
        ge=0.0,
        le=1.0,
        description="ref_author_acc: Jaro-Winkler (0-1) that recalls a gold surname",
    )
    ref_title_threshold: float = Field(
        85.0, ge=0.0, le=100.0, description="ref_title_acc: token_sort_ratio for a correct title"
    )
    ref_match_title_threshold: float = Field(
        85.0, ge=0.0, le=100.0, description="cascade: token_sort_ratio for a fuzzy title match"
    )
    ref_match_raw_threshold: float = Field(
        80.0, ge=0.0, le=100.0, description="cascade: token_sort_ratio for a citation-string match"
    )
    ref_author_threshold: float = Field(
        85.0, ge=0.0, le=100.0, description="cascade: first-author family name similarity"
    )
    ref_journal_threshold: float = Field(
        85.0, ge=0.0, le=100.0, description="ref_journal_acc: token_sort_ratio for a container"
    )
    weight_doi: float = Field(1.0, description="cascade level: DOI match")
    weight_title: float = Field(0.9, description="cascade level: fuzzy title match")
    weight_author_year: float = Field(0.7, description="cascade level: first author + year")
    weight_raw: float = Field(0.6, description="cascade level: citation string match")
    floor_title_soft: float = Field(0.9, description="pass_rate floor on title_soft")
    floor_doi_match: float = Field(1.0, description="pass_rate floor on doi_match")
    floor_authors_fullname_f1: float = Field(
        0.9, description="pass_rate floor on authors_fullname_f1"
    )
    floor_ref_matching_f1: float = Field(0.8, description="pass_rate floor on ref_matching_f1")
    section_drop_threshold: float = Field(
        0.5, ge=0.0, le=1.0, description="sections: a gold section recalled below this is dropped"
    )

    #: normalized DOI → gold paper ids, filled by BiblioTask.prepare from the gold read
    _doi_index: dict[str, tuple[str, ...]] = PrivateAttr(default_factory=dict)
    #: lower-cased paper id or source.file_name stem → gold paper ids (BiblioTask.prepare)
    _file_index: dict[str, tuple[str, ...]] = PrivateAttr(default_factory=dict)

    def floors(self) -> dict[str, float]:
        """The paper-level floors of pass_rate, by metric."""
        return {
            "title_soft": self.floor_title_soft,
            "doi_match": self.floor_doi_match,
            "authors_fullname_f1": self.floor_authors_fullname_f1,
            "ref_matching_f1": self.floor_ref_matching_f1,
        }
