"""``python -m assay``."""

from assay._cli.app import entry

entry()
