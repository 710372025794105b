"""The run store's tables, as the latest migration leaves them (SQLAlchemy Core).

``runs`` holds one searchable row per run, ``run_metrics`` one row per metric (for history and
the run_cards view), ``run_payloads`` the compressed artifact (the envelope as JSON, the per-item
statistics as one float64 blob) and ``run_item_chunks`` the item records, worst first, 100 a
row. A paired test needs nothing else.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

runs = sa.Table(
    "runs",
    metadata,
    sa.Column("run_id", sa.String(64), primary_key=True),
    sa.Column("task", sa.String(64), nullable=False, index=True),
    sa.Column("name", sa.String(255), nullable=False, index=True),
    sa.Column("generated_at", sa.String(40), nullable=False),
    sa.Column("stored_at", sa.String(40), nullable=False, index=True),
    sa.Column("metrics_version", sa.Integer, nullable=False),
    sa.Column("assay_version", sa.String(32), nullable=False),
    sa.Column("artifact_schema", sa.Integer, nullable=False),
    sa.Column("surface_fingerprint", sa.String(64), nullable=False, index=True),
    sa.Column("surface_seed", sa.Integer, nullable=False),
    sa.Column("surface_n_items", sa.Integer, nullable=False),
    sa.Column("gold_sha256", sa.String(64), nullable=False),
    sa.Column("predictions_sha256", sa.String(64), nullable=False),
    sa.Column("config_sha256", sa.String(64), nullable=False),
    sa.Column("git_commit", sa.String(80), nullable=True),
    sa.Column("n_attempted", sa.Integer, nullable=False),
    sa.Column("n_evaluated", sa.Integer, nullable=False),
    sa.Column("n_missing", sa.Integer, nullable=False),
    sa.Column("n_failed", sa.Integer, nullable=False),
    sa.Column("n_unmatched", sa.Integer, nullable=False),
    sa.Column("n_abstained", sa.Integer, nullable=False),
    sa.Column("n_warnings", sa.Integer, nullable=False),
)

run_metrics = sa.Table(
    "run_metrics",
    metadata,
    sa.Column(
        "run_id",
        sa.String(64),
        sa.ForeignKey("runs.run_id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("name", sa.String(255), primary_key=True),
    sa.Column("value", sa.Double, nullable=True),
    sa.Column("ci_lower", sa.Double, nullable=True),
    sa.Column("ci_upper", sa.Double, nullable=True),
    sa.Column("n", sa.Integer, nullable=False),
    sa.Column("tier", sa.String(16), nullable=False),
    sa.Column("higher_is_better", sa.Boolean, nullable=False),
    sa.Column("kind", sa.String(64), nullable=False),
    sa.Index("ix_run_metrics_name_tier", "name", "tier"),
)

run_payloads = sa.Table(
    "run_payloads",
    metadata,
    sa.Column(
        "run_id",
        sa.String(64),
        sa.ForeignKey("runs.run_id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("encoding", sa.String(32), nullable=False),
    sa.Column("envelope", sa.LargeBinary, nullable=False),
    sa.Column("stats_ids", sa.LargeBinary, nullable=False),
    sa.Column("stats_columns", sa.Text, nullable=False),
    sa.Column("stats_values", sa.LargeBinary, nullable=False),
    sa.Column("item_order", sa.LargeBinary, nullable=False),
    sa.Column("n_items", sa.Integer, nullable=False),
)

run_item_chunks = sa.Table(
    "run_item_chunks",
    metadata,
    sa.Column(
        "run_id",
        sa.String(64),
        sa.ForeignKey("runs.run_id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("chunk", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("records", sa.LargeBinary, nullable=False),
)

#: the columns of the ``run_cards`` view (seed 001's MT columns included since revision 0002)
RUN_CARD_COLUMNS = (
    "run_id",
    "task",
    "name",
    "generated_at",
    "stored_at",
    "surface_fingerprint",
    "surface_seed",
    "n_items",
    "exact_match",
    "chrf",
    "comet_score",
    "corpus_bleu",
    "chrf_ci_lower",
    "chrf_ci_upper",
    "exact_match_ci_lower",
    "exact_match_ci_upper",
)
