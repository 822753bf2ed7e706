"""ALLY.6: forming an army (nobles) or fleet (ships and their passengers) at one place,
with every other faction's consent, and naming its senior officer (ALLY.7)."""

from __future__ import annotations

from . import events as ev
from . import ids
from .armies import senior_events
from .commands import FormArmy
from .context import Pending, invalid
from .decision import Decision, Refusal, Result
from .state import GameState
from .units import fleet_nobles, name, owner


def decide_form_army(state: GameState, cmd: FormArmy, confirmed: bool = False) -> Decision:
    if cmd.id in state.armies or cmd.id in state.nobles or cmd.id in state.ships:
        raise invalid(f"the id {cmd.id!r} is already taken")
    units = tuple(sorted(set(cmd.units)))
    if len(units) < 2:
        raise invalid("an army or fleet needs at least two units")
    where: set[tuple[str | None, bool]] = set()
    for u in units:
        if cmd.fleet:
            s = state.ships.get(u)
            if s is None:
                raise invalid(f"there is no ship {u!r} to join a fleet", unit=u)
            where.add((s.place, s.in_port))
        else:
            n = state.nobles.get(u)
            if n is None:
                raise invalid(f"there is no noble {u!r} to join an army", unit=u)
            if n.aboard is not None:
                raise invalid(f"{name(state, u)} is aboard {name(state, n.aboard)}", unit=u)
            where.add((n.place, n.inside))
        if u in state.army_of:
            raise invalid(f"{name(state, u)} already belongs to {name(state, state.army_of[u])}", unit=u)
    if len(where) > 1:
        raise invalid("the units of an army or fleet must all be at one place", unit=units[0])
    factions = {owner(state, u) for u in units}
    for f in sorted(x or "" for x in factions):
        if f != cmd.by and not state.allied(cmd.by, f):
            raise Refusal(
                ids.ORDER_FOREIGN,
                f"{cmd.by} may not take units of {f or 'no faction'}, not allied with it, into an army "
                f"({ids.ORDER_FOREIGN})",
            )
    # R23: outside one's own turn ALLY.6 refuses, after ORDER.foreign (FORMAT.md's order)
    if cmd.by != state.turn:
        raise Refusal(
            ids.ALLY_6,
            f"{cmd.by} may form an army or fleet only on its own turn; it is {state.turn}'s turn ({ids.ALLY_6})",
        )
    if cmd.by not in factions:
        raise Refusal(
            ids.ALLY_6,
            f"an army or fleet formed by {cmd.by} must include at least one of its own units ({ids.ALLY_6})",
        )
    awaiting = tuple(sorted(f for f in factions if f is not None and f != cmd.by))
    if awaiting and not confirmed:
        raise Pending(awaiting)
    events, _, senior, senior_rule = senior_events(state, cmd.id, units, cmd.fleet, state.rng)
    army_set = next(e for e in events if isinstance(e, ev.ArmySet))
    nobles = fleet_nobles(state, units) if cmd.fleet else units
    noble_factions = {state.nobles[n].faction for n in nobles} | factions
    reveal = sorted(
        a.id for a in state.alliances.values() if not a.public and len(noble_factions & set(a.members)) >= 2
    )
    if reveal:
        events.append(ev.AlliancesRevealed(tuple(reveal)))
    what = "fleet" if cmd.fleet else "army"
    return Decision(
        Result.ACCEPTED,
        ids.ALLY_6,
        f"{what} {cmd.id} is formed; " + (army_set.explanation or "it has no senior officer"),
        tuple(events),
        unit=cmd.id,
        senior=senior,
        senior_rule=senior_rule,
        request=cmd.id,
    )
