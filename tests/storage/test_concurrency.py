"""Many concurrent writers on one game: 50 clients, 100 appends each (read the head,
append with it as ``expected_seq``, retry on ``ConcurrencyError``) — threads in one
process on SQLite; two OS processes of 25 threads each on PostgreSQL. Afterwards there
are exactly 5000 envelopes, seqs 1..5000, and every client's acknowledged seqs hold its
own envelopes: nothing lost, nothing doubled, and no deadlock (everything finishes
within a timeout). An idempotency key retried concurrently applies once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from kingmaker.storage import AppendResult, ConcurrencyError, SqlStore, open_store
from tests.storage.concurrency_child import run_clients
from tests.storage.contract import _initial, envs, record

ROOT = Path(__file__).resolve().parents[2]
CLIENTS, EVENTS = 50, 100
# Seconds; hitting it means a deadlock. The slowest test here takes ~20 s on an idle
# 2-core machine; a loaded one (other test runs, benchmarks) can be several times slower,
# and the waits end as soon as the clients finish, so the bound is set far beyond that.
TIMEOUT = 600.0
# Connections per PostgreSQL client process. Every append that commits makes all the
# other in-flight appends to the game stale, so with one hot game fewer connections
# waste less work: 2 processes x 25 threads take ~20 s with 3 connections each, ~40 s
# with the default 5, ~75 s with 8 (2 cores). Still 6 sessions racing: thousands of
# appends pass the head check and are stopped by the primary key.
PG_POOL_SIZE = 3


def _check(store: SqlStore, clients: dict[str, dict[str, Any]]) -> None:
    total = CLIENTS * EVENTS
    assert len(clients) == CLIENTS
    assert [c["error"] for c in clients.values()] == [None] * CLIENTS
    log = list(store.envelopes("g1"))
    assert store.head("g1") == total
    assert [e.seq for e in log] == list(range(1, total + 1)), "gaps or doubles in the log"
    acked: list[int] = []
    for name, client in clients.items():
        seqs = client["acked"]
        assert len(seqs) == EVENTS and len(set(seqs)) == EVENTS
        assert seqs == sorted(seqs)
        for n, seq in enumerate(seqs):  # the envelope at an acknowledged seq is the client's own
            env = log[seq - 1]
            assert (env.actor, env.command) == (name, f"{name}-{n}"), f"{name}'s append {n} at {seq} was lost"
        acked += seqs
    assert sorted(acked) == list(range(1, total + 1)), "some seqs acknowledged twice, or not at all"


def test_sqlite_50_threads_appending_to_one_game(sqlite_url: str) -> None:
    with open_store(sqlite_url) as store:
        store.create_game(record(), _initial())
        outcome: dict[str, Any] = {}
        runner = threading.Thread(
            target=lambda: outcome.update(run_clients(store, "g1", "c", CLIENTS, EVENTS)), daemon=True
        )
        runner.start()
        runner.join(TIMEOUT)
        assert not runner.is_alive(), f"the clients did not finish in {TIMEOUT}s: a deadlock?"
        _check(store, outcome["clients"])


def test_postgresql_two_processes_of_25_threads_appending_to_one_game(pg_url: str) -> None:
    with open_store(pg_url) as store:
        store.create_game(record(), _initial())
        env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'src'}"}
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.storage.concurrency_child",
                    pg_url,
                    "g1",
                    prefix,
                    str(CLIENTS // 2),
                    str(EVENTS),
                    str(PG_POOL_SIZE),
                ],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for prefix in ("a", "b")
        ]
        outputs = []
        try:
            for p in procs:
                out, err = p.communicate(timeout=TIMEOUT)
                assert p.returncode == 0, err
                outputs.append(json.loads(out))
        except subprocess.TimeoutExpired:
            pytest.fail(f"the client processes did not finish in {TIMEOUT}s: a deadlock?")
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                    p.wait()
        clients = {name: c for out in outputs for name, c in out["clients"].items()}
        _check(store, clients)
        # the processes raced for real: some appends passed the head check and were
        # stopped by the primary key
        assert sum(out["refused_by_key"] for out in outputs) > 0


def _retry_concurrently(url: str, retries: int) -> list[AppendResult]:
    """``retries`` copies of one request (same idempotency key) sent at once; each
    retries after a ConcurrencyError on the new head, as a client would."""
    with open_store(url) as store:
        store.create_game(record(), _initial())
        store.append("g1", 0, envs(1, 4))
        start = threading.Barrier(retries)
        results: list[AppendResult] = []
        errors: list[BaseException] = []

        def send(i: int) -> None:
            expected = 4
            start.wait()
            try:
                while True:
                    try:
                        results.append(
                            store.append(
                                "g1",
                                expected,
                                envs(expected + 1, 3, actor=f"r{i}"),
                                idempotency_key="same",
                                response={"by": i},
                            )
                        )
                        return
                    except ConcurrencyError as e:
                        expected = e.actual
            except BaseException as e:
                errors.append(e)

        threads = [threading.Thread(target=send, args=(i,), daemon=True) for i in range(retries)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(TIMEOUT)
        assert not any(t.is_alive() for t in threads) and errors == []
        assert store.head("g1") == 7
        assert len(list(store.envelopes("g1", after=4))) == 3
    return results


def test_an_idempotency_key_retried_concurrently_applies_once(any_url: str) -> None:
    results = _retry_concurrently(any_url, 16)
    assert len(results) == 16
    applied = [r for r in results if not r.replayed]
    assert len(applied) == 1
    assert {(r.first_seq, r.last_seq) for r in results} == {(5, 7)}
    assert all(r.response == applied[0].response for r in results)
