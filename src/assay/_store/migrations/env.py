"""Alembic environment for the run store: runs on the connection the store hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from assay._store.schema import metadata

config = context.config


def run_migrations() -> None:
    """Migrate on ``config.attributes['connection']`` when given, else on ``sqlalchemy.url``."""
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run_migrations()
