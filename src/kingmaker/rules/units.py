"""Units (nobles, ships, armies and fleets): what they are, where, and whose."""

from __future__ import annotations

from .board import default_name
from .state import GameState

NOBLE = "noble"
SHIP = "ship"
ARMY = "army"
FLEET = "fleet"


def unit_kind(state: GameState, uid: str) -> str | None:
    if uid in state.nobles:
        return NOBLE
    if uid in state.ships:
        return SHIP
    army = state.armies.get(uid)
    if army is not None:
        return FLEET if army.fleet else ARMY
    return None


def unit_place(state: GameState, uid: str) -> str | None:
    """The place a unit is at (a passenger is at its ship's place; an army at its members')."""
    n = state.nobles.get(uid)
    if n is not None:
        if n.aboard is not None:
            return state.ships[n.aboard].place
        return n.place
    s = state.ships.get(uid)
    if s is not None:
        return s.place
    a = state.armies.get(uid)
    if a is not None and a.units:
        return unit_place(state, a.units[0])
    return None


def owner(state: GameState, uid: str) -> str | None:
    """The faction a noble or ship belongs to (None for anything else)."""
    n = state.nobles.get(uid)
    if n is not None:
        return n.faction
    s = state.ships.get(uid)
    return s.faction if s is not None else None


def unit_faction(state: GameState, uid: str) -> str | None:
    """The faction of a noble or ship, or the commanding faction of an army or fleet."""
    if uid in state.armies:
        return commander(state, uid)
    return owner(state, uid)


def commander(state: GameState, army_id: str) -> str | None:
    """The faction that orders an army or fleet: its senior officer's (ALLY.6).
    None for a fleet with no passengers (each ship is ordered on its own)."""
    a = state.armies[army_id]
    if a.senior is None:
        return None
    return state.nobles[a.senior].faction if a.senior in state.nobles else None


def fleet_nobles(state: GameState, ships: tuple[str, ...]) -> tuple[str, ...]:
    """The passengers of these ships: a fleet's nobles."""
    return tuple(sorted(p for s in ships for p in state.ships[s].passengers))


def places_of_faction(state: GameState, faction: str) -> frozenset[str]:
    """Every place where ``faction`` has a unit (nobles inside or in the open,
    passengers at their ship's place, ships in port or at sea)."""
    out: set[str] = set()
    for n in state.nobles.values():
        if n.faction == faction:
            p = state.ships[n.aboard].place if n.aboard is not None else n.place
            if p is not None:
                out.add(p)
    for s in state.ships.values():
        if s.faction == faction:
            out.add(s.place)
    return frozenset(out)


def name(state: GameState, ident: str | None) -> str:
    """A readable name for a unit, place, sea zone, card or army."""
    if ident is None:
        return "nobody"
    cat = state.catalog
    for table in (cat.nobles, cat.ships, cat.heirs):
        card = table.get(ident)
        if card is not None:
            return card.name
    if ident in state.board.places or ident in state.board.seas:
        return state.board.name_of(ident)
    if ident in state.armies:
        return f"{'fleet' if state.armies[ident].fleet else 'army'} {ident}"
    if ident in cat.awards:
        return cat.awards[ident].name
    return default_name(ident)


def names(state: GameState, idents: tuple[str, ...] | list[str]) -> str:
    """``Percy``, ``Percy and Neville``, ``Percy, Neville and Stanley``."""
    parts = [name(state, i) for i in idents]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]
