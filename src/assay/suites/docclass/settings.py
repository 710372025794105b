"""The docclass suite's settings section (``docclass:`` in assay.yaml)."""

from __future__ import annotations

from assay._legal.hierarchical import HierarchicalSettings


class DocclassSettings(HierarchicalSettings):
    """Hierarchical doc classification: doc_type and subclass fields, subclass equivalences."""
