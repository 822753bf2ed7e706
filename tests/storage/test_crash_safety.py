"""Crash safety: a writer killed with SIGKILL at a random moment, over and over, never
loses an acknowledged append and never leaves half of one behind.

Each run starts ``tests/storage/crash_child.py``, which continues the same real game
(random legal play, batches of 1-5 envelopes, snapshots every 20 events, an
idempotency key per batch) and prints each acknowledged append; the parent kills it
after a random delay, reopens the store and checks:

- every acknowledged seq is stored, and the seqs are exactly 1..head;
- what was stored before the crash is unchanged;
- every stored envelope decodes, and every batch is there whole or not at all, with
  its idempotency key (written in the same transaction) and nothing more;
- every snapshot decodes to a state with its hash, and replaying the log from the
  stored seq-0 state gives that hash at the snapshot's seq.

One run in five kills the writer around start-up instead (opening and migrating the
store, recovering the game's state from its latest snapshot).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import sqlalchemy as sa

from kingmaker.log.envelope import Envelope
from kingmaker.log.fold import fold
from kingmaker.rules.codec import board_from_data, catalog_from_data, state_from_data
from kingmaker.rules.hashing import state_hash
from kingmaker.rules.state import GameState
from kingmaker.storage import SqlStore, open_store
from kingmaker.storage.schema import idempotency, snapshots
from tests.storage import realgame

ROOT = Path(__file__).resolve().parents[2]
GAME = "crash"
# Seconds to wait for the writer to start, to acknowledge its appends, and to die once
# killed. Each wait returns as soon as the awaited thing happens (normally well under a
# second), so a large bound costs nothing, and a loaded machine cannot reach it: reaching
# it means the writer stalled.
STALL = 300.0


class Verified:
    """What the checks of the previous runs established (the log only grows)."""

    def __init__(self, store: SqlStore):
        rec = store.game(GAME)
        self.board, self.catalog = board_from_data(rec.board), catalog_from_data(rec.catalog)
        snap = store.latest_snapshot(GAME, at_or_before=0)
        self.state: GameState = state_from_data(snap.state, self.board, self.catalog)
        assert state_hash(self.state) == snap.state_hash
        self.state_seq = 0  # the log seq of ``state``: the last snapshot checked
        self.log: list[Envelope] = []
        self.snapshots = 1
        self.acked = 0


def _run_child(
    url: str, seed: int, delay: float, *, after_acks: int = 0, in_startup: bool = False
) -> list[tuple[int, int]]:
    """Start the writer, let it acknowledge ``after_acks`` appends, wait ``delay``
    seconds more, SIGKILL it; its acks. Counting acks rather than seconds keeps the
    test as demanding on a loaded machine as on an idle one. ``in_startup``: count the
    delay from the start instead, so the kill may land while it opens the store
    (migrations) or recovers the game's state."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.storage.crash_child", url, GAME, str(seed)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'src'}"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    ready = threading.Event()
    enough = threading.Event()
    lines: list[str] = []

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            if line == "ready\n":
                ready.set()
            elif line.endswith("\n"):  # a line cut by the kill was never acknowledged
                lines.append(line)
            if ready.is_set() and len(lines) >= after_acks:
                enough.set()
        enough.set()  # the writer stopped: nothing more will come

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    if in_startup:
        time.sleep(delay)
    elif not ready.wait(STALL) or not enough.wait(STALL):
        child.kill()
        raise AssertionError(f"the writer did not start or stalled: {child.communicate()[1]}")
    else:
        time.sleep(delay)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(STALL)
    reader.join(STALL)
    stderr = child.stderr.read() if child.stderr else ""
    assert child.returncode == -signal.SIGKILL, f"the writer stopped before it was killed:\n{stderr}"
    acks = [tuple(map(int, line.split())) for line in lines]
    return [(a[0], a[1]) for a in acks]


def _check(store: SqlStore, seen: Verified, acks: list[tuple[int, int]]) -> None:
    head = store.head(GAME)
    log = list(store.envelopes(GAME))  # every one decodes (or this raises)
    assert [e.seq for e in log] == list(range(1, head + 1)), "gaps or duplicates in the log"
    assert log[: len(seen.log)] == seen.log, "a crash changed what was stored before it"
    expected_first = len(seen.log) + 1  # the writer started at the head the last check saw
    for first, last in acks:
        assert first == expected_first, (
            f"acknowledged {first}-{last}, expected it to start at {expected_first}"
        )
        assert last <= head, f"acknowledged seqs {first}-{last} are lost (head {head})"
        expected_first = last + 1

    # every batch whole, with its idempotency key, and no key without its batch
    with store.engine.connect() as conn:
        keys = {row.key: (row.first_seq, row.last_seq) for row in conn.execute(sa.select(idempotency))}
    batches: dict[str, list[int]] = {}
    for env in log:
        assert env.command is not None
        batches.setdefault(env.command, []).append(env.seq)
    for command, seqs in batches.items():
        first, last = map(int, command[1:].split("-"))
        assert seqs == list(range(first, last + 1)), f"batch {command} is not whole: {seqs}"
        assert keys.get(f"k{first}-{last}") == (first, last), f"batch {command} has no idempotency key"
    assert len(keys) == len(batches), "an idempotency key without its events"

    # every snapshot decodes to its hash, and the replay from seq 0 reaches it
    with store.engine.connect() as conn:
        stored = conn.execute(sa.select(sa.func.count()).select_from(snapshots)).scalar_one()
    assert stored >= seen.snapshots, "a crash lost snapshots"
    assert store.latest_snapshot(GAME).seq <= head
    for snap in realgame.all_snapshots(store, GAME, after=seen.state_seq):  # the ones not checked yet
        decoded = state_from_data(snap.state, seen.board, seen.catalog)
        assert state_hash(decoded) == snap.state_hash, f"snapshot {snap.seq} does not decode to its hash"
        seen.state = fold(seen.state, log[seen.state_seq : snap.seq])
        seen.state_seq = snap.seq
        assert state_hash(seen.state) == snap.state_hash, (
            f"replaying to seq {snap.seq} does not give its snapshot"
        )
    seen.log, seen.snapshots = log, stored
    seen.acked += len(acks)


def _crash_many_times(url: str, runs: int, seed: int) -> None:
    world = realgame.world()
    with open_store(url) as store:
        store.create_game(realgame.game_record(world, GAME), realgame.snapshot_of(world, 0))
        seen = Verified(store)
    rnd = random.Random(seed)
    for run in range(runs):
        if run % 5 == 4:  # now and then, a kill around start-up
            acks = _run_child(url, seed * 1000 + run, delay=rnd.uniform(0.3, 1.0), in_startup=True)
        else:
            acks = _run_child(
                url, seed * 1000 + run, delay=rnd.uniform(0.0, 0.05), after_acks=rnd.randint(5, 40)
            )
        with open_store(url) as store:  # reopening recovers (SQLite: from the WAL)
            _check(store, seen, acks)
    assert seen.acked > runs * 10 and seen.snapshots > runs, f"the writers hardly wrote: {seen.acked} appends"


def test_sqlite_survives_sigkill_at_random_moments(sqlite_url: str) -> None:
    _crash_many_times(sqlite_url, runs=25, seed=1)


def test_postgresql_survives_sigkill_at_random_moments(pg_url: str) -> None:
    _crash_many_times(pg_url, runs=10, seed=2)
