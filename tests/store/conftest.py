"""Fixtures: demo runs once per session, and the store backends (SQLite; PostgreSQL when
installed, started by the tests themselves on 127.0.0.1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.store.services import DemoRuns, make_demo_runs, postgres_server


@pytest.fixture(scope="session")
def demo(tmp_path_factory: pytest.TempPathFactory) -> DemoRuns:
    return make_demo_runs(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    with postgres_server() as url:
        yield url


_pg_counter = iter(range(10_000))


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty store per test: a SQLite file, or a new database on the test server."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'assay.db'}"
        return
    server = request.getfixturevalue("pg_server")
    import sqlalchemy as sa

    name = f"t{next(_pg_counter)}"
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {name}"))
    try:
        yield server.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()
