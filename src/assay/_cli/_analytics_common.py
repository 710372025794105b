"""What the analytics commands share: the settings (``--config``) and the result writer."""

from __future__ import annotations

from pathlib import Path

import click

from assay._settings import get_settings, load_settings
from assay._settings.model import AnalyticsSettings


def config_option(fn: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--config",
        type=click.Path(path_type=Path),
        help="settings YAML (else ASSAY_CONFIG or ./assay.yaml)",
    )(fn)


def analytics_settings(config: Path | None) -> AnalyticsSettings:
    """The ``analytics`` section of ``config`` or of the process-wide settings."""
    return (load_settings(config) if config else get_settings()).analytics
