"""The initial schema: games, events, snapshots, idempotency keys, seats.

Revision ID: 0001
Revises:
Create Date: 2026-11-30

The tables are spelled out here (not imported from ``schema.py``) so this migration
keeps creating the same schema whatever later versions of the code say.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(JSONB(), "postgresql")
NULLABLE_JSON = sa.JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("created_at", sa.String(), nullable=False),
        sa.Column("factions", JSON, nullable=False),
        sa.Column("data_set", sa.String(), nullable=False),
        sa.Column("board", JSON, nullable=False),
        sa.Column("catalog", JSON, nullable=False),
        sa.Column("seed", sa.String(), nullable=False),
        sa.Column("commitment", sa.String(), nullable=False),
        sa.Column("settings", JSON, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    )
    op.create_table(
        "events",
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("turn", sa.String(), nullable=False),
        sa.Column("actor", sa.String(), nullable=False),
        sa.Column("rule", sa.String(), nullable=True),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("v", sa.Integer(), nullable=False),
        sa.Column("command", sa.String(), nullable=True),
        sa.Column("recorded_at", sa.String(), nullable=False),
        sa.Column("payload", JSON, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_events_game_id"),
        sa.PrimaryKeyConstraint("game_id", "seq", name="pk_events"),
    )
    op.create_table(
        "snapshots",
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("state", JSON, nullable=False),
        sa.Column("state_hash", sa.String(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_snapshots_game_id"),
        sa.PrimaryKeyConstraint("game_id", "seq", name="pk_snapshots"),
    )
    op.create_table(
        "idempotency",
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("first_seq", sa.Integer(), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.Column("response", NULLABLE_JSON, nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_idempotency_game_id"),
        sa.PrimaryKeyConstraint("game_id", "key", name="pk_idempotency"),
    )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("faction", sa.String(), nullable=False),
        sa.Column("player", sa.String(), nullable=False),
        sa.Column("token_hash", sa.String(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_seats_game_id"),
        sa.PrimaryKeyConstraint("game_id", "faction", name="pk_seats"),
        sa.UniqueConstraint("token_hash", name="uq_seats_token_hash"),
    )


def downgrade() -> None:
    for table in ("seats", "idempotency", "snapshots", "events", "games"):
        op.drop_table(table)
