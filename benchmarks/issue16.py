"""The figures of issue 16 that need more than the rules core: one order end to end
through the service on SQLite, a turn report of a 10,000-entry game from the service's
state, and whole self-played games against ``diplomacy``'s random games. Run by
``benchmarks/run.py`` (``make bench``); every figure is a median, every ratio compares
two figures of the same run.
"""

from __future__ import annotations

import functools
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: CPU time of this process: what an order costs the server, and what a game or a report
#: costs whatever else the machine runs (all figures here are CPU time)
CPU = time.process_time


def verdict(value: float, aim: float, *, at_least: bool = False) -> str:
    ok = value >= aim if at_least else value < aim
    return "met" if ok else "over aim"


# -- one order end to end ----------------------------------------------------------------------
class Stages:
    """CPU time spent in each stage of an order, each stage's own (a stage called inside
    another counts for the inner one only)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self._stack: list[float] = []

    def wrap(self, label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = CPU()
            self._stack.append(0.0)
            try:
                return fn(*args, **kwargs)
            finally:
                dt = CPU() - t0
                inner = self._stack.pop()
                self.spent[label] += dt - inner
                if self._stack:
                    self._stack[-1] += dt

        return timed


@contextmanager
def patched(patches: list[tuple[Any, str, Any]]) -> Iterator[None]:
    saved = [(obj, name, getattr(obj, name)) for obj, name, _ in patches]
    try:
        for obj, name, value in patches:
            setattr(obj, name, value)
        yield
    finally:
        for obj, name, value in saved:
            setattr(obj, name, value)


def bench_order(repeat: int) -> None:
    """A player's post of one order (text → parse → names → decide → append), as the
    web's text box and API send it: ``GameService.post`` on a SQLite store (WAL,
    synchronous=FULL). CPU time of this process per order; the stages' own CPU beside."""
    import kingmaker.orders_text.syntax as syntax
    import kingmaker.service.handlers as handlers
    import kingmaker.service.posts as posts
    from kingmaker.service import GM_ACTOR
    from kingmaker.service.commands import CreateGame
    from kingmaker.service.game_service import GameService
    from kingmaker.service.identity import player
    from kingmaker.service.projection import Projection
    from kingmaker.storage import open_store

    fold_module = sys.modules["kingmaker.log.fold"]
    print("One order end to end (issue 16)")
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'orders.db'}")
        try:
            svc = GameService(store)
            factions = ("red", "blue", "green", "gold", "white", "black")
            gid = svc.execute(GM_ACTOR, CreateGame("Orders", factions, seed="e2e")).game
            state = svc.state(gid)
            red = player(state.turn)
            # a noble of the faction whose turn it is, moving to and fro along a road
            # (one movement order in its own turn, R11: every move is accepted)
            noble, here, there = _to_and_fro(state)
            moves = [f"{noble} MOVES TO {there}", f"{noble} MOVES TO {here}"]
            places = sorted(p for p, f in state.control.items() if f == state.turn)
            grants = [
                t
                for p in places
                for t in (f"Red GRANTS Blue ENTRY TO {p}", f"Red REVOKES ALL FROM Blue AT {p}")
            ]
            for kind, texts in (("a move by road", moves), ("a permission granted or revoked", grants)):
                for k in range(20):  # warm up: caches, the parser, the connection pool
                    out = svc.post(red, gid, texts[k % len(texts)], state.turn, send=True)
                    assert out and out[0].result == "accepted", out
                stages = Stages()
                parser = syntax.parser()
                patches: list[tuple[Any, str, Any]] = [
                    (parser, "parse", stages.wrap("parse", parser.parse)),
                    (posts, "parse_post", stages.wrap("name resolution", posts.parse_post)),
                    (posts, "as_seen_by", stages.wrap("name resolution", posts.as_seen_by)),
                    (posts, "format_order", stages.wrap("name resolution", posts.format_order)),
                    (handlers, "decide", stages.wrap("decide", handlers.decide)),
                    (fold_module.Fold, "step", stages.wrap("projection", fold_module.Fold.step)),
                    (fold_module.Fold, "extend", stages.wrap("projection", fold_module.Fold.extend)),
                    (Projection, "copy", stages.wrap("projection", Projection.copy)),
                ]
                for name in ("append", "head", "envelopes", "recorded", "game", "latest_snapshot"):
                    patches.append((store, name, stages.wrap("store", getattr(store, name))))
                total = stages.wrap("service and web-facing rest", svc.post)
                per_order: list[float] = []
                n = 0
                with patched(patches):
                    for _ in range(repeat):
                        t0 = CPU()
                        for k in range(40):
                            total(red, gid, texts[k % len(texts)], state.turn, send=True)
                        per_order.append((CPU() - t0) / 40)
                        n += 40
                ms = statistics.median(per_order) * 1e3
                if kind == "a move by road":
                    print(f"  one order end to end (SQLite): {ms:.2f} ms CPU  (aim < 1 ms: {verdict(ms, 1)})")
                    print(f"    ({kind}: {moves[0]!r})")
                else:
                    print(f"  {kind}, end to end (SQLite): {ms:.2f} ms CPU")
                for label in ("parse", "name resolution", "decide", "store", "projection"):
                    print(f"    {label:<28} {stages.spent[label] / n * 1e3:6.3f} ms")
                rest = stages.spent["service and web-facing rest"] / n * 1e3
                print(f"    {'the rest of the service':<28} {rest:6.3f} ms")
        finally:
            store.close()


def _to_and_fro(state: Any) -> tuple[str, str, str]:
    """A noble of the faction whose turn it is in the open, and a place one road away
    where it may stand: (its name, where it is, there), as a player writes them."""
    from kingmaker.rules.queries import legal_destinations

    for n in sorted(state.nobles.values(), key=lambda n: n.id):
        if n.faction != state.turn or n.inside or n.place is None or n.aboard is not None:
            continue
        for d in legal_destinations(state, n.id).places:
            if d.by_road and len(d.path) == 2:
                names = state.board.places
                return state.catalog.name_of(n.id), names[n.place].name, names[d.place].name
    raise SystemExit("no noble to move in the benchmark's game")


# -- turn reports ------------------------------------------------------------------------------
def bench_report(repeat: int, entries: int = 10_000) -> None:
    """A turn report (public, the last turn over, in BBCode) of a game of ``entries`` log
    entries played through the service, from the timeline the service holds: the first
    request folds the log once (the game was loaded from its latest snapshot), the next
    ones only read the service's state."""
    from kingmaker.render.reports import render, reports_for, turn_report
    from kingmaker.rules import commands as rc
    from kingmaker.service import GM_ACTOR, FixedClock
    from kingmaker.service.commands import CreateGame, Submit
    from kingmaker.service.game_service import GameService
    from kingmaker.simulation import RandomPlayer
    from kingmaker.storage.memory import MemoryStore

    print(f"Turn reports (issue 16): a game of {entries} entries played through the service")
    t0 = time.perf_counter()
    played = GameService(MemoryStore(), FixedClock())
    gid = played.execute(GM_ACTOR, CreateGame("Reports", ("red", "blue", "green", "gold"), seed="r")).game
    bot = RandomPlayer(7)
    while played.store.head(gid) < entries:
        command: rc.Command = bot.command(played.state(gid))
        played.execute(GM_ACTOR, Submit(gid, command))
    store, game = played.store, gid
    GameService(store).save_snapshot(game)
    svc = GameService(store)  # a server that has just loaded the game from its snapshot
    svc.state(game)
    print(f"  (played in {time.perf_counter() - t0:.0f} s)")

    def request() -> None:
        ctx = reports_for(svc, game)
        over = [t for t in ctx.timeline.turns() if ctx.timeline.is_over(t)]
        render(turn_report(ctx, over[-1], "public"), "bbcode")

    t0 = CPU()
    request()
    first = CPU() - t0
    samples = []
    for _ in range(repeat):
        t0 = CPU()
        request()
        samples.append(CPU() - t0)
    ms = statistics.median(samples) * 1e3
    print(f"  turn report, {entries} entries: {ms:.2f} ms  (aim < 20 ms: {verdict(ms, 20)})")
    print(f"    (the first request, which folds the log once: {first * 1e3:.0f} ms)")


# -- whole games -------------------------------------------------------------------------------
def bench_games(repeat: int, games: int = 3) -> None:
    """``selfplay``'s whole games (the full game: events, battles, Parliament, victory;
    its invariants checked after every step and the game replayed at its end) against
    ``diplomacy``'s random self-play: a ``Game`` whose every power orders at random among
    ``get_all_possible_orders``, processed to its end. Each figure is the median over
    its games."""
    from kingmaker.data import load_dataset
    from kingmaker.selfplay import FACTIONS, play_game

    print("Whole games (issue 16)")
    try:
        from diplomacy import Game
    except ImportError:
        print("  diplomacy is not installed: `make bench` installs it (pip install -e '.[bench]')")
        return
    ds = load_dataset()
    ours: list[float] = []
    turns = 0
    for g in range(games):
        t0 = CPU()
        run = play_game(ds, FACTIONS[:4], f"bench-{g}")
        seconds = CPU() - t0
        turns += run.turns
        ours.append(run.turns / seconds)
        print(
            f"    selfplay game {g + 1}: {run.turns} turns, {run.rounds} rounds, {run.ended}: "
            f"{ours[-1]:.1f} turns/s"
        )
    theirs: list[float] = []
    for g in range(games):
        rng = random.Random(g)
        game = Game()
        phases = 0
        t0 = CPU()
        while not game.is_game_done:
            possible = game.get_all_possible_orders()
            for power in game.powers.values():
                locs = game.get_orderable_locations(power.name)
                game.set_orders(power.name, [rng.choice(possible[loc]) for loc in locs if possible[loc]])
            game.process()
            phases += 1
        theirs.append(phases / (CPU() - t0))
        print(f"    diplomacy game {g + 1}: {phases} phases: {theirs[-1]:.1f} phases/s")
    ratio = statistics.median(ours) / statistics.median(theirs)
    print(
        f"  selfplay turns per second / diplomacy phases per second = {ratio:.2f}"
        f"  (aim >= 5: {verdict(ratio, 5, at_least=True)})"
    )
    print(f"    ({statistics.median(ours):.1f} turns/s against {statistics.median(theirs):.1f} phases/s)")
