"""Per-segment sufficient statistics, exactly as sacrebleu extracts them (without importing it).

Each corpus metric is described by a :class:`CorpusMetric` (its sacrebleu options, its stats
columns and the registered kind that finalizes their sums). The layouts are sacrebleu's own:

* BLEU: ``[len_hyp, len_ref, match_1..match_n, total_1..total_n]`` (n = max n-gram order);
* chrF: ``[hyp_k, ref_k, match_k]`` for each character order then each word order;
* TER: ``[num_edits, ref_length]`` (best edits over the references, mean reference length).

A segment without a reference gets a row of zeros (seed 001: left out of the corpus metrics),
and every spec also sums the ``segments`` column so an empty selection is undefined, not 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, Protocol

import numpy as np
from numpy.typing import NDArray

from assay.errors import InputError
from assay.metrics.corpus.options import (
    BleuOptions,
    ChrfOptions,
    TerOptions,
)
from assay.metrics.corpus.segment_stats import bleu_statistics, chrf_statistics
from assay.metrics.corpus.ter import TerTooLarge, edit_rate
from assay.metrics.spec import MetricSpec, Tier

FloatArray = NDArray[np.float64]
MetricKey = Literal["bleu", "chrf", "ter"]

#: the vectorized counts take this many segments at a time: their working arrays (one int64 per
#: character n-gram position) then stay a few MiB whatever the corpus size, at no cost in speed
VECTOR_CHUNK_SEGMENTS = 50

#: the column counting segments that have a reference (shared by every corpus metric)
SEGMENTS_COLUMN = "segments"


@dataclass(frozen=True)
class CorpusMetric:
    """One sacrebleu corpus metric: constructor options, stats columns, finalize kind/params."""

    key: MetricKey
    name: str
    options: tuple[tuple[str, Any], ...]
    finalize_params: tuple[tuple[str, Any], ...]
    higher_is_better: bool = True
    tier: Tier = "headline"
    description: str = ""
    columns: tuple[str, ...] = field(default=())

    @property
    def kind(self) -> str:
        return f"sacrebleu_{self.key}"

    def scorer(self) -> ChrfOptions | BleuOptions | TerOptions:
        """The (cached) options object that preprocesses and signs like sacrebleu's metric."""
        return _metric_object(self.key, self.options)

    def signature(self, n_refs: int) -> str:
        """sacrebleu's reproducibility signature for these options and reference count."""
        return self.scorer().signature(n_refs)

    def spec(self, signature: str) -> MetricSpec:
        """The MetricSpec: this metric's columns plus the segment count, finalized by its kind."""
        return MetricSpec(
            self.name,
            self.kind,
            (*self.columns, SEGMENTS_COLUMN),
            params={**dict(self.finalize_params), "signature": signature},
            tier=self.tier,
            higher_is_better=self.higher_is_better,
            description=self.description,
        )

    def extract(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        failures: dict[tuple[int, int], str] | None = None,
    ) -> FloatArray:
        """(N, k) statistics of each segment; rows without a reference are zeros (and rows of
        segments recorded in ``failures``, see `extract_systems`)."""
        return extract_statistics(self, hypotheses, references, failures)


@lru_cache(maxsize=32)
def _metric_object(
    key: MetricKey, options: tuple[tuple[str, Any], ...]
) -> ChrfOptions | BleuOptions | TerOptions:
    kwargs = dict(options)
    if key == "bleu":
        return BleuOptions(**kwargs)
    if key == "chrf":
        return ChrfOptions(**kwargs)
    return TerOptions(**kwargs)


def bleu_metric(
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = False,
    max_ngram_order: int = 4,
) -> CorpusMetric:
    """corpus_bleu: sacrebleu ``BLEU`` (defaults: 13a tokenizer, exp smoothing)."""
    n = max_ngram_order
    columns = (
        "bleu.sys_len",
        "bleu.ref_len",
        *(f"bleu.match{i}" for i in range(1, n + 1)),
        *(f"bleu.total{i}" for i in range(1, n + 1)),
    )
    return CorpusMetric(
        key="bleu",
        name="corpus_bleu",
        options=(
            ("tokenize", tokenize),
            ("lowercase", lowercase),
            ("smooth_method", smooth_method),
            ("smooth_value", smooth_value),
            ("effective_order", effective_order),
            ("max_ngram_order", max_ngram_order),
        ),
        finalize_params=(
            ("max_ngram_order", max_ngram_order),
            ("smooth_method", smooth_method),
            ("smooth_value", smooth_value),
            ("effective_order", effective_order),
        ),
        description="sacrebleu corpus BLEU (0-100) over entries with a reference",
        columns=columns,
    )


def chrf_metric(
    *,
    char_order: int = 6,
    word_order: int = 2,
    beta: int = 2,
    lowercase: bool = False,
    eps_smoothing: bool = False,
) -> CorpusMetric:
    """corpus_chrf: sacrebleu ``CHRF`` (word_order=2 is chrF++)."""
    orders = [f"c{i}" for i in range(1, char_order + 1)] + [
        f"w{i}" for i in range(1, word_order + 1)
    ]
    columns = tuple(f"chrf.{o}.{part}" for o in orders for part in ("hyp", "ref", "match"))
    label = "chrF++" if word_order == 2 else f"chrF (word order {word_order})"
    return CorpusMetric(
        key="chrf",
        name="corpus_chrf",
        options=(
            ("char_order", char_order),
            ("word_order", word_order),
            ("beta", beta),
            ("lowercase", lowercase),
            ("eps_smoothing", eps_smoothing),
        ),
        finalize_params=(
            ("order", char_order + word_order),
            ("beta", beta),
            ("eps_smoothing", eps_smoothing),
        ),
        description=f"sacrebleu corpus {label} (0-100) over entries with a reference",
        columns=columns,
    )


def ter_metric(
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> CorpusMetric:
    """corpus_ter: sacrebleu ``TER`` (lower is better)."""
    return CorpusMetric(
        key="ter",
        name="corpus_ter",
        options=(
            ("normalized", normalized),
            ("no_punct", no_punct),
            ("asian_support", asian_support),
            ("case_sensitive", case_sensitive),
        ),
        finalize_params=(),
        higher_is_better=False,
        tier="core",
        description="sacrebleu corpus TER (0-100+, lower is better) over entries with a reference",
        columns=("ter.edits", "ter.ref_len"),
    )


class CorpusOptions(Protocol):
    """The options :func:`corpus_metrics` reads (any object with these attributes: the
    translation suite's settings section is one)."""

    @property
    def chrf_char_order(self) -> int: ...
    @property
    def chrf_word_order(self) -> int: ...
    @property
    def chrf_beta(self) -> int: ...
    @property
    def chrf_eps_smoothing(self) -> bool: ...
    @property
    def lowercase(self) -> bool: ...
    @property
    def tokenize(self) -> str: ...
    @property
    def smooth_method(self) -> str: ...
    @property
    def smooth_value(self) -> float | None: ...
    @property
    def effective_order(self) -> bool: ...
    @property
    def ter(self) -> bool: ...
    @property
    def ter_normalized(self) -> bool: ...
    @property
    def ter_no_punct(self) -> bool: ...
    @property
    def ter_asian_support(self) -> bool: ...
    @property
    def ter_case_sensitive(self) -> bool: ...


def corpus_metrics(settings: CorpusOptions) -> list[CorpusMetric]:
    """The corpus metrics a run computes: chrF++ and BLEU, and TER unless ``settings.ter`` is
    off, each with the options ``settings`` gives."""
    metrics = [
        chrf_metric(
            char_order=settings.chrf_char_order,
            word_order=settings.chrf_word_order,
            beta=settings.chrf_beta,
            lowercase=settings.lowercase,
            eps_smoothing=settings.chrf_eps_smoothing,
        ),
        bleu_metric(
            tokenize=settings.tokenize,
            lowercase=settings.lowercase,
            smooth_method=settings.smooth_method,
            smooth_value=settings.smooth_value,
            effective_order=settings.effective_order,
        ),
    ]
    if settings.ter:
        metrics.append(
            ter_metric(
                normalized=settings.ter_normalized,
                no_punct=settings.ter_no_punct,
                asian_support=settings.ter_asian_support,
                case_sensitive=settings.ter_case_sensitive,
            )
        )
    return metrics


def extract_statistics(
    metric: CorpusMetric,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    failures: dict[tuple[int, int], str] | None = None,
) -> FloatArray:
    """sacrebleu's per-segment statistics for each (hypothesis, references) pair.

    ``references[i]`` holds segment i's references (any number); an empty tuple gives zeros.
    ``failures``: see `extract_systems`.
    """
    return extract_systems(metric, [hypotheses], references, failures)[0]


def extract_systems(
    metric: CorpusMetric,
    systems: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    failures: dict[tuple[int, int], str] | None = None,
) -> list[FloatArray]:
    """Per-segment statistics of several systems against the same references.

    chrF and BLEU are counted for all systems at once, VECTOR_CHUNK_SEGMENTS segments at a time
    (:mod:`assay.metrics.corpus.segment_stats`, equal to sacrebleu's counts). TER
    preprocesses as sacrebleu's tercom tokenizer (:class:`TerOptions`) and counts edits with
    :mod:`assay.metrics.corpus.ter` (sacrebleu's numbers, less work); a hypothesis identical
    to an earlier system's on the same segment reuses its row.

    A TER segment too large for the memory bound (`TerTooLarge`) is recorded in ``failures``
    under (system, segment) with its row left at zeros; without ``failures`` it is an
    InputError naming the segment.
    """
    n = len(references)
    for hyps in systems:
        if len(hyps) != n:
            raise ValueError(f"{len(hyps)} hypotheses but {n} reference sets")
    outs = [np.zeros((n, len(metric.columns)), dtype=np.float64) for _ in systems]
    rows = [i for i, refs in enumerate(references) if refs]
    if not rows:
        return outs
    scorer = metric.scorer()
    if not isinstance(scorer, TerOptions):
        for a in range(0, len(rows), VECTOR_CHUNK_SEGMENTS):
            chunk = rows[a : a + VECTOR_CHUNK_SEGMENTS]
            hyp_rows = [[hyps[i] for i in chunk] for hyps in systems]
            chunk_refs = [references[i] for i in chunk]
            if isinstance(scorer, ChrfOptions):
                blocks = chrf_statistics(scorer, hyp_rows, chunk_refs)
            else:
                blocks = bleu_statistics(scorer, hyp_rows, chunk_refs)
            for out, block in zip(outs, blocks, strict=True):
                out[chunk] = block
        return outs
    for i in rows:
        ref_words = [scorer.preprocess(r).split() for r in references[i]]
        for k, hyps in enumerate(systems):
            earlier = next((j for j in range(k) if systems[j][i] == hyps[i]), None)
            if earlier is not None:
                outs[k][i] = outs[earlier][i]
                if failures is not None and (earlier, i) in failures:
                    failures[(k, i)] = failures[(earlier, i)]
                continue
            try:
                outs[k][i] = ter_segment(scorer.preprocess(hyps[i]).split(), ref_words)
            except TerTooLarge as err:
                if failures is None:
                    raise InputError(f"segment {i + 1}: {err}") from None
                failures[(k, i)] = str(err)
    return outs


def ter_segment(hyp: list[str], refs: Sequence[list[str]]) -> list[float]:
    """sacrebleu's TER statistics of one segment: [fewest edits over the references, mean
    reference length]."""
    best = None
    total = 0
    for ref in refs:
        edits, length = edit_rate(hyp, ref)
        total += length
        if best is None or edits < best:
            best = edits
    return [float(best if best is not None else 0), total / len(refs)]


def n_references(references: Sequence[Sequence[str]]) -> int:
    """sacrebleu's ``nrefs``: the common reference count, or -1 ("var") when it varies."""
    counts = {len(r) for r in references if r}
    if len(counts) == 1:
        return counts.pop()
    return -1 if counts else 0


def stats_rows(
    metrics: Sequence[CorpusMetric], matrices: Mapping[str, FloatArray], row: int
) -> dict[str, float]:
    """One segment's statistics as a column → value mapping."""
    out: dict[str, float] = {}
    for m in metrics:
        values = matrices[m.key][row]
        out.update(zip(m.columns, values.tolist(), strict=True))
    return out
