"""``python -m assay``."""

from assay.cli.app import entry

entry()
