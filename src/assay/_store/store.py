"""RunStore: record, list, load and remove runs in a SQL database (SQLite or PostgreSQL).

Every write is one transaction; the schema is migrated with Alembic when the store is opened
for writing. A read-only store (the dashboard) never creates, migrates or writes anything.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from importlib import resources
from typing import Any, TypeVar

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from assay._engine.run import ItemRecord, Run
from assay._store.codec import (
    CHUNK,
    ENCODING,
    decode_items,
    decode_run,
    decode_stats,
    encode_run,
    item_records,
    original_order,
)
from assay._store.schema import run_item_chunks, run_metrics, run_payloads, runs
from assay._store.url import display_url, resolve_store_url, sqlite_path
from assay.errors import AssayError, InputError, UsageError

T = TypeVar("T")


class StoreError(AssayError):
    """The store cannot be opened, migrated or written."""


@dataclass(frozen=True)
class MetricRow:
    """One stored metric of a run."""

    name: str
    value: float | None
    ci_lower: float | None
    ci_upper: float | None
    n: int
    tier: str
    higher_is_better: bool
    kind: str


@dataclass(frozen=True)
class RunSummary:
    """A run as the runs list shows it: metadata, cohort counts and headline metrics."""

    run_id: str
    task: str
    name: str
    generated_at: str
    stored_at: str
    metrics_version: int
    surface_fingerprint: str
    surface_seed: int
    n_items: int
    n_attempted: int
    n_evaluated: int
    n_missing: int
    n_failed: int
    n_unmatched: int
    n_warnings: int
    git_commit: str | None
    headline: tuple[MetricRow, ...]

    @property
    def surface_key(self) -> tuple[str, int, int]:
        """The same-surface rule: dataset fingerprint, seed and sample size."""
        return (self.surface_fingerprint, self.surface_seed, self.n_items)


@dataclass(frozen=True)
class HistoryPoint:
    """One run's value of a metric, for the history of a surface."""

    run_id: str
    name: str
    stored_at: str
    generated_at: str
    value: float | None
    ci_lower: float | None
    ci_upper: float | None
    n: int


@dataclass(frozen=True)
class AddResult:
    run_id: str
    replaced: bool


def migrations_config(connection: Connection | None = None) -> Config:
    """An Alembic config for the migrations shipped inside the package."""
    cfg = Config()
    location = resources.files("assay._store") / "migrations"
    cfg.set_main_option("script_location", str(location))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    head = ScriptDirectory.from_config(migrations_config()).get_current_head()
    if head is None:
        raise StoreError("the packaged migrations have no head revision")
    return head


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    # the busy timeout first: switching a new file to WAL takes an exclusive lock, and without
    # the timeout a second process opening the store meanwhile fails at once ("locked")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    # FULL: a commit is on disk (the WAL fsynced) before it returns, as an artifact is
    # fsynced before its rename; NORMAL could lose the last runs recorded to a power cut
    cur.execute("PRAGMA synchronous=FULL")
    cur.close()
    # transactions are begun by ``_sqlite_begin``, not by the driver
    dbapi_connection.isolation_level = None


def _sqlite_begin(conn: Connection) -> None:
    """A writing transaction takes SQLite's write lock when it begins; a read does not.

    The driver's own deferred transactions begin neither before DDL (two processes creating a
    new store both ran CREATE TABLE) nor before a read that a write follows (a read lock
    upgraded to a write lock fails at once with "database is locked", never waiting for the
    busy timeout). A connection opened by ``RunStore._writing`` begins ``BEGIN IMMEDIATE``,
    which waits up to the busy timeout for the lock instead, so migrations and writes from
    several processes run one after another, and a schema migrated by another process
    meanwhile is seen by Alembic inside the lock and left alone. Reads begin deferred.
    """
    write = conn.get_execution_options().get(_WRITE_OPTION, False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


_WRITE_OPTION = "assay_write"


#: attempts of one write transaction when the database stays locked past the busy timeout
WRITE_ATTEMPTS = 6


def _is_busy(err: SQLAlchemyError) -> bool:
    text = str(getattr(err, "orig", err)).lower()
    return "locked" in text or "busy" in text or "deadlock" in text


def _sqlite_query_only(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.execute("PRAGMA query_only=ON")
    cur.close()


def _metric_row(row: Any) -> MetricRow:
    return MetricRow(
        name=row.name,
        value=row.value,
        ci_lower=row.ci_lower,
        ci_upper=row.ci_upper,
        n=row.n,
        tier=row.tier,
        higher_is_better=bool(row.higher_is_better),
        kind=row.kind,
    )


def insert_run(conn: Connection, run: Run, *, stored_at: str | None = None) -> bool:
    """Write ``run``'s rows on ``conn`` (replacing a run with its id); True when it replaced one.

    The columns it writes exist since the first schema revision, so migration tests use it.
    """
    encoded = encode_run(run)
    now = stored_at or datetime.now(UTC).isoformat(timespec="microseconds")
    for table in (run_item_chunks, run_payloads, run_metrics):
        conn.execute(sa.delete(table).where(table.c.run_id == run.run_id))
    replaced = conn.execute(sa.delete(runs).where(runs.c.run_id == run.run_id)).rowcount > 0
    conn.execute(sa.insert(runs).values(**_run_row(run, now)))
    if run.metrics:
        conn.execute(sa.insert(run_metrics), _metric_rows(run))
    conn.execute(
        sa.insert(run_payloads).values(
            run_id=run.run_id,
            encoding=ENCODING,
            envelope=encoded.envelope,
            stats_ids=encoded.stats_ids,
            stats_columns=encoded.stats_columns,
            stats_values=encoded.stats_values,
            item_order=encoded.item_order,
            n_items=encoded.n_items,
        )
    )
    if encoded.chunks:
        conn.execute(
            sa.insert(run_item_chunks),
            [
                {"run_id": run.run_id, "chunk": k, "records": blob}
                for k, blob in enumerate(encoded.chunks)
            ],
        )
    return replaced


def _run_row(run: Run, stored_at: str) -> dict[str, Any]:
    """The ``runs`` row of ``run``: its envelope, surface, digests and cohort counts (what
    the runs list filters and shows without reading the payload)."""
    c = run.cohort
    return {
        "run_id": run.run_id,
        "task": run.task,
        "name": run.name,
        "generated_at": run.generated_at,
        "stored_at": stored_at,
        "metrics_version": run.metrics_version,
        "assay_version": run.assay_version,
        "artifact_schema": run.artifact_schema,
        "surface_fingerprint": run.surface.fingerprint,
        "surface_seed": run.surface.seed,
        "surface_n_items": run.surface.n_items,
        "gold_sha256": run.provenance.gold_sha256,
        "predictions_sha256": run.provenance.predictions_sha256,
        "config_sha256": run.provenance.config_sha256,
        "git_commit": run.provenance.git_commit,
        "n_attempted": c.attempted,
        "n_evaluated": c.evaluated,
        "n_missing": c.missing,
        "n_failed": c.failed,
        "n_unmatched": c.unmatched,
        "n_abstained": c.abstained,
        "n_warnings": len(run.warnings),
    }


def _metric_rows(run: Run) -> list[dict[str, Any]]:
    """One ``run_metrics`` row per metric of ``run`` (value, CI, support, tier, direction)."""
    return [
        {
            "run_id": run.run_id,
            "name": m.name,
            "value": m.value,
            "ci_lower": m.ci_lower,
            "ci_upper": m.ci_upper,
            "n": m.n,
            "tier": m.tier,
            "higher_is_better": m.higher_is_better,
            "kind": m.kind,
        }
        for m in run.metrics.values()
    ]


class RunStore:
    """The run store at ``url`` (see :func:`resolve_store_url`).

    ``readonly=True`` opens an existing store for reading only (SQLite ``query_only``); it
    refuses a missing store or one whose schema is not at the packaged head revision.
    """

    def __init__(self, url: str | None = None, *, readonly: bool = False) -> None:
        self.url = resolve_store_url(url)
        self.display_url = display_url(self.url)
        self.readonly = readonly
        path = sqlite_path(self.url)
        if path is not None:
            if readonly and not path.exists():
                raise StoreError(f"no run store at {path} (score a run first, or pass --store)")
            if not readonly:
                path.parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = self._engine()
        for attempt in range(WRITE_ATTEMPTS):
            try:
                self._check_schema()
                break
            except SQLAlchemyError as err:
                # another process holding the lock past the busy timeout: try again, a while
                if _is_busy(err) and attempt < WRITE_ATTEMPTS - 1:
                    time.sleep(0.05 * 2**attempt)
                    continue
                self.engine.dispose()
                raise StoreError(f"cannot open the run store {self.display_url}: {err}") from None

    def _engine(self) -> Engine:
        try:
            engine = sa.create_engine(self.url)
        except (ImportError, SQLAlchemyError) as err:
            hint = " (install the 'postgres' extra)" if "psycopg" in str(err) else ""
            raise StoreError(f"cannot open the run store {self.display_url}: {err}{hint}") from None
        if engine.dialect.name == "sqlite":
            listener = _sqlite_query_only if self.readonly else _sqlite_pragmas
            sa.event.listen(engine, "connect", listener)
            if not self.readonly:
                sa.event.listen(engine, "begin", _sqlite_begin)
        return engine

    def _check_schema(self) -> None:
        head = head_revision()
        with self.engine.connect() as conn:
            current = MigrationContext.configure(conn).get_current_revision()
        if current == head:
            return
        if self.readonly:
            raise StoreError(
                f"the run store {self.display_url} is at schema revision {current or 'none'}, "
                f"this assay expects {head}: run `assay runs list --store URL` once to upgrade it"
            )
        # another process may be creating or migrating the same store: under SQLite that waits
        # for its lock (``_sqlite_begin``); elsewhere a failed attempt is retried
        # while the schema is still behind the head
        for attempt in range(WRITE_ATTEMPTS):
            try:
                self.upgrade()
                return
            except SQLAlchemyError:
                if self.revision() == head:
                    return
                if attempt == WRITE_ATTEMPTS - 1:
                    raise
                time.sleep(0.05 * 2**attempt)

    def upgrade(self, revision: str = "head") -> None:
        """Migrate the schema to ``revision`` in one (writing) transaction."""
        with self._writing() as conn:
            command.upgrade(migrations_config(conn), revision)

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A connection in a transaction that holds the write lock from its start (SQLite)."""
        options = {_WRITE_OPTION: True}
        with self.engine.connect().execution_options(**options) as conn, conn.begin():
            yield conn

    def revision(self) -> str | None:
        with self.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, work: Callable[[Connection], T]) -> T:
        """``work(conn)`` in one transaction, retried while the database is busy or locked.

        SQLite already waits for the busy timeout on each attempt; the attempts (with a growing
        pause) cover a writer holding the lock longer than that, and PostgreSQL's deadlocks.
        """
        if self.readonly:
            raise StoreError("this run store is open read-only")
        for attempt in range(WRITE_ATTEMPTS):
            try:
                with self._writing() as conn:
                    return work(conn)
            except SQLAlchemyError as err:
                if not _is_busy(err) or attempt == WRITE_ATTEMPTS - 1:
                    raise StoreError(f"run store {self.display_url}: write failed: {err}") from None
                time.sleep(0.05 * 2**attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    # -- writes ---------------------------------------------------------------------------

    def add(self, run: Run, *, stored_at: str | None = None) -> AddResult:
        """Record ``run`` (replacing a stored run with the same id) in one transaction."""
        replaced = self._write(lambda conn: insert_run(conn, run, stored_at=stored_at))
        return AddResult(run.run_id, replaced)

    def remove(self, ref: str) -> str:
        """Delete a stored run (by id or unique prefix); returns its full id."""
        run_id = self.resolve(ref)

        def delete(conn: Connection) -> None:
            for table in (run_item_chunks, run_payloads, run_metrics, runs):
                conn.execute(sa.delete(table).where(table.c.run_id == run_id))

        self._write(delete)
        return run_id

    # -- reads ----------------------------------------------------------------------------

    def resolve(self, ref: str) -> str:
        """The full id of the stored run ``ref`` names (an id or a unique prefix of one)."""
        ref = ref.strip()
        if not ref:
            raise UsageError("empty run id")
        with self.engine.connect() as conn:
            exact = conn.execute(sa.select(runs.c.run_id).where(runs.c.run_id == ref)).first()
            if exact is not None:
                return str(exact.run_id)
            escaped = ref.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            found = [
                str(r.run_id)
                for r in conn.execute(
                    sa.select(runs.c.run_id)
                    .where(runs.c.run_id.like(escaped + "%", escape="\\"))
                    .limit(6)
                )
            ]
        if not found:
            raise InputError(f"no stored run {ref!r} in {self.display_url}")
        if len(found) > 1:
            raise UsageError(f"run id prefix {ref!r} is ambiguous: {', '.join(found[:5])}")
        return found[0]

    def has(self, ref: str) -> bool:
        try:
            self.resolve(ref)
        except (InputError, UsageError):
            return False
        return True

    def get(self, ref: str, *, light: bool = False) -> Run:
        """The stored run, byte-identical (``to_json``) to the one recorded.

        ``light`` leaves out the statistics and items (the scorecard, summaries and cohort
        only): what a run page needs besides :meth:`item_page`.
        """
        run_id = self.resolve(ref)
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(run_payloads).where(run_payloads.c.run_id == run_id)
            ).first()
            if row is None:
                raise InputError(f"stored run {run_id} has no payload in {self.display_url}")
            if light:
                return decode_run(row.envelope, None, None, encoding=row.encoding)
            chunks = [
                r.records
                for r in conn.execute(
                    sa.select(run_item_chunks.c.records)
                    .where(run_item_chunks.c.run_id == run_id)
                    .order_by(run_item_chunks.c.chunk)
                )
            ]
        stats = decode_stats(row.stats_ids, row.stats_columns, row.stats_values)
        items = original_order(decode_items(chunks), row.item_order)
        return decode_run(row.envelope, stats, items, encoding=row.encoding)

    def item_page(
        self, ref: str, offset: int = 0, limit: int = CHUNK
    ) -> tuple[list[ItemRecord], int]:
        """Items ``offset`` .. ``offset + limit`` in drill-down order (worst first), and the
        number of items; reads only the chunks that hold them (none for ``limit`` 0)."""
        run_id = self.resolve(ref)
        first, last = offset // CHUNK, max(offset, offset + limit - 1) // CHUNK
        with self.engine.connect() as conn:
            n = conn.execute(
                sa.select(run_payloads.c.n_items).where(run_payloads.c.run_id == run_id)
            ).scalar_one_or_none()
            if n is None:
                raise InputError(f"stored run {run_id} has no payload in {self.display_url}")
            if limit <= 0:
                return [], int(n)  # the count alone
            chunks = [
                r.records
                for r in conn.execute(
                    sa.select(run_item_chunks.c.records)
                    .where(
                        run_item_chunks.c.run_id == run_id,
                        run_item_chunks.c.chunk >= first,
                        run_item_chunks.c.chunk <= last,
                    )
                    .order_by(run_item_chunks.c.chunk)
                )
            ]
        ranked = decode_items(chunks)
        start = offset - first * CHUNK
        return item_records(ranked[start : start + limit]), int(n)

    def get_stats(self, ref: str) -> dict[str, Any]:
        """Only the per-item statistics (ids, columns, float64 matrix) of a stored run."""
        run_id = self.resolve(ref)
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(
                    run_payloads.c.stats_ids,
                    run_payloads.c.stats_columns,
                    run_payloads.c.stats_values,
                ).where(run_payloads.c.run_id == run_id)
            ).first()
        if row is None:
            raise InputError(f"stored run {run_id} has no payload in {self.display_url}")
        return decode_stats(row.stats_ids, row.stats_columns, row.stats_values)

    def _filters(
        self, task: str | None, surface: str | None, name: str | None
    ) -> list[sa.ColumnElement[bool]]:
        where: list[sa.ColumnElement[bool]] = []
        if task:
            where.append(runs.c.task == task)
        if surface:
            escaped = surface.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            where.append(runs.c.surface_fingerprint.like(escaped + "%", escape="\\"))
        if name:
            escaped = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            where.append(runs.c.name.like("%" + escaped + "%", escape="\\"))
        return where

    def count_runs(
        self, *, task: str | None = None, surface: str | None = None, name: str | None = None
    ) -> int:
        query = sa.select(sa.func.count()).select_from(runs)
        for cond in self._filters(task, surface, name):
            query = query.where(cond)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def list_runs(
        self,
        *,
        task: str | None = None,
        surface: str | None = None,
        name: str | None = None,
        run_ids: Sequence[str] | None = None,
        limit: int | None = 100,
        offset: int = 0,
    ) -> list[RunSummary]:
        """Stored runs, newest first, with their headline metrics; filters combine with AND."""
        query = sa.select(runs).order_by(runs.c.stored_at.desc(), runs.c.run_id)
        for cond in self._filters(task, surface, name):
            query = query.where(cond)
        if run_ids is not None:
            query = query.where(runs.c.run_id.in_(list(run_ids)))
        if limit is not None:
            query = query.limit(limit).offset(offset)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            ids = [r.run_id for r in rows]
            headline: dict[str, list[MetricRow]] = {i: [] for i in ids}
            if ids:
                metric_rows = conn.execute(
                    sa.select(run_metrics)
                    .where(run_metrics.c.run_id.in_(ids), run_metrics.c.tier == "headline")
                    .order_by(run_metrics.c.run_id, run_metrics.c.name)
                ).all()
                for m in metric_rows:
                    headline[m.run_id].append(_metric_row(m))
        return [
            RunSummary(
                run_id=r.run_id,
                task=r.task,
                name=r.name,
                generated_at=r.generated_at,
                stored_at=r.stored_at,
                metrics_version=r.metrics_version,
                surface_fingerprint=r.surface_fingerprint,
                surface_seed=r.surface_seed,
                n_items=r.surface_n_items,
                n_attempted=r.n_attempted,
                n_evaluated=r.n_evaluated,
                n_missing=r.n_missing,
                n_failed=r.n_failed,
                n_unmatched=r.n_unmatched,
                n_warnings=r.n_warnings,
                git_commit=r.git_commit,
                headline=tuple(headline[r.run_id]),
            )
            for r in rows
        ]

    def summary(self, ref: str) -> RunSummary:
        run_id = self.resolve(ref)
        return self.list_runs(run_ids=[run_id], limit=None)[0]

    def metrics(self, ref: str) -> list[MetricRow]:
        run_id = self.resolve(ref)
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(run_metrics)
                .where(run_metrics.c.run_id == run_id)
                .order_by(run_metrics.c.name)
            ).all()
        return [_metric_row(r) for r in rows]

    def metric_order(self, ref: str) -> list[str]:
        """A run's metric names in its own order — its suite's: the primary metric first,
        then the other headline metrics as the suite lists them — read from the light
        payload (``run_metrics`` rows carry no position)."""
        return list(self.get(ref, light=True).metrics)

    def in_suite_order(self, rows: Sequence[RunSummary]) -> list[RunSummary]:
        """``rows`` with each one's headline metrics in its suite's order (one light payload
        per task on the page, not per row; names the run does not list go last, by name)."""
        orders: dict[str, dict[str, int]] = {}
        out = []
        for s in rows:
            if s.task not in orders:
                orders[s.task] = {n: i for i, n in enumerate(self.metric_order(s.run_id))}
            rank = orders[s.task]
            heads = sorted(s.headline, key=lambda m: (rank.get(m.name, len(rank)), m.name))
            out.append(replace(s, headline=tuple(heads)))
        return out

    def surface_runs(self) -> dict[str, tuple[str, str, int]]:
        """Per surface fingerprint: its newest run's id, its task and how many different
        gold files (by digest) its runs read — one when the gold is a file of its own, one
        per system when each system's file carries the gold (translation JSON)."""
        query = sa.select(
            runs.c.surface_fingerprint, runs.c.run_id, runs.c.task, runs.c.gold_sha256
        ).order_by(runs.c.stored_at.desc(), runs.c.run_id)
        out: dict[str, tuple[str, str, int]] = {}
        golds: dict[str, set[str]] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(query):
                out.setdefault(r.surface_fingerprint, (r.run_id, r.task, 0))
                golds.setdefault(r.surface_fingerprint, set()).add(r.gold_sha256)
        return {fp: (rid, task, len(golds[fp])) for fp, (rid, task, _) in out.items()}

    def tasks(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(runs.c.task).distinct().order_by(runs.c.task)).all()
        return [str(r.task) for r in rows]

    def surfaces(self, *, task: str | None = None) -> list[tuple[str, str, int, int, int]]:
        """(task, fingerprint, seed, n_items, number of runs) per surface, most runs first."""
        query = (
            sa.select(
                runs.c.task,
                runs.c.surface_fingerprint,
                runs.c.surface_seed,
                runs.c.surface_n_items,
                sa.func.count().label("n_runs"),
            )
            .group_by(
                runs.c.task,
                runs.c.surface_fingerprint,
                runs.c.surface_seed,
                runs.c.surface_n_items,
            )
            .order_by(sa.func.count().desc(), runs.c.surface_fingerprint)
        )
        if task:
            query = query.where(runs.c.task == task)
        with self.engine.connect() as conn:
            return [
                (r.task, r.surface_fingerprint, r.surface_seed, r.surface_n_items, r.n_runs)
                for r in conn.execute(query)
            ]

    def history(self, surface: str, metric: str) -> list[HistoryPoint]:
        """A metric's value over time on one surface (oldest first)."""
        query = (
            sa.select(
                runs.c.run_id,
                runs.c.name,
                runs.c.stored_at,
                runs.c.generated_at,
                run_metrics.c.value,
                run_metrics.c.ci_lower,
                run_metrics.c.ci_upper,
                run_metrics.c.n,
            )
            .join(run_metrics, run_metrics.c.run_id == runs.c.run_id)
            .where(runs.c.surface_fingerprint == surface, run_metrics.c.name == metric)
            .order_by(runs.c.stored_at, runs.c.run_id)
        )
        with self.engine.connect() as conn:
            return [
                HistoryPoint(
                    run_id=r.run_id,
                    name=r.name,
                    stored_at=r.stored_at,
                    generated_at=r.generated_at,
                    value=r.value,
                    ci_lower=r.ci_lower,
                    ci_upper=r.ci_upper,
                    n=r.n,
                )
                for r in conn.execute(query)
            ]

    def metric_names(self, surface: str, *, tier: str | None = None) -> list[str]:
        query = (
            sa.select(run_metrics.c.name)
            .join(runs, run_metrics.c.run_id == runs.c.run_id)
            .where(runs.c.surface_fingerprint == surface)
            .distinct()
            .order_by(run_metrics.c.name)
        )
        if tier:
            query = query.where(run_metrics.c.tier == tier)
        with self.engine.connect() as conn:
            return [str(r.name) for r in conn.execute(query)]

    def run_cards(self, *, task: str | None = None) -> list[dict[str, Any]]:
        """Rows of the run_cards view (seed 001's MT columns), newest first."""
        query = "SELECT * FROM run_cards"
        params: dict[str, Any] = {}
        if task:
            query += " WHERE task = :task"
            params["task"] = task
        query += " ORDER BY stored_at DESC, run_id"
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(sa.text(query), params)]


def open_store(url: str | None = None, *, readonly: bool = False) -> RunStore:
    """Open (and, for writing, create or migrate) the run store."""
    return RunStore(url, readonly=readonly)
