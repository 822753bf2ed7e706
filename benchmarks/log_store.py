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


def served_game(n: int) -> list[str]:
    """The export of a game of ``n`` entries played through the service (orders with
    their submissions, deadlines, turns, an undo every 400 commands)."""
    from kingmaker.service import GM_ACTOR, FixedClock
    from kingmaker.service.commands import CreateGame, Submit, Undo
    from kingmaker.service.transfer import export_lines
    from kingmaker.simulation import RandomPlayer
    from kingmaker.storage.memory import MemoryStore

    svc = GameService(MemoryStore(), FixedClock())
    gid = svc.execute(GM_ACTOR, CreateGame("Bench", ("red", "blue", "green", "gold"), seed="bench")).game
    player = RandomPlayer(7)
    k = 0
    while svc.store.head(gid) < n:
        svc.execute(GM_ACTOR, Submit(gid, player.command(svc.state(gid))))
        k += 1
        if k % 400 == 0:
            svc.execute(GM_ACTOR, Undo(gid, svc.store.head(gid) - 5, "oops"))
    return [line + "\n" for line in export_lines(svc.store, gid)]


def report_requests(store: GameStore, lines: list[str], repeat: int) -> None:
    """A turn-report request (public: the last turn over, in BBCode) to a service that
    holds the game, as the web's report page makes it: the first, then the next ones."""
    from kingmaker.render.reports import render, reports_for, turn_report
    from kingmaker.service.transfer import import_game

    gid = import_game(store, lines, as_id=f"served-{uuid.uuid4().hex[:8]}").game
    svc = GameService(store)
    svc.state(gid)  # the service holds the game, as a running server does

    def request() -> None:
        ctx = reports_for(svc, gid)
        over = [t for t in ctx.timeline.turns() if ctx.timeline.is_over(t)]
        render(turn_report(ctx, over[-1], "public"), "bbcode")

    t0 = time.perf_counter()
    request()
    t_first = time.perf_counter() - t0
    t_next = median(request, repeat)
    n = len(lines) - 2
    print(f"  turn report of a {n}-entry game, first request     {t_first * 1e3:9.1f} ms")
    print(f"  turn report of a {n}-entry game, next requests     {t_next * 1e3:9.1f} ms")


def store_benchmarks(
    label: str, store: GameStore, initial: GameState, envs: list[Envelope], repeat: int, served: list[str]
) -> None:
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
    report_requests(store, served, repeat)


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
    served = served_game(args.events)
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = open_store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        store_benchmarks("SQLite (WAL, synchronous=FULL)", sqlite, initial, envs, args.repeat, served)
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
        store_benchmarks("PostgreSQL (a scratch schema, dropped after)", pg, initial, envs, args.repeat, served)
        pg.close()
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        admin.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
