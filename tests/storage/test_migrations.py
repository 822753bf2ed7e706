"""Alembic migrations on both back ends: from empty to head, idempotent, the same
schema as ``schema.py``, safe when several processes open a new database at once."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from kingmaker.storage import SqlStore, StoreError, open_store
from kingmaker.storage.engines import database_url, make_engine
from kingmaker.storage.migrate import (
    alembic_config,
    current_revision,
    head_revision,
    migration_transaction,
    upgrade,
)
from kingmaker.storage.schema import metadata
from tests.storage.contract import _initial, envs, record

ROOT = Path(__file__).resolve().parents[2]
TABLES = {"games", "events", "snapshots", "idempotency", "seats"}
WEB_TABLES = {"web_counters", "rate_limits", "web_sessions", "web_credentials"}  # 0002
NOTIFY_TABLES = {"outbox", "notify_cursors", "game_notify"}  # 0003


def _schema(engine: sa.Engine) -> dict[str, Any]:
    """What the database's tables look like (columns, keys, constraints)."""
    inspector = sa.inspect(engine)
    out: dict[str, Any] = {}
    for table in sorted(inspector.get_table_names()):
        out[table] = (
            [(c["name"], str(c["type"]), c["nullable"]) for c in inspector.get_columns(table)],
            inspector.get_pk_constraint(table)["constrained_columns"],
            sorted(
                (fk["constrained_columns"][0], fk["referred_table"])
                for fk in inspector.get_foreign_keys(table)
            ),
            sorted(tuple(u["column_names"]) for u in inspector.get_unique_constraints(table)),
        )
    return out


def test_upgrade_from_empty_to_head_and_again_is_a_no_op(any_url: str) -> None:
    engine = make_engine(database_url(any_url))
    try:
        assert current_revision(engine) is None
        assert not TABLES & set(sa.inspect(engine).get_table_names())
        upgrade(engine)
        assert current_revision(engine) == head_revision() == "0003"
        assert set(sa.inspect(engine).get_table_names()) == (
            TABLES | WEB_TABLES | NOTIFY_TABLES | {"alembic_version"}
        )
        before = _schema(engine)
        assert before["events"][1] == ["game_id", "seq"]
        assert before["seats"][3] == [("token_hash",)]
        with open_store(any_url) as store:  # opening migrates again: a no-op
            store.create_game(record(), _initial())
            store.append("g1", 0, envs(1, 3))
        upgrade(engine)
        assert current_revision(engine) == "0003"
        assert _schema(engine) == before
        with open_store(any_url) as store:
            assert store.head("g1") == 3
    finally:
        engine.dispose()


def test_the_migrated_schema_is_the_one_schema_py_describes(any_url: str) -> None:
    engine = make_engine(database_url(any_url))
    try:
        upgrade(engine)
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata)
        assert diff == []
    finally:
        engine.dispose()


def test_downgrade_to_empty_and_back(any_url: str) -> None:
    engine = make_engine(database_url(any_url))
    try:
        upgrade(engine)
        with engine.connect() as conn, migration_transaction(conn):
            command.downgrade(alembic_config(conn), "base")
        assert not (TABLES | WEB_TABLES | NOTIFY_TABLES) & set(sa.inspect(engine).get_table_names())
        upgrade(engine)
        assert set(sa.inspect(engine).get_table_names()) >= TABLES | WEB_TABLES | NOTIFY_TABLES
    finally:
        engine.dispose()


def test_the_alembic_command_line_migrates_the_same_way(any_url: str) -> None:
    ini = ROOT / "src" / "kingmaker" / "storage" / "alembic.ini"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}

    def alembic(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "alembic", "-c", str(ini), "-x", f"url={any_url}", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout + done.stderr

    alembic("upgrade", "head")
    assert "0003 (head)" in alembic("current")
    alembic("upgrade", "head")
    with open_store(any_url) as store:
        store.create_game(record(), _initial())


def test_a_database_from_a_newer_program_is_refused(any_url: str) -> None:
    with open_store(any_url):
        pass
    engine = make_engine(database_url(any_url))
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))
    finally:
        engine.dispose()
    with pytest.raises(StoreError, match=r"9999.*newer version"):
        open_store(any_url)


def test_processes_opening_a_new_database_at_once_migrate_it_once(any_url: str) -> None:
    script = "import sys\nfrom kingmaker.storage import open_store\nopen_store(sys.argv[1]).close()\n"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    procs = [
        subprocess.Popen([sys.executable, "-c", script, any_url], env=env, stderr=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    errors = [p.communicate(timeout=600)[1] for p in procs]  # only a hang reaches this
    assert [p.returncode for p in procs] == [0, 0, 0, 0], errors
    with open_store(any_url) as store:
        store.create_game(record(), _initial())


def test_threads_opening_a_new_database_at_once_migrate_it_once(any_url: str) -> None:
    failures: list[BaseException] = []

    def open_it() -> None:
        try:
            open_store(any_url).close()
        except BaseException as e:
            failures.append(e)

    threads = [threading.Thread(target=open_it) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert failures == []


def test_a_database_at_0001_upgrades_to_the_web_tables_keeping_its_games(any_url: str) -> None:
    engine = make_engine(database_url(any_url))
    try:
        upgrade(engine, "0001")
        store = SqlStore(engine)
        store.create_game(record(), _initial())
        store.append("g1", 0, envs(1, 2))
        assert not WEB_TABLES & set(sa.inspect(engine).get_table_names())
        upgrade(engine, "0002")
        assert current_revision(engine) == "0002"
        assert set(sa.inspect(engine).get_table_names()) >= WEB_TABLES
        assert store.head("g1") == 2
    finally:
        engine.dispose()


def test_a_database_at_0002_upgrades_to_the_notifications_keeping_its_seats(any_url: str) -> None:
    engine = make_engine(database_url(any_url))
    try:
        upgrade(engine, "0002")
        with engine.begin() as conn:  # a game and a seat as 0002 stored them
            conn.execute(
                sa.text(
                    "INSERT INTO games (id, name, created_at, factions, data_set, board, catalog, seed,"
                    " commitment, settings) VALUES ('g1', 'G', '2026-12-01T00:00:00Z', '[\"red\"]', 'tiny',"
                    " '{}', '{}', 's', 'c', '{}')"
                )
            )
            conn.execute(sa.text("INSERT INTO seats VALUES ('g1', 'red', 'Alice', 'h1')"))
        assert not NOTIFY_TABLES & set(sa.inspect(engine).get_table_names())
        upgrade(engine)
        assert current_revision(engine) == "0003"
        assert set(sa.inspect(engine).get_table_names()) >= NOTIFY_TABLES
        store = SqlStore(engine)
        assert [(s.faction, s.player, s.email, s.email_since) for s in store.seats("g1")] == [
            ("red", "Alice", None, 0)
        ]
        assert store.set_email("g1", "red", "alice@example.org")
        assert store.seats("g1")[0].email == "alice@example.org"
        with engine.connect() as conn, migration_transaction(conn):  # and back: the columns go
            command.downgrade(alembic_config(conn), "0002")
        assert "email" not in {c["name"] for c in sa.inspect(engine).get_columns("seats")}
        assert not NOTIFY_TABLES & set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()
