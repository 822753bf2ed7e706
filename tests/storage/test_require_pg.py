"""``KINGMAKER_REQUIRE_PG``: with the switch, a PostgreSQL server that cannot be reached
fails the PostgreSQL tests (so CI cannot pass with them silently skipped); without it,
they are skipped with the reason. Checked by running pytest in a subprocess against a
port where nothing listens, for each way a test reaches PostgreSQL: the ``pg_url``
fixture, the ``any_url`` fixture's PostgreSQL half, and ``postgres_schema()`` called
directly."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import REQUIRE_PG

ROOT = Path(__file__).resolve().parents[2]
TESTS = [
    "tests/storage/test_postgres_store.py::test_two_app_processes_see_each_others_appends",
    "tests/storage/test_concurrency.py::test_an_idempotency_key_retried_concurrently_applies_once[postgresql]",
    "tests/service/test_service_concurrency.py::test_fifty_clients_on_postgres_with_two_app_processes",
]


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A local port bound (so no one else takes it) but not listening: connecting to it
    is refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        yield int(s.getsockname()[1])


def _pytest(port: int, require: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != REQUIRE_PG}
    env["KINGMAKER_TEST_PG"] = f"postgresql+psycopg://postgres@127.0.0.1:{port}/test"
    if require is not None:
        env[REQUIRE_PG] = require
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-rfEs", "-p", "no:cacheprovider", *TESTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_without_the_switch_an_unreachable_server_skips(closed_port: int) -> None:
    done = _pytest(closed_port, None)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(TESTS)} skipped" in done.stdout, done.stdout
    assert "cannot be reached" in done.stdout and f"set {REQUIRE_PG}=1" in done.stdout


@pytest.mark.parametrize("value", ["1", "yes"])
def test_with_the_switch_an_unreachable_server_fails(closed_port: int, value: str) -> None:
    done = _pytest(closed_port, value)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "skipped" not in done.stdout, done.stdout
    # a fixture's failure is reported as an error, the direct call's as a failure
    assert "1 failed, 2 errors" in done.stdout, done.stdout
    assert f"{REQUIRE_PG} is set, so this fails instead of skipping" in done.stdout
    assert f"127.0.0.1:{closed_port}/test cannot be reached" in done.stdout


def test_the_switch_set_to_0_or_empty_is_off(closed_port: int) -> None:
    for value in ("0", ""):
        done = _pytest(closed_port, value)
        assert done.returncode == 0 and f"{len(TESTS)} skipped" in done.stdout, done.stdout
