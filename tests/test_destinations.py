"""``legal_destinations`` agrees with ``decide`` (issue 3 §3)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kingmaker.rules import commands as c
from kingmaker.rules.decide import decide
from kingmaker.rules.queries import legal_destinations
from kingmaker.rules.state import GameState
from kingmaker.simulation import random_play


def _check_state(state: GameState) -> int:
    f = state.turn
    checked = 0
    for n in state.nobles.values():
        if n.faction != f or n.aboard is not None or n.id in state.army_of:
            continue
        dests = legal_destinations(state, n.id)
        if not dests.orderable:
            d = decide(state, c.Enter(f, n.id)) if not n.inside else decide(state, c.Leave(f, n.id))
            assert not d.accepted, dests.reason
            continue
        reachable = {d.place for d in dests.places}
        for d in dests.places:
            if len(d.path) == 1:
                cmd: c.Command = c.Enter(f, n.id)
                got = decide(state, cmd)
                assert got.accepted == d.enter, (d, got.explanation)
                continue
            move = c.MoveRoad(f, n.id, d.path, False) if d.by_road else c.Move(f, n.id, d.place, False)
            got = decide(state, move)
            assert got.accepted, (d, got.explanation)
            if state.board.places[d.place].kind.is_location:
                inside = c.MoveRoad(f, n.id, d.path, True) if d.by_road else c.Move(f, n.id, d.place, True)
                got = decide(state, inside)
                assert got.accepted == d.enter, (d, got.explanation)
            checked += 1
        start = n.place
        assert start is not None
        for other in state.board.places:
            if other in reachable or other == start:
                continue
            if other in state.board.road_neighbours(start) | state.board.neighbours(start):
                continue
            # no one-link move reaches a place the search did not find
            assert not decide(state, c.Move(f, n.id, other)).accepted
    return checked


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_every_listed_destination_is_accepted_and_only_those(mini_world: GameState, seed: int) -> None:
    total = 0
    for i, p in enumerate(random_play(mini_world, 240, seed)):
        if i % 12 == 0:
            total += _check_state(p.state)
    assert total > 0


def test_destinations_of_a_noble_blocked_by_a_neutral_castle(mini_world: GameState) -> None:
    state = mini_world
    # Beaufort (red) stands at Canterbury; Dover is white's: reachable to stand before, not to enter
    dests = {d.place: d for d in legal_destinations(state, "beaufort").places}
    assert dests["dover"].enter is False and dests["dover"].rule == "LOC.unfriendly.enter"
    assert dests["dover"].siege is True
    assert dests["london"].enter is True
    # Oxford is a neutral town on the road west of London: reachable, but blocks the road beyond it
    assert dests["oxford"].enter is False and dests["oxford"].rule == "LOC.neutral.enter"
    assert "coventry" not in dests


def test_ship_destinations(mini_world: GameState) -> None:
    dests = {d.place: d for d in legal_destinations(mini_world, "grace_dieu").waters}
    assert {"thames", "channel", "north_sea"} <= set(dests)
    assert dests["hull"].enter is True  # red's own port
    assert dests["dover"].enter is False and dests["dover"].rule == "LOC.unfriendly.ship_enter"
    assert dests["calais"].enter is True  # an empty open town
    assert dests["york"].enter is False


def _check_ships(state: GameState) -> int:
    f = state.turn
    checked = 0
    for s in state.ships.values():
        if s.faction != f or s.id in state.army_of:
            continue
        dests = legal_destinations(state, s.id)
        if not dests.orderable:
            continue
        for d in dests.waters:
            got = decide(state, c.Sail(f, s.id, d.place, d.path[1:-1]))
            assert got.accepted == d.enter, (d, got.explanation)
            checked += 1
    return checked


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_every_listed_voyage_is_judged_the_same_by_decide(mini_world: GameState, seed: int) -> None:
    total = 0
    for i, p in enumerate(random_play(mini_world, 200, seed)):
        if i % 10 == 0:
            total += _check_ships(p.state)
    assert total > 0


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_destinations_agree_with_decide_on_the_default_map(england: GameState, seed: int) -> None:
    total = 0
    for i, p in enumerate(random_play(england, 150, seed)):
        if i % 25 == 0:
            total += _check_state(p.state) + _check_ships(p.state)
    assert total > 0


def _every_unit(state: GameState) -> dict[str, object]:
    return {u: legal_destinations(state, u) for u in (*state.nobles, *state.ships, *state.armies)}


def _kept_agrees_with_fresh(states: list[GameState]) -> int:
    """The judgments one state carries to the next (``queries._shared``, kept on the
    board by the state's movement signature) give the answers a state judged afresh
    gives, for every unit, factions and states alike (issue 16)."""
    compared = 0
    for state in states:
        kept = _every_unit(state)
        state.board.memo.pop("movement", None)
        assert kept == _every_unit(state.evolve())
        compared += len(kept)
    return compared


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_judgments_kept_across_states_agree_with_fresh_ones(england: GameState, seed: int) -> None:
    states = [p.state for p in random_play(england, 120, seed)]
    assert _kept_agrees_with_fresh(states[::3]) > 0


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_judgments_kept_across_states_agree_in_the_full_game(seed: int) -> None:
    from kingmaker.data import load_dataset
    from kingmaker.rules.deal import new_game
    from kingmaker.simulation_full import random_full_play

    ds = load_dataset()
    start = new_game(
        ds.board,
        ds.catalog,
        ("red", "blue", "green", "gold"),
        f"kept-{seed}",
        removed=ds.setup.removed,
        full_game=True,
    )
    states = [p.state for p in random_full_play(start, 400, seed)]
    assert _kept_agrees_with_fresh(states[::8]) > 0
