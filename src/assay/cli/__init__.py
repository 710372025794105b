"""The assay command line."""

from assay.cli.app import build_cli, cli, main

__all__ = ["build_cli", "cli", "main"]
