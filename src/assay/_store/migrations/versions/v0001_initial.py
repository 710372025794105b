"""The first run-store schema: runs, run_metrics, run_payloads, run_item_chunks and the
run_cards view.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None

RUN_CARDS_V1 = """
CREATE VIEW run_cards AS
SELECT r.run_id, r.task, r.name, r.generated_at, r.stored_at, r.surface_fingerprint,
       r.surface_seed, r.surface_n_items AS n_items,
       COALESCE(em.value, em2.value) AS exact_match,
       chrf.value AS chrf
FROM runs r
LEFT JOIN run_metrics em ON em.run_id = r.run_id AND em.name = 'exact_match_rate'
LEFT JOIN run_metrics em2 ON em2.run_id = r.run_id AND em2.name = 'exact_match'
LEFT JOIN run_metrics chrf ON chrf.run_id = r.run_id AND chrf.name = 'corpus_chrf'
"""


def upgrade() -> None:
    op.create_table(
        "runs",
        sa.Column("run_id", sa.String(64), primary_key=True),
        sa.Column("task", sa.String(64), nullable=False),
        sa.Column("name", sa.String(255), nullable=False),
        sa.Column("generated_at", sa.String(40), nullable=False),
        sa.Column("stored_at", sa.String(40), nullable=False),
        sa.Column("metrics_version", sa.Integer, nullable=False),
        sa.Column("assay_version", sa.String(32), nullable=False),
        sa.Column("artifact_schema", sa.Integer, nullable=False),
        sa.Column("surface_fingerprint", sa.String(64), nullable=False),
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
    op.create_index("ix_runs_task", "runs", ["task"])
    op.create_index("ix_runs_name", "runs", ["name"])
    op.create_index("ix_runs_stored_at", "runs", ["stored_at"])
    op.create_index("ix_runs_surface_fingerprint", "runs", ["surface_fingerprint"])
    op.create_table(
        "run_metrics",
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
    )
    op.create_index("ix_run_metrics_name_tier", "run_metrics", ["name", "tier"])
    op.create_table(
        "run_payloads",
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
    op.create_table(
        "run_item_chunks",
        sa.Column(
            "run_id",
            sa.String(64),
            sa.ForeignKey("runs.run_id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("chunk", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("records", sa.LargeBinary, nullable=False),
    )
    op.execute(RUN_CARDS_V1)


def downgrade() -> None:
    op.execute("DROP VIEW IF EXISTS run_cards")
    op.drop_table("run_item_chunks")
    op.drop_table("run_payloads")
    op.drop_table("run_metrics")
    op.drop_table("runs")
