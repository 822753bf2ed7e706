"""``open_store(url)``: which URLs name which back end, and clear errors for the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingmaker.storage import SqlStore, StoreError, open_store
from kingmaker.storage.engines import database_url
from tests.storage.contract import _initial, record


@pytest.mark.parametrize(
    ("url", "driver"),
    [
        ("postgresql://u@db.example:5432/games", "postgresql+psycopg"),
        ("postgres://u@db.example/games", "postgresql+psycopg"),
        ("postgresql+psycopg://u@db.example/games", "postgresql+psycopg"),
        ("sqlite:///games.db", "sqlite"),
        ("sqlite+pysqlite:///games.db", "sqlite"),
        ("games.db", "sqlite"),
    ],
)
def test_urls_are_normalised(url: str, driver: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert database_url(url).drivername == driver


def test_a_bare_path_is_a_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "my games.db"
    with open_store(str(path)) as store:
        assert isinstance(store, SqlStore) and store.backend == "sqlite"
        store.create_game(record(), _initial())
    assert path.is_file()
    with open_store(f"sqlite:///{path}") as store:
        assert store.head("g1") == 0


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("", "no database given"),
        ("   ", "no database given"),
        ("mysql://u@host/games", "unsupported database 'mysql'"),
        ("postgresql+asyncpg://u@host/games", "driver 'asyncpg' is not supported"),
        ("postgresql+psycopg2://u@host/games", "driver 'psycopg2' is not supported"),
        ("postgresql://u@host", "no database name"),
        ("sqlite+aiosqlite:///x.db", "driver 'aiosqlite' is not supported"),
        ("sqlite://", "needs a file path"),
        ("sqlite:///:memory:", "needs a file path"),
        ("sqlite:////no/such/directory/games.db", "directory '/no/such/directory' does not exist"),
        ("://nothing", "not a database URL"),
        ("sqlite:///games.db?timeout=soon", "not a number of seconds"),
        ("sqlite:///games.db?timeout=-1", "not a number of seconds"),
    ],
)
def test_bad_urls_say_what_is_wrong(url: str, message: str) -> None:
    with pytest.raises(StoreError, match=message):
        open_store(url)


def test_a_directory_is_not_a_database(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        open_store(str(tmp_path))


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are not the tables you are looking for" * 100)
    with pytest.raises(StoreError, match="not a database"):
        open_store(str(path))


def test_an_unreachable_server_is_a_store_error_without_the_password() -> None:
    with pytest.raises(StoreError) as info:
        open_store("postgresql://kingmaker:s3cret@127.0.0.1:1/games")
    text = str(info.value)
    assert text.startswith("cannot open postgresql+psycopg://kingmaker:***@127.0.0.1:1/games")
    assert "s3cret" not in text
