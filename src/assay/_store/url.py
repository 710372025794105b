"""Where the run store lives: ``--store URL``, else ``ASSAY_STORE``, else ``.assay/assay.db``."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from assay.errors import ConfigError

ENV_VAR = "ASSAY_STORE"
DEFAULT_PATH = Path(".assay") / "assay.db"


def resolve_store_url(url: str | None = None) -> str:
    """A SQLAlchemy URL: the one given, ``ASSAY_STORE``, or SQLite in the working directory.

    A plain file path is read as a SQLite file; ``postgresql://`` means the psycopg driver.
    """
    raw = url or os.environ.get(ENV_VAR) or str(DEFAULT_PATH)
    if "://" not in raw:
        return f"sqlite:///{Path(raw).expanduser()}"
    if raw.startswith(("postgresql://", "postgres://")):
        raw = "postgresql+psycopg://" + raw.split("://", 1)[1]
    try:
        make_url(raw)
    except ArgumentError as err:
        raise ConfigError(
            f"store URL {display_url(raw)!r} is not a SQLAlchemy URL: {err}"
        ) from None
    return raw


def display_url(url: str) -> str:
    """The URL with any password masked, for messages and logs."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unparseable store URL>"


def sqlite_path(url: str) -> Path | None:
    """The database file of a SQLite URL (None for in-memory or other backends)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    if parsed.database == ":memory:" or parsed.database.startswith("file:"):
        return None
    return Path(parsed.database)
