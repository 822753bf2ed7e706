"""The SQL tables behind ``SqlStore`` (SQLAlchemy Core), shared by SQLite and PostgreSQL.

This module describes the schema the code expects. The database itself is created and
upgraded only by the Alembic migrations in ``migrations/versions``; a test checks that
the migrated database and these tables agree.

- ``games``: one row per game (the ``GameRecord``).
- ``events``: the append-only log. ``payload`` is the whole envelope
  (``envelope_to_data``) and is what is read back; the other columns copy a few of its
  fields so the log can be queried. The primary key ``(game_id, seq)`` is what makes a
  stale append fail in the database itself.
- ``snapshots``: cached states, ``(game_id, seq)``; seq 0 is the initial state.
- ``idempotency``: one row per idempotency key, written in the same transaction as the
  events it stands for.
- ``seats``: who plays which faction; ``token_hash`` is unique across all games; the
  player's e-mail address, if the GM gave one, and the entry it counts from.

The web app's security state (``websec.py``), shared by every server process:

- ``web_counters``: failed-login counters and locks, known clients, per key;
- ``rate_limits``: requests per player token in the current minute;
- ``web_sessions``: GM sessions, by the SHA-256 of their random id;
- ``web_credentials``: the scrypt hash of the GM password (so all processes agree on it
  and a new password ends the old sessions).

Notifications (``outbox.py``, migration 0003; ``docs/notifications.md``):

- ``outbox``: one row per message per recipient (an e-mail to a seat, or the game's
  webhook), unique by ``dedup``; its status, attempts, last error and next attempt;
- ``notify_cursors``: per game, the last log entry the queueing has read;
- ``game_notify``: per game, the webhook (URL, signing secret, format) and the hours
  before a deadline at which a reminder is sent.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB

#: JSON everywhere; JSONB on PostgreSQL (queryable, indexable).
Json = sa.JSON().with_variant(JSONB(), "postgresql")
#: The same, but Python ``None`` is stored as SQL NULL rather than JSON ``null``.
NullableJson = sa.JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")

metadata = sa.MetaData(
    naming_convention={
        "pk": "pk_%(table_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ix": "ix_%(table_name)s_%(column_0_name)s",
    }
)

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String, primary_key=True),
    sa.Column("name", sa.String, nullable=False),
    sa.Column("created_at", sa.String, nullable=False),
    sa.Column("factions", Json, nullable=False),
    sa.Column("data_set", sa.String, nullable=False),
    sa.Column("board", Json, nullable=False),
    sa.Column("catalog", Json, nullable=False),
    sa.Column("seed", sa.String, nullable=False),
    sa.Column("commitment", sa.String, nullable=False),
    sa.Column("settings", Json, nullable=False),
)

events = sa.Table(
    "events",
    metadata,
    sa.Column("game_id", sa.String, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("turn", sa.String, nullable=False),
    sa.Column("actor", sa.String, nullable=False),
    sa.Column("rule", sa.String, nullable=True),
    sa.Column("kind", sa.String, nullable=False),
    sa.Column("v", sa.Integer, nullable=False),
    sa.Column("command", sa.String, nullable=True),
    sa.Column("recorded_at", sa.String, nullable=False),
    sa.Column("payload", Json, nullable=False),
)

snapshots = sa.Table(
    "snapshots",
    metadata,
    sa.Column("game_id", sa.String, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("state", Json, nullable=False),
    sa.Column("state_hash", sa.String, nullable=False),
)

idempotency = sa.Table(
    "idempotency",
    metadata,
    sa.Column("game_id", sa.String, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("key", sa.String, primary_key=True),
    sa.Column("first_seq", sa.Integer, nullable=False),
    sa.Column("last_seq", sa.Integer, nullable=False),
    sa.Column("response", NullableJson, nullable=True),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.String, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("faction", sa.String, primary_key=True),
    sa.Column("player", sa.String, nullable=False),
    sa.Column("token_hash", sa.String, nullable=False, unique=True),
    sa.Column("email", sa.String, nullable=True),
    sa.Column("email_since", sa.Integer, nullable=False, server_default="0"),
)


# -- the web app's security state (see ``websec.py``) ---------------------------------------

web_counters = sa.Table(
    "web_counters",
    metadata,
    sa.Column("key", sa.String, primary_key=True),
    sa.Column("count", sa.Integer, nullable=False),
    sa.Column("touched_at", sa.Float, nullable=False),
    sa.Column("locked_until", sa.Float, nullable=False),
)

rate_limits = sa.Table(
    "rate_limits",
    metadata,
    sa.Column("key", sa.String, primary_key=True),
    sa.Column("period", sa.Integer, nullable=False),
    sa.Column("used", sa.Integer, nullable=False),
)

web_sessions = sa.Table(
    "web_sessions",
    metadata,
    sa.Column("id_hash", sa.String, primary_key=True),
    sa.Column("account", sa.String, nullable=False),
    sa.Column("csrf", sa.String, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("seen_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

web_credentials = sa.Table(
    "web_credentials",
    metadata,
    sa.Column("account", sa.String, primary_key=True),
    sa.Column("hash", sa.String, nullable=False),
    sa.Column("changed_at", sa.Float, nullable=False),
)


# -- notifications (see ``outbox.py``) ------------------------------------------------------

outbox = sa.Table(
    "outbox",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String, sa.ForeignKey("games.id"), nullable=False, index=True),
    sa.Column("channel", sa.String, nullable=False),  # email | webhook
    sa.Column("faction", sa.String, nullable=True),  # the seat mailed (None: the webhook)
    sa.Column("kind", sa.String, nullable=False),
    sa.Column("ref", sa.String, nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("dedup", sa.String, nullable=False, unique=True),
    sa.Column("status", sa.String, nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("last_error", sa.String, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("next_attempt_at", sa.Float, nullable=False),
    sa.Column("claimed_until", sa.Float, nullable=True),
    sa.Column("sent_at", sa.Float, nullable=True),
    sa.Column("address", sa.String, nullable=True),
    sa.Column("subject", sa.String, nullable=True),
    sa.Column("body", sa.Text, nullable=True),
    sa.Column("detail", NullableJson, nullable=True),
    sa.Index("ix_outbox_due", "status", "next_attempt_at"),
)

notify_cursors = sa.Table(
    "notify_cursors",
    metadata,
    sa.Column("game_id", sa.String, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, nullable=False),
)

game_notify = sa.Table(
    "game_notify",
    metadata,
    sa.Column("game_id", sa.String, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("webhook_url", sa.String, nullable=True),
    sa.Column("webhook_secret", sa.String, nullable=True),
    sa.Column("webhook_format", sa.String, nullable=False),
    sa.Column("webhook_since", sa.Integer, nullable=False),
    sa.Column("remind_hours", sa.Float, nullable=False),
)
