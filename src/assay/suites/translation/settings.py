"""The translation suite's settings section (``translation:`` in assay.yaml).

Every option of seed 001 lives here with the seed's default; the sacrebleu options default to
sacrebleu 2.x's own (BLEU 13a/exp, chrF++ = chrF with word order 2, TER tercom defaults).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from assay._settings.model import SuiteSection
from assay.suites.translation._lib.entries import EMPTY

InputFormat = Literal["auto", "report", "jsonl", "text"]
SmoothMethod = Literal["exp", "floor", "add-k", "none"]
CometMode = Literal["auto", "on", "report", "off"]
ExactMatchSource = Literal["report", "recompute"]


class TranslationSettings(SuiteSection):
    """Where the texts are, the entry rules, the sacrebleu options and COMET."""

    format: InputFormat = Field(
        "auto",
        description="input format: a test report (.json), JSONL (.jsonl), or text lines",
    )
    id_field: str = Field("id", description="entry field holding the id")
    source_field: str = Field("source", description="entry field holding the source text")
    expected_field: str = Field(
        "expected", description="reference field (JSONL also accepts 'reference')"
    )
    predicted_field: str = Field(
        "predicted", description="hypothesis field (JSONL also accepts 'hypothesis')"
    )
    error_field: str = Field("error", description="entry field marking a failed translation")
    empty_prediction: str = Field(
        EMPTY, min_length=1, description="text a blank prediction is scored as (seed 001)"
    )
    exact_match: ExactMatchSource = Field(
        "report",
        description="report: use each entry's exact_match flag when present; "
        "recompute: whitespace-normalized string equality",
    )
    tokenize: str = Field("13a", description="BLEU tokenizer (sacrebleu name)")
    lowercase: bool = Field(False, description="case-insensitive BLEU and chrF")
    smooth_method: SmoothMethod = Field("exp", description="BLEU smoothing")
    smooth_value: float | None = Field(None, description="BLEU floor/add-k smoothing value")
    effective_order: bool = Field(False, description="BLEU effective n-gram order")
    chrf_char_order: int = Field(6, ge=1, description="chrF character n-gram order")
    chrf_word_order: int = Field(2, ge=0, description="chrF word n-gram order (2 = chrF++)")
    chrf_beta: int = Field(2, ge=0, description="chrF recall weight β")
    chrf_eps_smoothing: bool = Field(False, description="chrF epsilon smoothing")
    ter_normalized: bool = Field(False, description="TER: normalize punctuation")
    ter_no_punct: bool = Field(False, description="TER: remove punctuation")
    ter_asian_support: bool = Field(False, description="TER: Asian-script tokenization")
    ter_case_sensitive: bool = Field(False, description="TER: case-sensitive")
    ter: bool = Field(True, description="compute corpus TER (slow on long segments)")
    comet: CometMode = Field(
        "auto",
        description="auto: the report's per-entry COMET scores, else compute when "
        "unbabel-comet and the model are present; on: compute or fail; report; off",
    )
    comet_model: str = Field(
        "Unbabel/wmt22-comet-da", description="COMET model name (local cache) or checkpoint path"
    )
    comet_batch_size: int = Field(16, ge=1, description="COMET batch size")
    comet_gpus: int = Field(0, ge=0, description="GPUs for COMET (0 = CPU)")
    source_lang: str | None = Field(None, description="source language code (COMET coverage)")
    target_lang: str | None = Field(None, description="target language code (COMET coverage)")
    plugin_metrics: bool = Field(
        True, description="test every numeric per-entry plugin_metrics value"
    )
