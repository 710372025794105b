"""Several systems against the same references (sacrebleu's ``-i BASE SYS1 SYS2`` mode).

Statistics are extracted as sacrebleu extracts them (``sufficient.py``), chunk by chunk of
segments: each chunk reads its references once for every system, chunks run on ``jobs``
processes, and with a cache directory each (metric, chunk, system) block is stored under the
sha256 of its inputs. The numbers are the same whatever the chunking, the process count or the
cache. Each system is then tested against the baseline (the first) with the engine's one
paired-test dispatch (``assay.stats.paired_test``: exact sign-flip at few segments or documents,
randomization below 50, the bootstrap above; sacrebleu's p-value rule keeps the test asked):
A = system, B = baseline. The tests of every system × metric are one family, adjusted by Holm
(default), BH or none. With document ``units`` the CIs and tests resample documents.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from assay._io.readers import read_text_lines
from assay._io.records import ParseFailure
from assay.errors import InputError, UsageError
from assay.metrics.corpus.options import sacrebleu_version
from assay.metrics.corpus.sufficient import (
    SEGMENTS_COLUMN,
    CorpusMetric,
    FloatArray,
    extract_systems,
    n_references,
)
from assay.metrics.spec import MetricSpec
from assay.metrics.table import StatsTable
from assay.stats.bootstrap import bootstrap_distributions
from assay.stats.family import HEADLINE, adjust_family
from assay.stats.intervals import percentile_interval
from assay.stats.significance import Method, PValueRule, SignificanceResult, paired_test
from assay.stats.units import ITEMS, Units, few_units_factor, resampling_table, widen
from assay.suites.translation._lib.entries import hypothesis_text, is_blank

CHUNK_SEGMENTS = 500


@dataclass(frozen=True)
class SystemScore:
    """One system's corpus scores with their bootstrap CIs."""

    name: str
    path: str
    scores: dict[str, dict[str, float | None]]


@dataclass(frozen=True)
class SystemsComparison:
    """Every system's scores and each system's paired tests against the baseline."""

    baseline: str
    systems: list[SystemScore]
    significance: dict[str, list[SignificanceResult]]
    method: str
    p_value_rule: str
    n_resamples: int
    seed: int
    alpha: float
    signatures: dict[str, str]
    n_segments: int
    family: str = HEADLINE
    correction: str = "holm"
    unit: str = "item"
    n_units: int = 0

    @property
    def tests(self) -> list[SignificanceResult]:
        """Every system's results against the baseline: the adjusted family."""
        return [r for results in self.significance.values() for r in results]

    def to_json(self) -> dict[str, Any]:
        from assay.stats.multiplicity import CONTROLS

        return {
            "baseline": self.baseline,
            "method": self.method,
            "p_value_rule": self.p_value_rule,
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "alpha": self.alpha,
            "n_segments": self.n_segments,
            "unit": self.unit,
            "n_units": self.n_units,
            "family": {
                "name": self.family,
                "correction": self.correction,
                "controls": CONTROLS[self.correction],
                "n_tests": sum(1 for r in self.tests if r.delta is not None),
                "n_pairs": len(self.significance),
            },
            "sacrebleu_version": sacrebleu_version(),
            "signatures": self.signatures,
            "systems": [vars(s) for s in self.systems],
            "significance": {
                name: [r.to_json() for r in results] for name, results in self.significance.items()
            },
        }


def read_lines(path: Path, role: str) -> list[str]:
    """All lines of a text file; empty file or invalid UTF-8 is an InputError naming the line."""
    lines = []
    for res in read_text_lines(path):
        if isinstance(res, ParseFailure):
            raise InputError(f"{res.where()}: {res.reason}")
        lines.append(str(res.record["text"]))
    if not lines:
        raise InputError(f"{path}: empty {role} file")
    return lines


def read_aligned(
    ref_paths: Sequence[Path], sys_paths: Sequence[Path]
) -> tuple[list[tuple[str, ...]], list[list[str]]]:
    """References per segment (blank ones dropped) and each system's lines, checked aligned."""
    refs = [read_lines(p, "reference") for p in ref_paths]
    systems = [read_lines(p, "hypothesis") for p in sys_paths]
    n = len(refs[0])
    for p, lines in [*zip(ref_paths, refs, strict=True), *zip(sys_paths, systems, strict=True)]:
        if len(lines) != n:
            raise InputError(
                f"{p} has {len(lines)} lines but {ref_paths[0]} has {n}: "
                "files must be aligned by line"
            )
    per_segment = [tuple(r[i] for r in refs if not is_blank(r[i])) for i in range(n)]
    return per_segment, systems


def _digest(metric: CorpusMetric, refs: Sequence[Sequence[str]], hyps: Sequence[str]) -> str:
    payload = json.dumps(
        [metric.key, list(metric.options), sacrebleu_version(), refs, hyps], ensure_ascii=False
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _chunk_job(
    metric: CorpusMetric,
    refs: list[tuple[str, ...]],
    systems: list[list[str]],
    cache_dir: str | None,
    offset: int = 0,
) -> list[FloatArray]:
    """One chunk (its first segment is line ``offset + 1``): cached blocks where present, the
    rest extracted with one reference cache; a TER segment past the size bound is an
    InputError naming its system and line."""
    keys = [_digest(metric, refs, hyps) for hyps in systems]
    paths = [Path(cache_dir) / f"{k}.npy" for k in keys] if cache_dir else []
    if paths and all(p.is_file() for p in paths):
        return [np.load(p) for p in paths]
    failures: dict[tuple[int, int], str] = {}
    blocks = extract_systems(metric, systems, refs, failures)
    if failures:
        (system, row), why = min(failures.items())
        raise InputError(f"system {system + 1}, line {offset + row + 1}: {why}")
    for p, block in zip(paths, blocks, strict=False):
        tmp = p.with_name(p.stem + ".tmp.npy")
        np.save(tmp, block)
        tmp.replace(p)
    return blocks


def system_statistics(
    metrics: Sequence[CorpusMetric],
    references: Sequence[tuple[str, ...]],
    systems: Sequence[Sequence[str]],
    *,
    jobs: int = 1,
    cache_dir: Path | None = None,
    chunk: int = CHUNK_SEGMENTS,
) -> dict[str, list[FloatArray]]:
    """Per metric key, each system's (N, k) statistics (see the module docstring)."""
    n = len(references)
    if cache_dir is not None:
        cache_dir.mkdir(parents=True, exist_ok=True)
    jobs_args = [
        (m, list(references[a : a + chunk]), [list(s[a : a + chunk]) for s in systems], a)
        for m in metrics
        for a in range(0, n, chunk)
    ]
    cache = str(cache_dir) if cache_dir is not None else None
    if jobs > 1 and len(jobs_args) > 1:
        from concurrent.futures import ProcessPoolExecutor  # only with -j N
        from multiprocessing import get_context

        with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("fork")) as pool:
            futures = [pool.submit(_chunk_job, m, r, s, cache, a) for m, r, s, a in jobs_args]
            results = [f.result() for f in futures]
    else:
        results = [_chunk_job(m, r, s, cache, a) for m, r, s, a in jobs_args]
    out: dict[str, list[FloatArray]] = {}
    per_metric = (n + chunk - 1) // chunk
    for k, m in enumerate(metrics):
        parts = results[k * per_metric : (k + 1) * per_metric]
        out[m.key] = [np.vstack([p[s] for p in parts]) for s in range(len(systems))]
    return out


def system_tables(
    metrics: Sequence[CorpusMetric],
    references: Sequence[tuple[str, ...]],
    stats: dict[str, list[FloatArray]],
    n_systems: int,
) -> tuple[list[StatsTable], list[MetricSpec]]:
    """One StatsTable per system (ids = line numbers) and the corpus metric specs."""
    ids = tuple(str(i + 1) for i in range(len(references)))
    present = np.asarray([1.0 if r else 0.0 for r in references]).reshape(-1, 1)
    columns = (*[c for m in metrics for c in m.columns], SEGMENTS_COLUMN)
    tables = [
        StatsTable(ids, columns, np.hstack([*(stats[m.key][s] for m in metrics), present]))
        for s in range(n_systems)
    ]
    nrefs = n_references(references)
    return tables, [m.spec(m.signature(nrefs)) for m in metrics]


def _prefixed(table: StatsTable, prefix: str) -> StatsTable:
    return StatsTable(table.ids, tuple(prefix + c for c in table.columns), table.values)


def _prefixed_spec(spec: MetricSpec, prefix: str) -> MetricSpec:
    return MetricSpec(
        prefix + spec.name,
        spec.kind,
        tuple(prefix + c for c in spec.columns),
        params=spec.params,
        tier=spec.tier,
        higher_is_better=spec.higher_is_better,
        description=spec.description,
    )


def _side_by_side(tables: Sequence[StatsTable], prefixes: Sequence[str]) -> StatsTable:
    """One wide table: each system's columns under its own prefix (one resample plan for all)."""
    parts = [_prefixed(t, p) for t, p in zip(tables, prefixes, strict=True)]
    columns = tuple(c for t in parts for c in t.columns)
    return StatsTable(parts[0].ids, columns, np.hstack([t.values for t in parts]))


def compare_systems(
    names: Sequence[str],
    paths: Sequence[str],
    tables: Sequence[StatsTable],
    specs: Sequence[MetricSpec],
    *,
    method: Method = "bootstrap",
    p_value: PValueRule = "assay",
    n_resamples: int | None = None,
    seed: int = 12345,
    alpha: float = 0.05,
    n_bootstrap_ci: int = 1000,
    family: str = HEADLINE,
    correction: str = "holm",
    units: Units = ITEMS,
) -> SystemsComparison:
    """Scores with CIs for every system; paired tests of each system against the first,
    adjusted as one family (every system × metric) by ``correction``.

    All systems share one resample plan (as in sacrebleu, which re-seeds the same generator for
    every system), so the tables are laid side by side under per-system column prefixes and
    resampled once: one draw and one matrix product for all CIs, and one for all tests. With
    clustered ``units`` (documents) the CIs resample documents (widened for few of them) and
    the tests swap documents.
    """
    if len(tables) < 2:
        raise UsageError("give a baseline and at least one system")
    n = n_resamples or (1000 if method == "bootstrap" else 10_000)
    prefixes = [f"{k}:" for k in range(len(tables))]
    wide_specs = [_prefixed_spec(spec, p) for p in prefixes for spec in specs]
    wide = resampling_table(_side_by_side(tables, prefixes), units)
    dists = bootstrap_distributions(wide, wide_specs, n_resamples=n_bootstrap_ci, seed=seed)
    factor = few_units_factor(len(wide), alpha) if units.clustered else 1.0
    systems = []
    for name, path, table, prefix in zip(names, paths, tables, prefixes, strict=True):
        scores: dict[str, dict[str, float | None]] = {}
        for spec in specs:
            ci = percentile_interval(dists[prefix + spec.name], alpha)
            value = spec.value(table)
            lower, upper = widen(ci.lower, ci.upper, value, factor)
            scores[spec.name] = {
                "value": value if np.isfinite(value) else None,
                "ci_lower": lower,
                "ci_upper": upper,
            }
        systems.append(SystemScore(name, path, scores))
    others = prefixes[1:]
    table_a = _side_by_side(tables[1:], others)
    table_b = _side_by_side([tables[0]] * len(others), others)
    tested = [_prefixed_spec(spec, p) for p in others for spec in specs]
    results = paired_test(
        table_a,
        table_b,
        tested,
        method=method,
        n_resamples=n,
        seed=seed,
        alpha=alpha,
        p_value=p_value,
        units=units,
    )
    results = adjust_family(results, correction=correction, family=family)
    significance: dict[str, list[SignificanceResult]] = {name: [] for name in names[1:]}
    for result in results:
        k, metric = result.metric_name.split(":", 1)
        significance[names[int(k)]].append(replace(result, metric_name=metric))
    return SystemsComparison(
        baseline=names[0],
        systems=systems,
        significance=significance,
        method=method,
        p_value_rule=p_value,
        n_resamples=n,
        seed=seed,
        alpha=alpha,
        signatures={s.name: str(s.params.get("signature", "")) for s in specs},
        n_segments=len(tables[0]),
        family=family,
        correction=correction,
        unit=units.name,
        n_units=len(wide),
    )


def score_text_systems(
    ref_paths: Sequence[Path],
    sys_paths: Sequence[Path],
    metrics: Sequence[CorpusMetric],
    *,
    empty: str = "EMPTY",
    jobs: int = 1,
    cache_dir: Path | None = None,
) -> tuple[list[StatsTable], list[MetricSpec]]:
    """Read and extract: one table per system file, blank hypotheses scored as ``empty``."""
    references, systems = read_aligned(ref_paths, sys_paths)
    hyps = [[hypothesis_text(h, empty) for h in lines] for lines in systems]
    stats = system_statistics(metrics, references, hyps, jobs=jobs, cache_dir=cache_dir)
    return system_tables(metrics, references, stats, len(sys_paths))
