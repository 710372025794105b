"""The multiclass suite's settings section (``multiclass:`` in assay.yaml)."""

from __future__ import annotations

from assay._legal.labelsuite import LabelSettings


class MulticlassSettings(LabelSettings):
    """Multiclass (and court-opinion) label rows: gold and predicted label fields."""
