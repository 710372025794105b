"""The assay command line (``assay._cli.app``; its commands load by name, ``assay._cli.lazy``)."""

from assay._cli.app import build_cli, cli, main

__all__ = ["build_cli", "cli", "main"]
