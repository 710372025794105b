"""Seed 001's run-store migration: MT columns on run_cards (comet_score, corpus_bleu,
chrf_ci_lower/upper, exact_match_ci_lower/upper), nullable, filled from run_metrics.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None

RUN_CARDS_V2 = """
CREATE VIEW run_cards AS
SELECT r.run_id, r.task, r.name, r.generated_at, r.stored_at, r.surface_fingerprint,
       r.surface_seed, r.surface_n_items AS n_items,
       COALESCE(em.value, em2.value) AS exact_match,
       chrf.value AS chrf,
       COALESCE(comet.value, comet2.value) AS comet_score,
       bleu.value AS corpus_bleu,
       chrf.ci_lower AS chrf_ci_lower,
       chrf.ci_upper AS chrf_ci_upper,
       COALESCE(em.ci_lower, em2.ci_lower) AS exact_match_ci_lower,
       COALESCE(em.ci_upper, em2.ci_upper) AS exact_match_ci_upper
FROM runs r
LEFT JOIN run_metrics em ON em.run_id = r.run_id AND em.name = 'exact_match_rate'
LEFT JOIN run_metrics em2 ON em2.run_id = r.run_id AND em2.name = 'exact_match'
LEFT JOIN run_metrics chrf ON chrf.run_id = r.run_id AND chrf.name = 'corpus_chrf'
LEFT JOIN run_metrics comet ON comet.run_id = r.run_id AND comet.name = 'comet'
LEFT JOIN run_metrics comet2 ON comet2.run_id = r.run_id AND comet2.name = 'comet_score'
LEFT JOIN run_metrics bleu ON bleu.run_id = r.run_id AND bleu.name = 'corpus_bleu'
"""


def upgrade() -> None:
    op.execute("DROP VIEW IF EXISTS run_cards")
    op.execute(RUN_CARDS_V2)


def downgrade() -> None:
    from assay._store.migrations.versions.v0001_initial import RUN_CARDS_V1

    op.execute("DROP VIEW IF EXISTS run_cards")
    op.execute(RUN_CARDS_V1)
