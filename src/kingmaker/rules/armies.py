"""Armies and fleets (ALLY.6, R17): forming them, and keeping their members and senior
officer right after every change."""

from __future__ import annotations

from collections.abc import Iterable

from . import events as ev
from .apply import replay
from .seniority import choose_senior
from .state import GameState, RandomSource
from .units import fleet_nobles


def senior_events(
    state: GameState, army_id: str, units: tuple[str, ...], fleet: bool, rng: RandomSource
) -> tuple[list[ev.Event], RandomSource, str | None, str | None]:
    """Events that set an army to ``units`` with its senior officer chosen anew."""
    nobles = fleet_nobles(state, units) if fleet else units
    s = choose_senior(state, nobles, fleet, rng)
    out: list[ev.Event] = [ev.RandomDrawn(n, pick, f"senior officer of {army_id}") for n, pick in s.draws]
    out.append(ev.ArmySet(army_id, tuple(sorted(units)), fleet, s.senior, s.rule, s.explanation))
    return out, s.rng or rng, s.senior, s.rule


def settle_armies(before: GameState, effects: list[ev.Event], leaving: Iterable[str] = ()) -> list[ev.Event]:
    """Army and fleet events that follow ``effects``: members ordered on their own
    leave (R17), an army of one unit ceases, and the senior officer is chosen again
    wherever the members (or a fleet's passengers) changed."""
    gone = set(leaving)
    if not before.armies or not (gone or _touches_fleet(before, effects)):
        return []
    after = replay(before, effects)
    out: list[ev.Event] = []
    rng = after.rng
    for army in before.armies.values():
        units = tuple(u for u in army.units if u not in gone and (u in after.nobles or u in after.ships))
        changed = units != army.units
        if not changed and army.fleet:
            changed = fleet_nobles(before, army.units) != fleet_nobles(after, army.units)
        if not changed:
            continue
        if len(units) < 2:
            out.append(ev.ArmyDisbanded(army.id))
            continue
        events, rng, _, _ = senior_events(after, army.id, units, army.fleet, rng)
        out.extend(events)
    return out


def _touches_fleet(state: GameState, effects: list[ev.Event]) -> bool:
    """Whether ``effects`` change a fleet's passengers (the only change to an army
    that is not a member leaving)."""
    fleets = {u for a in state.armies.values() if a.fleet for u in a.units}
    if not fleets:
        return False
    return any(isinstance(e, (ev.Embarked, ev.Landed)) and e.ship in fleets for e in effects)
