"""The run store: every scored run, its scorecard, cohort and per-item statistics, in SQL.

SQLite in ``.assay/assay.db`` by default (WAL mode), PostgreSQL with ``--store`` or
``ASSAY_STORE``; the schema is versioned with Alembic migrations shipped in the package.
"""

from assay._store.codec import decode_run, encode_run
from assay._store.store import (
    AddResult,
    HistoryPoint,
    MetricRow,
    RunStore,
    RunSummary,
    StoreError,
    head_revision,
    migrations_config,
    open_store,
)
from assay._store.url import ENV_VAR, display_url, resolve_store_url

__all__ = [
    "ENV_VAR",
    "AddResult",
    "HistoryPoint",
    "MetricRow",
    "RunStore",
    "RunSummary",
    "StoreError",
    "decode_run",
    "display_url",
    "encode_run",
    "head_revision",
    "migrations_config",
    "open_store",
    "resolve_store_url",
]
