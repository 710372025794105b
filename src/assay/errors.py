"""The exceptions assay raises: one line each, naming the file, record and field at fault."""

from __future__ import annotations


class AssayError(Exception):
    """Base class: the CLI prints these as one line and exits with code 2."""


class InputError(AssayError):
    """An input file or directory is missing, unreadable or unusable as a whole."""


class RunInputError(InputError):
    """An input of the whole run, not of one record, found unusable while items are scored
    (a source document that cannot be read): it stops the run, as a ConfigError does, instead
    of failing the item that met it (``core.task.score_in_blocks``)."""


class ConfigError(AssayError):
    """A settings file or option is invalid; the message names the key and the file."""


class UsageError(AssayError):
    """Arguments that do not fit together (runs of different tasks, an unknown metric...)."""
