"""``apply`` for the events of issue 14 (docs/full-game.md): nobles and ships coming
into play from a hand, coronations, the sole King a motion makes, the VICTORY.hold
count, the EXEC.two_houses count and the end of the game.

Registered with ``apply`` on import (``apply`` imports this module last)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import events as ev
from .apply import on
from .frozen import FrozenDict
from .state import GameState, Heir, KingHeld, Noble, Proclamation, Ship


def _without_card(state: GameState, faction: str, card: str) -> FrozenDict[str, tuple[str, ...]]:
    """The hands with one copy of ``card`` taken out of ``faction``'s."""
    hand = list(state.hands.get(faction, ()))
    if card in hand:
        hand.remove(card)
    return state.hands.set(faction, tuple(hand)) if hand else state.hands.without(faction)


@on(ev.NobleEntered)
def _noble_entered(state: GameState, e: ev.NobleEntered) -> dict[str, Any]:
    card = state.catalog.nobles.get(e.noble)
    troops = card.troops if card is not None else 0
    noble = Noble(e.noble, e.faction, troops, (), e.place, e.inside)
    heirs = dict(state.heirs)
    for h in state.catalog.heirs.values():  # Beaufort: the heir is the noble himself (3.13.4)
        if h.noble == e.noble and h.id not in heirs:
            heirs[h.id] = Heir(h.id, h.house, h.order, False, e.noble, None, False)
    return {
        "nobles": state.nobles.set(e.noble, noble),
        "hands": _without_card(state, e.faction, e.noble),
        "heirs": FrozenDict(heirs),
    }


@on(ev.ShipEntered)
def _ship_entered(state: GameState, e: ev.ShipEntered) -> dict[str, Any]:
    card = state.catalog.ships.get(e.ship)
    capacity = card.capacity if card is not None else 0
    return {
        "ships": state.ships.set(e.ship, Ship(e.ship, e.faction, capacity, e.port, in_port=True)),
        "hands": _without_card(state, e.faction, e.ship),
    }


@on(ev.HeirCrowned)
def _heir_crowned(state: GameState, e: ev.HeirCrowned) -> dict[str, Any]:
    heir = state.heirs[e.heir]
    return {"heirs": state.heirs.set(e.heir, replace(heir, crowned=True))}


@on(ev.SoleKingProclaimed)
def _sole_king_proclaimed(state: GameState, e: ev.SoleKingProclaimed) -> dict[str, Any]:
    return {"proclaimed": Proclamation(e.king, e.faction)}


@on(ev.ProclamationEnded)
def _proclamation_ended(state: GameState, e: ev.ProclamationEnded) -> dict[str, Any]:
    return {"proclaimed": None}


@on(ev.KingHeldCounted)
def _king_held(state: GameState, e: ev.KingHeldCounted) -> dict[str, Any]:
    return {"king_held": KingHeld(e.king, e.faction, e.turns) if e.turns else None}


@on(ev.HousesHeldCounted)
def _houses_held(state: GameState, e: ev.HousesHeldCounted) -> dict[str, Any]:
    counts = state.two_houses
    return {"two_houses": counts.set(e.faction, e.turns) if e.turns else counts.without(e.faction)}


@on(ev.GameEnded)
def _game_ended(state: GameState, e: ev.GameEnded) -> dict[str, Any]:
    return {"game_over": e.rule, "winner": e.winner or ""}
