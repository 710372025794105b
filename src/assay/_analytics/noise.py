"""The rerun noise floor (seed 000 §10): how far two runs of one configuration drift apart.

From k ≥ 2 reruns of one configuration on one surface, the band of metric m is

    band(m) = max( max_{j<l} |m(run_j) − m(run_l)|,  q_level(|T|) )

where T pools, over every pair of reruns, the approximate-randomization differences obtained by
swapping each item's statistics between the two reruns at random. Under "same configuration"
each item's two outcomes are exchangeable, so |T| is the distribution of the gap between two
reruns given the items that actually flipped: it uses every item, so two reruns already give a
stable band, while the observed maximum keeps the band from ever being narrower than what the
reruns really showed. A candidate delta with |Δ| ≤ band is "within noise (logic repair)".
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from assay._analytics.output import write_json
from assay._analytics.surface import headline_metric, require_same_surface, shared_specs
from assay._engine.run import Run
from assay._io.decoding import read_bytes
from assay._io.strict import loads_lenient
from assay.errors import InputError, UsageError
from assay.stats.significance import randomization_statistics

NOISE_SCHEMA = 1
WITHIN_NOISE = "within noise (logic repair)"


@dataclass(frozen=True)
class MetricFloor:
    """The noise band of one metric with the pieces it is made of (support: pairs and items)."""

    metric: str
    band: float
    observed_max_abs_delta: float
    swap_quantile: float
    level: float
    values: list[float]
    n_reruns: int
    n_pairs: int
    n_items: int


@dataclass(frozen=True)
class NoiseFloor:
    """Noise bands of every shared metric for one surface, keyed for lookup by fingerprint."""

    task: str
    metrics_version: int
    fingerprint: str
    n_items: int
    seed: int
    headline: str
    runs: list[dict[str, str]]
    floors: dict[str, MetricFloor]
    n_trials: int
    level: float
    method: str = "max(observed max |Δ| over rerun pairs, level-quantile of |swap Δ|)"
    warnings: list[str] = field(default_factory=list)

    def band(self, metric: str) -> float | None:
        floor = self.floors.get(metric)
        return None if floor is None else floor.band

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["schema"] = NOISE_SCHEMA
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str = "<noise floor>") -> NoiseFloor:
        try:
            floors = {k: MetricFloor(**v) for k, v in data["floors"].items()}
            return cls(
                task=str(data["task"]),
                metrics_version=int(data["metrics_version"]),
                fingerprint=str(data["fingerprint"]),
                n_items=int(data["n_items"]),
                seed=int(data["seed"]),
                headline=str(data["headline"]),
                runs=list(data["runs"]),
                floors=floors,
                n_trials=int(data["n_trials"]),
                level=float(data["level"]),
                method=str(data.get("method", "")),
                warnings=list(data.get("warnings", [])),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise InputError(f"{source}: not a noise-floor record: {err}") from None


def _check_reruns(runs: Sequence[Run]) -> list[str]:
    if len(runs) < 2:
        raise UsageError("a noise floor needs at least two reruns of one configuration")
    ids = [r.run_id for r in runs]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise UsageError(f"the same run is given twice: {', '.join(dupes)}")
    for other in runs[1:]:
        require_same_surface(runs[0], other)
        if other.metrics_version != runs[0].metrics_version:
            raise UsageError(
                f"runs {runs[0].name!r} and {other.name!r} differ in metrics_version "
                f"({runs[0].metrics_version} vs {other.metrics_version})"
            )
        if other.provenance.config_sha256 != runs[0].provenance.config_sha256:
            raise UsageError(
                f"runs {runs[0].name!r} and {other.name!r} were scored with different settings "
                "(config_sha256 differs): not reruns of one configuration"
            )
    warnings = []
    preds = [r.provenance.predictions_sha256 for r in runs]
    if len(set(preds)) < len(preds):
        warnings.append(
            "some reruns have byte-identical predictions: they add no rerun noise "
            "(the same file scored twice?)"
        )
    return warnings


def measure_noise_floor(
    runs: Sequence[Run],
    *,
    metric: str | None = None,
    level: float = 0.95,
    n_trials: int = 2000,
    seed: int = 12345,
) -> NoiseFloor:
    """Noise bands of every metric the reruns share (see the module docstring)."""
    if not 0.0 < level < 1.0:
        raise UsageError(f"level must be in (0, 1), got {level}")
    warnings = _check_reruns(runs)
    headline = headline_metric(runs[0], metric)
    specs = shared_specs(runs)
    ids = list(runs[0].stats["ids"])
    tables = [r.table().take(ids) for r in runs]
    pooled: dict[str, list[np.ndarray]] = {s.name: [] for s in specs}
    pairs = list(itertools.combinations(range(len(runs)), 2))
    if ids and specs:
        for p, (j, k) in enumerate(pairs):
            stats = randomization_statistics(
                tables[j], tables[k], specs, n_trials=n_trials, seed=seed + p
            )
            for name, values in stats.items():
                pooled[name].append(np.abs(values[np.isfinite(values)]))
    floors: dict[str, MetricFloor] = {}
    for spec in specs:
        scores = [spec.value(t) for t in tables]
        finite = [v for v in scores if np.isfinite(v)]
        if len(finite) < 2:
            warnings.append(f"metric {spec.name} is undefined on some reruns: no noise floor")
            continue
        observed = max(abs(a - b) for a, b in itertools.combinations(finite, 2))
        swaps = np.concatenate(pooled[spec.name]) if pooled[spec.name] else np.zeros(0)
        quantile = float(np.quantile(swaps, level)) if swaps.size else 0.0
        floors[spec.name] = MetricFloor(
            metric=spec.name,
            band=float(max(observed, quantile)),
            observed_max_abs_delta=float(observed),
            swap_quantile=quantile,
            level=level,
            values=[float(v) for v in scores],
            n_reruns=len(runs),
            n_pairs=len(pairs),
            n_items=len(ids),
        )
    if headline not in floors:
        warnings.append(f"no noise floor for the headline metric {headline}")
    return NoiseFloor(
        task=runs[0].task,
        metrics_version=runs[0].metrics_version,
        fingerprint=runs[0].surface.fingerprint,
        n_items=runs[0].surface.n_items,
        seed=runs[0].surface.seed,
        headline=headline,
        runs=[{"run_id": r.run_id, "name": r.name} for r in runs],
        floors=floors,
        n_trials=n_trials,
        level=level,
        warnings=warnings,
    )


def noise_floor_path(fingerprint: str, directory: str | os.PathLike[str]) -> Path:
    """``<directory>/<fingerprint>.json``: one recorded floor per surface."""
    if not fingerprint or any(c in fingerprint for c in "/\\."):
        raise UsageError(f"not a surface fingerprint: {fingerprint!r}")
    return Path(directory) / f"{fingerprint}.json"


def save_noise_floor(floor: NoiseFloor, directory: str | os.PathLike[str]) -> Path:
    """Record the floor for its surface (replacing an earlier one), atomically."""
    path = noise_floor_path(floor.fingerprint, directory)
    return write_json(path, floor.to_json())


def load_noise_floor(fingerprint: str, directory: str | os.PathLike[str]) -> NoiseFloor | None:
    """The recorded floor of a surface, or None when none was recorded."""
    path = noise_floor_path(fingerprint, directory)
    if not path.is_file():
        return None
    try:
        data = loads_lenient(read_bytes(path))
    except (OSError, ValueError) as err:  # unreadable, not UTF-8, not JSON, beyond the limits
        raise InputError(f"{path}: unreadable noise-floor record: {err}") from None
    floor = NoiseFloor.from_json(data, str(path))
    if floor.fingerprint != fingerprint:
        raise InputError(f"{path}: records surface {floor.fingerprint}, not {fingerprint}")
    return floor
