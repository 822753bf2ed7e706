"""``orderable_units`` and ``candidate_orders`` agree with ``decide`` (issue 11 §4), and
nothing they tell a faction depends on a secret it may not know (issue 11 §3.1).

The oracle is written independently of the module under test: every one-step order a
unit could be given (a move or voyage of one link, entering, leaving, a siege, an
attack on anyone, embarking on or landing at anything), judged by ``decide``. A longer
move or voyage accepted by ``decide`` implies its first step, stopping there, is
accepted too, so one-step orders decide whether a unit can take any order at all.
"""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from kingmaker.rules import commands as c
from kingmaker.rules.candidates import candidate_orders, orderable_units
from kingmaker.rules.decide import decide, play
from kingmaker.rules.decision import Result
from kingmaker.rules.state import GameState
from kingmaker.rules.views import as_seen_by
from kingmaker.simulation import random_play


def _one_step_orders(state: GameState, unit: str, by: str) -> Iterator[c.Command]:
    board = state.board
    if unit in state.ships or (unit in state.armies and state.armies[unit].fleet):
        ship = state.ships[state.armies[unit].units[0] if unit in state.armies else unit]
        here = board.places[ship.place] if ship.in_port else None
        zones = here.seas if here is not None else board.sea_neighbours(ship.place)
        for z in zones:
            yield c.Sail(by, unit, z)
        for p in board.places.values():
            if p.is_port and p.id != ship.place:
                yield c.Sail(by, unit, p.id)
            if p.is_port and ship.passengers:
                for enter in (False, True):
                    yield c.Disembark(by, unit, ship.passengers, p.id, enter)
                    for n in ship.passengers:
                        yield c.Disembark(by, unit, (n,), p.id, enter)
        for n in state.nobles:
            yield c.Embark(by, unit, (n,))
        return
    here_id = state.nobles[state.armies[unit].units[0] if unit in state.armies else unit].place
    if here_id is None:
        return
    yield c.Enter(by, unit)
    yield c.Leave(by, unit)
    yield c.Siege(by, unit, here_id)
    for target in (*state.nobles, *state.armies):
        yield c.Attack(by, unit, target)
    for ship in state.ships:
        yield c.Embark(by, ship, (unit,))
    for to in sorted(board.road_neighbours(here_id)):
        for enter in (False, True):
            yield c.MoveRoad(by, unit, (here_id, to), enter)
    for to in sorted(board.neighbours(here_id)):
        for enter in (False, True):
            yield c.Move(by, unit, to, enter)


def _oracle(state: GameState, faction: str) -> set[str]:
    """Every unit some one-step order by ``faction`` is accepted for (or waits for a
    consent)."""
    out = set()
    for unit in (*state.nobles, *state.ships, *state.armies):
        for cmd in _one_step_orders(state, unit, faction):
            if decide(state, cmd).result is not Result.REFUSED:
                out.add(unit)
                break
    return out


def _check(state: GameState) -> int:
    checked = 0
    for faction in state.turn_order:
        offered = {u.id for u in orderable_units(state, faction)}
        assert offered == _oracle(state, faction), faction
        for uid in offered:
            cands = candidate_orders(state, uid, faction)
            assert any(decide(state, x.command).result is not Result.REFUSED for x in cands), uid
            for x in cands:
                d = decide(state, x.command)
                assert (d.result, d.rule, d.explanation) == (x.result, x.rule, x.explanation)
            checked += 1
    return checked


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_orderable_units_are_exactly_those_decide_accepts_an_order_for(
    mini_world: GameState, seed: int
) -> None:
    total = 0
    for i, p in enumerate(random_play(mini_world, 200, seed)):
        if i % 8 == 0:
            total += _check(p.state)
    assert total > 0


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_orderable_units_on_the_default_map(england: GameState, seed: int) -> None:
    total = 0
    for i, p in enumerate(random_play(england, 120, seed)):
        if i % 30 == 0:
            total += _check(p.state)
    assert total > 0


def _secret_blind(state: GameState) -> tuple[int, int]:
    """For every faction: what ``candidate_orders`` says of each unit it might order
    reads the same on the real state and on the state without the secrets it may not
    know, whenever the verdict (result and rule) is the same. Returns (comparisons,
    comparisons where the two states differed)."""
    compared = differed = 0
    for faction in state.turn_order:
        blind = as_seen_by(state, faction)
        hidden = (
            blind.alliances.keys() != state.alliances.keys()
            or blind.requests.keys() != state.requests.keys()
            or blind.defences != state.defences
            or blind.permissions != state.permissions
            or blind.orders != state.orders
        )
        units = {u.id for u in orderable_units(state, faction)} | {
            u.id for u in orderable_units(blind, faction)
        }
        for uid in sorted(units):
            # the same order (a route found through an ally's places may differ, as its
            # verdict does: the rules judge an ally's unit by its own faction's standing)
            real = {(x.action, x.target, x.command): x for x in candidate_orders(state, uid, faction)}
            seen = {(x.action, x.target, x.command): x for x in candidate_orders(blind, uid, faction)}
            for key in real.keys() & seen.keys():
                a, b = real[key], seen[key]
                if (a.result, a.rule) == (b.result, b.rule):
                    assert a.explanation == b.explanation, (faction, key)
                    compared += 1
                    differed += hidden
    return compared, differed


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_explanations_tell_a_faction_nothing_it_may_not_know(mini_world: GameState, seed: int) -> None:
    compared = with_secrets = 0
    for i, p in enumerate(random_play(mini_world, 300, seed)):
        if i % 6 == 0:
            a, b = _secret_blind(p.state)
            compared, with_secrets = compared + a, with_secrets + b
    assert compared > 0


def test_an_attack_preview_does_not_name_a_secret_defender(mini_world: GameState) -> None:
    """Issue 11 §3.1: as blue, ``Hastings ATTACKS Cromwell`` answered "Hastings attacks
    Cromwell and Stafford" because Stafford had chosen to defend with Cromwell, which
    only the two nobles' factions (secretly allied) may know."""
    s = _defence_set_up(mini_world)
    attacker, target, defender, by = s.attacker, s.target, s.defender, s.by
    cmd = c.Attack(by, attacker, target)
    d = decide(s.state, cmd)
    assert d.result is Result.ACCEPTED, d.explanation
    assert s.name_of(defender) not in d.explanation
    assert s.name_of(target) in d.explanation
    attack = [
        x for x in candidate_orders(s.state, attacker, by) if x.action == "attack" and x.target == target
    ]
    assert attack and s.name_of(defender) not in attack[0].explanation
    # the defenders' own factions, and the GM's record of the battle, still know it
    after, _ = play(s.state, cmd)
    assert defender in after.combats[-1].defenders


class _DefenceCase:
    def __init__(self, state: GameState, attacker: str, target: str, defender: str, by: str):
        self.state, self.attacker, self.target, self.defender, self.by = state, attacker, target, defender, by

    def name_of(self, noble: str) -> str:
        return self.state.catalog.name_of(noble)


def _defence_set_up(world: GameState) -> _DefenceCase:
    """Three nobles of three factions at one place in the open; the target's and the
    defender's factions secretly allied, the defender defending with the target."""
    import dataclasses

    place = next(p.id for p in world.board.places.values() if not p.kind.is_location)
    by = world.turn
    others = [f for f in world.turn_order if f != by]
    pick = {by: None, others[0]: None, others[1]: None}
    for n in sorted(world.nobles.values(), key=lambda n: n.id):
        if n.faction in pick and pick[n.faction] is None:
            pick[n.faction] = n.id
    attacker, target, defender = pick[by], pick[others[0]], pick[others[1]]
    assert attacker and target and defender
    nobles = dict(world.nobles)
    for nid in (attacker, target, defender):
        nobles[nid] = dataclasses.replace(nobles[nid], place=place, inside=False, aboard=None)
    from kingmaker.rules.frozen import FrozenDict

    s = dataclasses.replace(world, nobles=FrozenDict(nobles))
    s, d = play(s, c.DeclareAlliance(others[0], "pact", (others[1],)))
    s, d = play(s, c.AnswerAlliance(others[1], "pact", True))
    assert d.accepted
    s, d = play(s, c.Defend(others[1], defender, target))
    assert d.accepted, d.explanation
    return _DefenceCase(s, attacker, target, defender, by)


def test_the_secrecy_comparison_meets_secrets(mini_world: GameState) -> None:
    """The comparison is not vacuous: over a long game, many of its comparisons are
    made where the faction's blind state really lacks secrets."""
    with_secrets = 0
    for i, p in enumerate(random_play(mini_world, 1500, 7)):
        if i % 10 == 0:
            with_secrets += _secret_blind(p.state)[1]
    assert with_secrets > 50
