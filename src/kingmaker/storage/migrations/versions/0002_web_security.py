"""The web app's security state: login counters, player rate limits, GM sessions, the
GM password's hash.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

Spelled out here (not imported from ``schema.py``), like 0001.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "web_counters",
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("touched_at", sa.Float(), nullable=False),
        sa.Column("locked_until", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_web_counters"),
    )
    op.create_table(
        "rate_limits",
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("period", sa.Integer(), nullable=False),
        sa.Column("used", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_rate_limits"),
    )
    op.create_table(
        "web_sessions",
        sa.Column("id_hash", sa.String(), nullable=False),
        sa.Column("account", sa.String(), nullable=False),
        sa.Column("csrf", sa.String(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id_hash", name="pk_web_sessions"),
    )
    op.create_table(
        "web_credentials",
        sa.Column("account", sa.String(), nullable=False),
        sa.Column("hash", sa.String(), nullable=False),
        sa.Column("changed_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("account", name="pk_web_credentials"),
    )


def downgrade() -> None:
    for table in ("web_credentials", "web_sessions", "rate_limits", "web_counters"):
        op.drop_table(table)
