"""Fixtures for the real back ends: a SQLite file under ``tmp_path``, and a fresh
PostgreSQL schema per test on the server named by ``KINGMAKER_TEST_PG``. When that
server cannot be reached the PostgreSQL tests are skipped, with the reason, unless
``KINGMAKER_REQUIRE_PG`` is set (CI sets it): then they fail."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

PG_URL = os.environ.get("KINGMAKER_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
#: Set (to anything but "" or "0"): a PostgreSQL server that cannot be reached fails the
#: PostgreSQL tests instead of skipping them.
REQUIRE_PG = "KINGMAKER_REQUIRE_PG"

_reachable: dict[str, str | None] = {}


def postgres_problem() -> str | None:
    """Why the test server cannot be used (None: it can)."""
    if PG_URL not in _reachable:
        engine = sa.create_engine(
            make_url(PG_URL).set(drivername="postgresql+psycopg"),
            poolclass=sa.NullPool,
            connect_args={"connect_timeout": 3},
        )
        try:
            with engine.connect() as conn:
                conn.exec_driver_sql("SELECT 1")
            _reachable[PG_URL] = None
        except Exception as e:  # any failure to connect means: skip (or fail, see REQUIRE_PG)
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            _reachable[PG_URL] = (
                f"PostgreSQL at {make_url(PG_URL).render_as_string()} cannot be reached: {first}"
            )
        finally:
            engine.dispose()
    return _reachable[PG_URL]


def postgres_required() -> bool:
    return os.environ.get(REQUIRE_PG, "") not in ("", "0")


def need_postgres() -> None:
    """Skip the calling test when the test server cannot be reached, or fail it when
    ``KINGMAKER_REQUIRE_PG`` is set."""
    problem = postgres_problem()
    if problem is None:
        return
    if postgres_required():
        pytest.fail(f"{problem} ({REQUIRE_PG} is set, so this fails instead of skipping)", pytrace=False)
    pytest.skip(f"{problem}; set {REQUIRE_PG}=1 to make this a failure")


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A fresh, empty schema on the test server; yields a URL whose connections use it
    (``search_path`` set at connect). The schema is dropped afterwards."""
    need_postgres()
    base = make_url(PG_URL).set(drivername="postgresql+psycopg")
    name = f"kmtest_{secrets.token_hex(6)}"
    admin = sa.create_engine(base, poolclass=sa.NullPool)
    try:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{name}"')
        yield base.update_query_dict({"options": f"-csearch_path={name}"}).render_as_string(
            hide_password=False
        )
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        admin.dispose()


@pytest.fixture
def pg_url() -> Iterator[str]:
    with postgres_schema() as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def any_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each real back end in turn."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
    else:
        with postgres_schema() as url:
            yield url
