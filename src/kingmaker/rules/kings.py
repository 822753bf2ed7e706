"""Heirs and Kings (FULL_GAME 3.1): who counts as an heir, the senior heir of a house,
who controls an heir and where he is, the crowned heirs, the King of a house and the
sole King (exactly one living crowned heir, or the one a ``sole_king`` motion made sole
King while two reign: PARL.two_kings)."""

from __future__ import annotations

from dataclasses import replace

from . import events as ev
from . import ids
from .decision import Decision
from .state import GameState, Heir
from .units import name

#: The King crowned when the game begins (QR; VICTORY.hold leaves him out).
HENRY_VI = "henry_vi"


def crowned(state: GameState) -> tuple[str, ...]:
    """The living crowned heirs, sorted by id."""
    return tuple(sorted(h.id for h in state.heirs.values() if h.crowned))


def sole_king(state: GameState) -> str | None:
    """The sole King: the one living crowned heir, when there is exactly one (3.1); with
    two Kings, the one a passed ``sole_king`` motion named while it lasts (PARL.two_kings)."""
    kings = crowned(state)
    if len(kings) == 1:
        return kings[0]
    p = state.proclaimed
    if p is not None and p.king in kings:
        return p.king
    return None


def king_of(state: GameState, house: str) -> str | None:
    """The living crowned heir of ``house`` (at most one: CROWN.succession)."""
    kings = [h.id for h in state.heirs.values() if h.crowned and h.house == house]
    return min(kings) if kings else None


def noble_heir(state: GameState, heir: str) -> bool:
    """Whether ``heir`` is a noble card himself (Beaufort, 3.13.4)."""
    card = state.catalog.heirs.get(heir)
    return card is not None and card.noble is not None


def others_of_house(state: GameState, heir: Heir) -> tuple[str, ...]:
    """The other living heirs of ``heir``'s house who are no noble card (for Beaufort:
    the other Lancastrians, who keep him from counting as an heir: 3.1)."""
    return tuple(
        sorted(
            h.id
            for h in state.heirs.values()
            if h.house == heir.house and h.id != heir.id and not noble_heir(state, h.id)
        )
    )


def counts(state: GameState, heir: str) -> bool:
    """Whether a living ``heir`` counts as an heir (3.1): Beaufort only while no other
    heir of his house lives."""
    h = state.heirs.get(heir)
    if h is None:
        return False
    return not noble_heir(state, heir) or not others_of_house(state, h)


def living_heirs(state: GameState) -> tuple[str, ...]:
    """Every heir who lives and counts as an heir (3.1), sorted by id."""
    return tuple(sorted(h for h in state.heirs if counts(state, h)))


def senior_heir(state: GameState, house: str) -> str | None:
    """The senior heir of ``house``: its living heir earliest in the succession (3.1)."""
    line = [h for h in state.heirs.values() if h.house == house and counts(state, h.id)]
    return min(line, key=lambda h: (h.order, h.id)).id if line else None


def controller(state: GameState, heir: str) -> str | None:
    """The faction that controls ``heir``: his escort's (3.1); None when unescorted."""
    h = state.heirs.get(heir)
    if h is None or h.with_noble is None:
        return None
    n = state.nobles.get(h.with_noble)
    return n.faction if n is not None and n.captive_of is None else None


def heir_place(state: GameState, heir: str) -> tuple[str | None, bool]:
    """Where ``heir`` is and whether inside: his escort's place (a passenger of a ship
    in port: the port, in the open; at sea: None), else his own place."""
    h = state.heirs[heir]
    if h.with_noble is None:
        return h.place, h.inside
    n = state.nobles.get(h.with_noble)
    if n is None:
        return None, False
    if n.aboard is not None:
        ship = state.ships.get(n.aboard)
        return (ship.place, False) if ship is not None and ship.in_port else (None, False)
    return n.place, n.inside


def in_england(state: GameState, heir: str) -> bool:
    """Whether ``heir`` is in England (VICTORY.last_heir): at a place not marked
    ``england: false`` (Ireland, Calais, abroad), and not at sea."""
    place, _ = heir_place(state, heir)
    p = state.board.places.get(place) if place is not None else None
    return p is not None and not p.offmap


def with_proclamation_end(before: GameState, after: GameState, d: Decision) -> Decision:
    """``d`` with the end of the sole King's proclamation its events brought about: the
    King it named died or was captured (PARL.two_kings, F21: "until he dies or is
    captured"); captured means another faction's noble now escorts him."""
    p = after.proclaimed
    if p is None or not d.accepted:
        return d
    h = after.heirs.get(p.king)
    if h is None:
        reason = "died"
    elif h.with_noble is not None and controller(after, p.king) not in (None, p.faction):
        reason = "captured"
    else:
        return d
    text = (
        f"{d.explanation}; {name(before, p.king)} {reason}, so he is no longer sole King "
        f"({ids.PARL_TWO_KINGS})"
    )
    return replace(d, explanation=text, events=(*d.events, ev.ProclamationEnded(p.king, reason)))
