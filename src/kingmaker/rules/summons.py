"""Summonses and embassies (EVENT.summons, EVENT.summons.void, EVENT.embassy, F17): the
target goes to the card's place at once, with the heirs he escorts; inside if the place
is friendly to him or an unoccupied open or unfortified town, otherwise in the open. He
leaves his army (R17). It is no order (ALLY.5 untouched). A summons is void when its
target is dead, not in play, captive, under siege or at sea.

Readings of this project (docs/rulings.md, "The full game"): a noble summoned to a place
under siege, or one he would overfill (LOC.capacity), stands in the open there; a
passenger of a ship in port lands; an embassy sends an unescorted King alone, inside
only an unoccupied open or unfortified town.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import events as ev
from . import ids
from .apply import replay
from .armies import settle_armies
from .cards import Embassy, King, Summons
from .kings import king_of, sole_king
from .potential import held_inside, potential
from .state import GameState, Noble
from .status import status
from .units import name, names

#: The flag a summons sets on a noble it moved this turn (a Writ may answer it):
#: ``summoned:<noble>:<place he left>:<in|at>:<place he went to>``.
SUMMONED = "summoned"


@dataclass(frozen=True, slots=True)
class Placement:
    """What a summons does: its rule (EVENT.summons, EVENT.embassy, or
    EVENT.summons.void), its events, and a clause saying why."""

    rule: str
    events: list[ev.Event]
    text: str

    @property
    def void(self) -> bool:
        return self.rule == ids.EVENT_SUMMONS_VOID


def void_reason(state: GameState, noble: str) -> str | None:
    """Why ``noble`` cannot be summoned (EVENT.summons.void), or None if he can."""
    if noble in state.dead:
        return "he is dead"
    n = state.nobles.get(noble)
    if n is None:
        return "he is not in play"
    if n.captive_of is not None:
        return f"he is {n.captive_of}'s captive"
    if n.aboard is not None and not state.ships[n.aboard].in_port:
        return "he is at sea"
    if n.inside and n.place in state.sieges:
        return f"he is under siege in {name(state, n.place)}"
    return None


def goes_inside(state: GameState, faction: str | None, place_id: str, troops: int) -> bool:
    """Whether a summoned noble (or a King sent alone: ``faction`` None) goes inside the
    location at ``place_id``: it is friendly to him, or an open or unfortified town no
    noble occupies; not while it is under siege (SIEGE.sealed), nor past its capacity."""
    place = state.board.places[place_id]
    if not place.kind.is_location or place_id in state.sieges:
        return False
    st = status(state, place, faction)
    unoccupied = not state.inside_by_place.get(place_id)
    if not (st == ids.FRIENDLY and faction is not None) and not (
        st in (ids.OPEN, ids.UNFORTIFIED) and unoccupied
    ):
        return False
    return place.capacity is None or held_inside(state, place_id) + troops <= place.capacity


def place_noble(
    state: GameState, noble: str, place_id: str, rule: str, why: str, *, named: bool = True
) -> Placement:
    """``noble`` summoned to ``place_id`` (already judged not void); ``why`` opens the
    clause, and already names him when ``named``."""
    n: Noble = state.nobles[noble]
    if place_id not in state.board.places:
        return Placement(ids.EVENT_SUMMONS_VOID, [], f"{why} is void: {place_id} is not on this map")
    already_inside = n.inside and n.place == place_id
    inside = goes_inside(state, n.faction, place_id, 0 if already_inside else potential(state, noble))
    events: list[ev.Event]
    if n.aboard is not None:
        events = [ev.Landed(n.aboard, (noble,), place_id, inside)]
    else:
        events = [ev.NobleMoved(noble, place_id, inside, (n.place or place_id, place_id))]
    origin = n.place if n.aboard is None else state.ships[n.aboard].place
    if rule != ids.EVENT_EMBASSY:  # a Writ answers summonses only
        flag = f"{SUMMONED}:{noble}:{origin}:{'in' if n.inside and n.aboard is None else 'at'}:{place_id}"
        events.append(ev.EventFlagSet(flag))
    events += settle_armies(state, events, (noble,))
    escorted = [h.id for h in state.heirs.values() if h.with_noble == noble]
    heirs = f" with {names(state, sorted(escorted))}" if escorted else ""
    does = f"goes inside{heirs}" if inside else f"stands in the open there{heirs}"
    who = " and" if named else f": {name(state, noble)}"
    return Placement(rule, events, f"{why}{who} {does}")


def summons(state: GameState, card: Summons) -> Placement:
    """EVENT.summons: a named noble, or the holder of a named award, goes to the place."""
    if card.target is not None:
        target = card.target
        why = f"{name(state, card.target)} is summoned to {name(state, card.place)}"
    else:
        assert card.holder is not None
        holders = sorted(
            n.id for n in state.nobles.values() if card.holder in n.awards and n.captive_of is None
        )
        captive = sorted(n.id for n in state.nobles.values() if card.holder in n.awards)
        why = f"the {name(state, card.holder)} is summoned to {name(state, card.place)}"
        if not holders and not captive:
            return Placement(
                ids.EVENT_SUMMONS_VOID, [], f"{why}, but no noble in play holds it, so it is void"
            )
        target = holders[0] if holders else captive[0]
        why = (
            f"{name(state, target)}, the {name(state, card.holder)}, is summoned to {name(state, card.place)}"
        )
    reason = void_reason(state, target)
    if reason is not None:
        return Placement(ids.EVENT_SUMMONS_VOID, [], f"{why}, but {reason}, so it is void")
    return place_noble(state, target, card.place, ids.EVENT_SUMMONS, why)


def embassy(state: GameState, card: Embassy) -> Placement:
    """EVENT.embassy: the sole King, or the King of a house, goes to the place with his
    escort, as a summons of the escort."""
    if card.king is King.SOLE:
        king, which = sole_king(state), "the sole King"
    else:
        king, which = (
            king_of(state, card.king.value),
            f"the King of the house of {card.king.value.capitalize()}",
        )
    why = f"an embassy sends {which} to {name(state, card.place)}"
    if king is None:
        return Placement(ids.EVENT_SUMMONS_VOID, [], f"{why}, but there is none, so it is void")
    heir = state.heirs[king]
    if heir.with_noble is not None:
        reason = void_reason(state, heir.with_noble)
        if reason is not None:
            return Placement(
                ids.EVENT_SUMMONS_VOID, [], f"{why}, but his escort cannot go: {reason}, so it is void"
            )
        return place_noble(state, heir.with_noble, card.place, ids.EVENT_EMBASSY, why, named=False)
    if card.place not in state.board.places:
        return Placement(
            ids.EVENT_SUMMONS_VOID, [], f"{why}, but {card.place} is not on this map, so it is void"
        )
    inside = goes_inside(state, None, card.place, 0)
    where = "inside" if inside else "and stands in the open there"
    return Placement(
        ids.EVENT_EMBASSY,
        [ev.HeirMoved(king, None, card.place, inside)],
        f"{why}: {name(state, king)}, unescorted, goes alone {where}",
    )


def summoned_this_turn(state: GameState, noble: str) -> tuple[str, bool, str] | None:
    """Where a summons of this turn took ``noble`` from (place, inside) and to; None if
    no summons moved him this turn."""
    for flag in reversed(state.event_flags):
        parts = flag.split(":")
        if len(parts) == 5 and parts[0] == SUMMONED and parts[1] == noble:
            return parts[2], parts[3] == "in", parts[4]
    return None


def swap(state: GameState, summoned: str, substitute: str) -> Placement:
    """A Writ answers a summons (EVENT.held): ``summoned`` goes back to where he stood
    and ``substitute`` is summoned in his place."""
    origin = summoned_this_turn(state, summoned)
    assert origin is not None
    back, inside, to = origin
    events: list[ev.Event] = [ev.NobleMoved(summoned, back, inside, (to, back))]
    s1 = replay(state, events)
    why = (
        f"{name(state, summoned)} goes back to {name(state, back)} and {name(state, substitute)} "
        f"is summoned to {name(state, to)} in his place"
    )
    placed = place_noble(s1, substitute, to, ids.EVENT_HELD, why)
    return Placement(ids.EVENT_HELD, events + placed.events, placed.text)
