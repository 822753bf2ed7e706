"""Notifications: a seat's e-mail address, the outbox, the queueing cursors, and each
game's webhook and reminder settings (``docs/notifications.md``).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

Spelled out here (not imported from ``schema.py``), like 0001 and 0002.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NULLABLE_JSON = sa.JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")


def upgrade() -> None:
    op.add_column("seats", sa.Column("email", sa.String(), nullable=True))
    op.add_column("seats", sa.Column("email_since", sa.Integer(), nullable=False, server_default="0"))
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("channel", sa.String(), nullable=False),
        sa.Column("faction", sa.String(), nullable=True),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("ref", sa.String(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("dedup", sa.String(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.String(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("next_attempt_at", sa.Float(), nullable=False),
        sa.Column("claimed_until", sa.Float(), nullable=True),
        sa.Column("sent_at", sa.Float(), nullable=True),
        sa.Column("address", sa.String(), nullable=True),
        sa.Column("subject", sa.String(), nullable=True),
        sa.Column("body", sa.Text(), nullable=True),
        sa.Column("detail", NULLABLE_JSON, nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_outbox_game_id"),
        sa.PrimaryKeyConstraint("id", name="pk_outbox"),
        sa.UniqueConstraint("dedup", name="uq_outbox_dedup"),
    )
    op.create_index("ix_outbox_game_id", "outbox", ["game_id"])
    op.create_index("ix_outbox_due", "outbox", ["status", "next_attempt_at"])
    op.create_table(
        "notify_cursors",
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_notify_cursors_game_id"),
        sa.PrimaryKeyConstraint("game_id", name="pk_notify_cursors"),
    )
    op.create_table(
        "game_notify",
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("webhook_url", sa.String(), nullable=True),
        sa.Column("webhook_secret", sa.String(), nullable=True),
        sa.Column("webhook_format", sa.String(), nullable=False),
        sa.Column("webhook_since", sa.Integer(), nullable=False),
        sa.Column("remind_hours", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_notify_game_id"),
        sa.PrimaryKeyConstraint("game_id", name="pk_game_notify"),
    )


def downgrade() -> None:
    for table in ("game_notify", "notify_cursors"):
        op.drop_table(table)
    op.drop_index("ix_outbox_due", table_name="outbox")
    op.drop_index("ix_outbox_game_id", table_name="outbox")
    op.drop_table("outbox")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("email_since")
        batch.drop_column("email")
