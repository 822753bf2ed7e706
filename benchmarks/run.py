"""Benchmarks for the rules core. Run with ``make bench`` (one command).

Every figure is a median over repeated runs, and every ratio compares two figures
measured in this same run. Times are this process's CPU time (``time.process_time``),
which other work on the machine hardly changes, unlike the time on the clock. Aims come from the issues; a figure over its aim is printed
with "over aim", not hidden.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import issue16
from kingmaker.data import load_dataset
from kingmaker.rules import commands as c
from kingmaker.rules.apply import replay
from kingmaker.rules.deal import new_game
from kingmaker.rules.decide import decide
from kingmaker.rules.hashing import state_hash
from kingmaker.rules.queries import legal_destinations
from kingmaker.rules.seniority import choose_senior
from kingmaker.rules.state import GameState
from kingmaker.rules.views import view
from kingmaker.simulation import random_play
from kingmaker.simulation_full import random_full_play

SIX = ("red", "blue", "green", "white", "black", "gold")


def median_seconds(fn: Callable[[], Any], *, number: int, repeat: int) -> float:
    """Median CPU time of one call of ``fn`` (this process's: what else runs on the
    machine hardly changes it): ``repeat`` samples of ``number`` calls each."""
    samples = []
    gc.collect()
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(number):
            fn()
        samples.append((time.process_time() - t0) / number)
    return statistics.median(samples)


def report(label: str, seconds: float, unit: str, aim: float | None = None) -> None:
    scale = {"ms": 1e3, "us": 1e6}[unit]
    value = seconds * scale
    verdict = ""
    if aim is not None:
        verdict = f"  (aim < {aim:g} {unit}: {'met' if value < aim else 'over aim'})"
    print(f"  {label:<58} {value:10.2f} {unit}{verdict}")


def mid_game(seed: str = "bench") -> GameState:
    """Six factions on the default map, most of the crown deck in play (12 cards dealt
    each: 22 nobles, all 8 ships), after 600 random commands."""
    ds = load_dataset()
    state = new_game(ds.board, ds.catalog, SIX, seed, cards_per_faction=12, removed=ds.setup.removed)
    for p in random_play(state, 600, seed):
        state = p.state
    return state


def bench_data(repeat: int) -> None:
    print("Data and state (issue 2)")

    def build() -> GameState:
        ds = load_dataset()
        return new_game(ds.board, ds.catalog, SIX[:4], "bench", removed=ds.setup.removed)

    report(
        "load the default data and build a new game", median_seconds(build, number=3, repeat=repeat), "ms", 50
    )
    state = mid_game()
    report(
        "hash a mid-game state (uncached object each time)",
        median_seconds(lambda: state_hash(state.evolve()), number=20, repeat=repeat),
        "ms",
        1,
    )


def _road_move(state: GameState) -> c.Command:
    """A real multi-place road move for a noble of the faction whose turn it is."""
    for _ in range(len(state.turn_order)):
        for n in state.nobles.values():
            if n.faction != state.turn or n.aboard is not None or n.id in state.army_of:
                continue
            dests = legal_destinations(state, n.id)
            longest = max((d for d in dests.places if d.by_road), key=lambda d: len(d.path), default=None)
            if longest is not None and len(longest.path) >= 3:
                return c.MoveRoad(state.turn, n.id, longest.path, False)
        state = state.evolve(turn_index=(state.turn_index + 1) % len(state.turn_order))
    raise SystemExit("no road move found in the mid-game state")


def bench_rules(repeat: int) -> dict[str, float]:
    print("Location rules and queries (issues 3 and 16)")
    state = mid_game()
    nobles = len(state.nobles)
    ships = len(state.ships)
    print(
        f"  mid-game state: {len(state.turn_order)} factions, {nobles} nobles, {ships} ships, "
        f"{len(state.armies)} armies, round {state.round}"
    )
    move = _road_move(state)
    mover = state.evolve(turn_index=state.turn_order.index(move.by))
    assert decide(mover, move).accepted
    report(
        f"judge one road move ({len(move.path)} places)",  # type: ignore[attr-defined]
        median_seconds(lambda: decide(mover, move), number=2000, repeat=repeat),
        "us",
        20,
    )
    units = [*state.nobles, *state.ships, *state.armies]

    def cold() -> None:
        # The honest figure: a new state object, nothing kept from earlier states (the
        # judgments kept by movement signature dropped), the per-state shared data
        # (each faction's passable places, routes and verdicts) computed and counted.
        state.board.memo.pop("movement", None)
        fresh = state.evolve()
        for u in units:
            legal_destinations(fresh, u)

    cold_total = median_seconds(cold, number=5, repeat=repeat)
    report(f"legal_destinations for all {len(units)} units (a new state)", cold_total, "ms", 5)
    per_unit = cold_total / len(units)
    report("  per unit, a new state, nothing kept from earlier states", per_unit, "us")

    def kept() -> None:
        fresh = state.evolve()  # no cached indexes: a new state, as after every event
        for u in units:
            legal_destinations(fresh, u)

    kept_total = median_seconds(kept, number=5, repeat=repeat)
    report("  per unit, a new state, its movement signature seen before", kept_total / len(units), "us")
    # A bot's view: every unit's destinations on each of 40 successive states of play,
    # the judgments of one state carried to the next only where nothing they read changed.
    following = [p.state for p in random_play(state, 40, "next")]
    counted = statistics.mean(len(s.nobles) + len(s.ships) + len(s.armies) for s in following)

    def successive() -> None:
        state.board.memo.pop("movement", None)
        for s in following:
            fresh = s.evolve()
            for u in [*s.nobles, *s.ships, *s.armies]:
                legal_destinations(fresh, u)

    per_state = median_seconds(successive, number=1, repeat=repeat) / len(following)
    report("  per unit, over 40 successive states of random play", per_state / counted, "us")
    return {
        "a new state, nothing kept": per_unit,
        "a new state, its signature seen before": kept_total / len(units),
        "40 successive states of random play": per_state / counted,
    }


def bench_diplomacy(ours: dict[str, float], repeat: int) -> None:
    print("Diplomacy adjudicator, same process (diplomacy==1.1.2)")
    try:
        from diplomacy import Game
    except ImportError:
        print("  diplomacy is not installed: `make bench` installs it (pip install -e '.[bench]')")
        return
    game = Game()
    units = sum(len(p.units) for p in game.powers.values())
    theirs = median_seconds(game.get_all_possible_orders, number=20, repeat=repeat)
    report(f"Game().get_all_possible_orders() ({units} units)", theirs, "ms")
    report("  per unit", theirs / units, "us")
    # The first figure (a new state, nothing kept) is the one the aim is judged on.
    (label, ours_per_unit), *others = ours.items()
    ratio = ours_per_unit / (theirs / units)
    print(
        f"  ours per unit / theirs per unit = {ratio:.3f}  (aim <= 0.2: {'met' if ratio <= 0.2 else 'over aim'};"
        f" {label})"
    )
    for label, figure in others:
        print(f"    the same, {label}: {figure / (theirs / units):.3f}")


def bench_alliances(repeat: int) -> None:
    print("Alliances and views (issue 4)")
    state = mid_game()
    ten = sorted(state.nobles, key=lambda n: (state.nobles[n].faction or "", n))[:10]
    report(
        "senior officer of a ten-noble army",
        median_seconds(lambda: choose_senior(state, ten, False), number=500, repeat=repeat),
        "us",
        50,
    )
    faction = state.turn_order[0]
    report(
        "one faction's view of a mid-game state",
        median_seconds(lambda: view(state, faction), number=200, repeat=repeat),
        "ms",
        1,
    )


def _battle_ready(seed: str = "battle") -> tuple[GameState, c.Command]:
    """A full game in its combat phase with an accepted attack waiting for its card:
    two factions' nobles moved together in the open by the GM's rulings."""
    ds = load_dataset()
    state = new_game(
        ds.board, ds.catalog, SIX, seed, cards_per_faction=12, removed=ds.setup.removed, full_game=True
    )
    red = sorted(n for n, x in state.nobles.items() if x.faction == state.turn)[:2]
    blue = sorted(n for n, x in state.nobles.items() if x.faction == state.turn_order[1])[:2]
    steps: list[c.Command] = [c.DrawEvent(c.GM)]
    for n in (*red, *blue):
        steps += [c.Capture(c.GM, n, "black"), c.Release(c.GM, n, "barnet", False)]
    steps += [c.FormArmy(state.turn, "host", tuple(red)), c.Attack(state.turn, "host", blue[0], "b1")]
    for cmd in steps:
        d = decide(state, cmd)
        if d.events:
            state = replay(state, d.events)
    assert any(x.id == "b1" for x in state.combats), "the benchmark's attack was not accepted"
    return state, c.Battle(c.GM, "b1")


def bench_full_game(repeat: int) -> None:
    print("The full game: combat and events (issue 13)")
    state, battle = _battle_ready()
    report(
        "resolving one battle (decide: the draw, deaths, capture, spoils)",
        median_seconds(lambda: decide(state, battle), number=200, repeat=repeat),
        "us",
        200,
    )
    ds = load_dataset()
    start = new_game(
        ds.board, ds.catalog, SIX, "turns", cards_per_faction=12, removed=ds.setup.removed, full_game=True
    )
    samples = []
    for k in range(max(3, repeat // 3)):
        turns, t0 = 0, time.process_time()
        for p in random_full_play(start, 1500, k):
            turns += sum(1 for e in p.decision.events if e.kind == "turn_ended")
        samples.append(turns / (time.process_time() - t0))
    print(
        f"  {'random full game: turns per second (events and combat on)':<58} {statistics.median(samples):10.1f} /s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=15, help="samples per figure (median taken)")
    parser.add_argument("--games", type=int, default=3, help="whole games of each kind (median taken)")
    args = parser.parse_args(argv)
    print(f"Python {sys.version.split()[0]}; medians of {args.repeat} samples\n")
    bench_data(args.repeat)
    per_unit = bench_rules(args.repeat)
    bench_diplomacy(per_unit, args.repeat)
    bench_alliances(args.repeat)
    bench_full_game(args.repeat)
    issue16.bench_order(args.repeat)
    issue16.bench_report(args.repeat)
    issue16.bench_games(args.repeat, games=args.games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
