"""Benchmarks for the game log and the stores (issue 5 §5). Run: ``make bench``.

Figures are medians over repeated samples; the ratio compares two figures measured in
this same run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
import tracemalloc
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kingmaker.data import load_dataset
from kingmaker.log.envelope import Envelope, envelope_from_data, envelope_to_data
from kingmaker.log.fold import fold
from kingmaker.rules import events as ev
from kingmaker.rules.codec import board_to_data, catalog_to_data
from kingmaker.rules.deal import new_game
from kingmaker.rules.state import GameState
from kingmaker.service.game_service import GameService
from kingmaker.service.projection import Projection
from kingmaker.simulation import random_play
from kingmaker.storage import GameRecord, open_store
from kingmaker.storage.base import GameStore

PG = os.environ.get("KINGMAKER_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def median(fn: Callable[[], Any], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def game_of(n: int) -> tuple[GameState, list[Envelope]]:
    """A game on the default map with at least ``n`` rules events from random play."""
    ds = load_dataset()
    state = new_game(ds.board, ds.catalog, ("red", "blue", "green", "gold"), "bench", removed=ds.setup.removed)
    initial = state
    envs: list[Envelope] = []
    seed = 0
    while len(envs) < n:
        for p in random_play(state, 2000, seed):
            for e in p.decision.events:
                envs.append(Envelope(len(envs) + 1, p.state.round, p.state.turn, "gm", p.decision.rule, e, "2026-11-30T12:00:00Z"))
            state = p.state
        seed += 1
    envs = envs[:n]
    return initial, envs


def record(game_id: str, state: GameState) -> GameRecord:
    return GameRecord(
        game_id, "bench", "2026-11-30T12:00:00Z", state.turn_order, "England 1455",
        board_to_data(state.board), catalog_to_data(state.catalog), "bench", "c", {"snapshot_every": 100},
    )


def store_benchmarks(label: str, store: GameStore, initial: GameState, envs: list[Envelope], repeat: int) -> None:
    print(f"{label}")
    gid = f"bench-{uuid.uuid4().hex[:8]}"
    store.create_game(record(gid, initial), Projection.initial_snapshot(initial))
    head = [0]
    probe = ev.TurnEnded()

    def append_one() -> None:
        env = Envelope(head[0] + 1, 1, "red", "gm", None, probe, "2026-11-30T12:00:00Z")
        store.append(gid, head[0], [env])
        head[0] += 1

    t = median(append_one, repeat * 4)
    print(f"  append one event                                   {t * 1e3:9.2f} ms")
    big = f"big-{uuid.uuid4().hex[:8]}"
    store.import_game(record(big, initial), Projection.initial_snapshot(initial), envs, None)

    def load_without() -> None:
        GameService(store).replayed_state(big)

    t_without = median(load_without, max(3, repeat // 3))
    GameService(store).save_snapshot(big)

    def load_with() -> None:
        GameService(store).state(big)

    t_with = median(load_with, repeat)
    print(f"  load {len(envs)} events, no snapshot               {t_without * 1e3:9.1f} ms")
    print(f"  load {len(envs)} events, from the latest snapshot  {t_with * 1e3:9.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--events", type=int, default=10_000)
    args = parser.parse_args(argv)
    initial, envs = game_of(args.events)
    lines = [json.dumps(envelope_to_data(e)) for e in envs]
    print(f"Game log (issue 5): {len(envs)} events from random play on the default map; medians of {args.repeat}")

    def decode() -> list[Envelope]:
        return [envelope_from_data(json.loads(line)) for line in lines]

    decoded = decode()
    t_decode = median(decode, args.repeat)
    t_replay = median(lambda: fold(initial, decoded), args.repeat)
    print(f"  decode {len(envs)} events from JSON              {t_decode * 1e3:9.1f} ms")
    print(f"  replay {len(envs)} events                        {t_replay * 1e3:9.1f} ms")
    ratio = t_replay / t_decode
    print(f"  replay / decode = {ratio:.2f}  (aim <= 3: {'met' if ratio <= 3 else 'over aim'})")
    tracemalloc.start()
    fold(initial, decoded)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"  peak memory of the replay alone (tracemalloc)      {peak / 2**20:9.1f} MB  (aim < 100 MB)")
    decoded = []
    tracemalloc.start()
    fold(initial, decode())
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"  peak memory of decoding and replaying              {peak / 2**20:9.1f} MB")
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = open_store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        store_benchmarks("SQLite (WAL, synchronous=FULL)", sqlite, initial, envs, args.repeat)
        sqlite.close()
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url

    base = make_url(PG).set(drivername="postgresql+psycopg")
    schema = f"kmbench_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(base, poolclass=sa.NullPool, connect_args={"connect_timeout": 3})
    try:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    except Exception as e:  # the server is optional for benchmarks
        print(f"PostgreSQL: skipped ({str(e).splitlines()[0]})")
        return 0
    try:
        url = base.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
        pg = open_store(url)
        store_benchmarks("PostgreSQL (a scratch schema, dropped after)", pg, initial, envs, args.repeat)
        pg.close()
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        admin.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
