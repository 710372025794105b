"""Building the metric registry: the suites' specs, the packaged YAML, the override file.

``build_registry`` lays its sources over one ``MetricRegistry`` in order (each registered
suite's default MetricSpecs and the specs of given runs; the packaged ``defaults.yaml`` and
seed 000 §0.1's shipped bundles, document-type bundles and profiles; ``ASSAY_REGISTRY``'s YAML),
then checks that every bundle and profile resolves (``bundles.validate_registry``). It sits
above both the registry and the bundles, so neither imports the other's module back.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from assay._engine.run import Run
from assay.errors import ConfigError
from assay.registry.bundles import validate_registry
from assay.registry.registry import MetricRegistry

#: the environment variable naming the override YAML
ENV_VAR = "ASSAY_REGISTRY"


def _suite_specs(registry: MetricRegistry) -> None:
    """Register every suite's default specs, with a bundle and a profile of its own."""
    from assay._engine.registry import available_tasks

    for name, task in available_tasks().items():
        try:
            specs = task.metric_specs([], task.settings_model())
        except Exception as err:  # a suite whose specs need scores or settings: say so
            registry.errors[name] = f"{type(err).__name__}: {err}"
            continue
        registry.add_specs(name, specs)
        registry.bundles.setdefault(
            name,
            {"description": f"the {name} suite's metrics", "suite": name},
        )
        registry.profiles.setdefault(
            name, {"description": f"runs scored by the {name} suite", "bundle": name}
        )


#: seed 000 §0.1's shipped content, package data laid over defaults.yaml in this order
SHIPPED = ("shipped/task_bundles.yaml", "shipped/doc_bundles.yaml", "shipped/profiles.yaml")


def build_registry(
    *,
    runs: Iterable[Run] = (),
    path: str | os.PathLike[str] | None = None,
    suites: bool = True,
) -> MetricRegistry:
    """The registry: suites' specs (and ``runs``' specs), defaults.yaml, then the override file.

    ``path`` (else ``ASSAY_REGISTRY``) names the override YAML.
    """
    registry = MetricRegistry()
    if suites:
        _suite_specs(registry)
    for run in runs:
        registry.learn_run(run)
        registry.bundles.setdefault(
            run.task, {"description": f"the {run.task} suite's metrics", "suite": run.task}
        )
    package = resources.files("assay.registry")
    for name in ("defaults.yaml", *SHIPPED):
        text = package.joinpath(*name.split("/")).read_text(encoding="utf-8")
        registry.overlay(yaml.safe_load(text), source=name)
    override = path or os.environ.get(ENV_VAR)
    if override:
        p = Path(override)
        registry.overlay(read_yaml(p), source=str(p))
    if suites:
        # every suite's metrics are known: the shipped (and overriding) bundles, document-type
        # bundles and profiles must name only registered metrics and existing bundles
        validate_registry(registry)
    return registry


def read_yaml(path: Path) -> dict[str, Any]:
    """A registry YAML file as a mapping; errors name the file."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: registry file not found") from None
    except (OSError, yaml.YAMLError) as err:
        raise ConfigError(f"{path}: not a readable registry YAML: {err}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a registry YAML must be a mapping")
    return data
