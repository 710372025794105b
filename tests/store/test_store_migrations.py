"""Schema migrations: the upgrade from the first schema keeps the data and adds seed 001's
run_cards columns; the migrated schema equals the tables the code declares."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from assay._store import RunStore, head_revision, migrations_config
from assay._store.schema import metadata
from assay._store.store import insert_run
from tests.store.services import DemoRuns

MT_COLUMNS = {
    "comet_score",
    "corpus_bleu",
    "chrf_ci_lower",
    "chrf_ci_upper",
    "exact_match_ci_lower",
    "exact_match_ci_upper",
}


def _card_columns(engine: sa.Engine) -> set[str]:
    with engine.connect() as conn:
        return set(conn.execute(sa.text("SELECT * FROM run_cards")).keys())


def test_upgrade_from_the_first_schema(store_url: str, demo: DemoRuns) -> None:
    engine = sa.create_engine(store_url)
    with engine.begin() as conn:
        command.upgrade(migrations_config(conn), "0001")
    assert not MT_COLUMNS & _card_columns(engine)
    with engine.begin() as conn:
        insert_run(conn, demo.baseline, stored_at="2026-01-01T00:00:00+00:00")
    engine.dispose()

    with RunStore(store_url) as st:  # opening for writing migrates to head
        assert st.revision() == head_revision() == "0002"
        assert _card_columns(st.engine) >= MT_COLUMNS
        card = st.run_cards()[0]
        em = demo.baseline.metrics["exact_match"]
        assert (card["exact_match_ci_lower"], card["exact_match_ci_upper"]) == (
            em.ci_lower,
            em.ci_upper,
        )
        assert st.get(demo.baseline.run_id).to_json() == demo.baseline.to_json()
        with st.engine.begin() as conn:
            command.downgrade(migrations_config(conn), "0001")
        assert not MT_COLUMNS & _card_columns(st.engine)


def test_migrated_schema_matches_the_declared_tables(store_url: str) -> None:
    with RunStore(store_url) as st, st.engine.connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diffs == []


def test_readonly_refuses_an_old_schema(store_url: str) -> None:
    import pytest

    from assay._store import StoreError

    engine = sa.create_engine(store_url)
    with engine.begin() as conn:
        command.upgrade(migrations_config(conn), "0001")
    engine.dispose()
    with pytest.raises(StoreError, match="schema revision 0001"):
        RunStore(store_url, readonly=True)
