"""The assay command line (``assay.cli.app``; its commands load by name, ``assay.cli.lazy``)."""

from assay.cli.app import build_cli, cli, main

__all__ = ["build_cli", "cli", "main"]
