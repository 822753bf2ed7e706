"""Troop potential (ruling R9) and what a location or ship holds."""

from __future__ import annotations

from collections.abc import Iterable

from .state import GameState


def potential(state: GameState, noble_id: str) -> int:
    """A noble's own troops plus the troops of all its crown items, regional troops
    counted as if usable everywhere (ruling R9)."""
    n = state.nobles[noble_id]
    total = n.troops
    if n.awards:
        awards = state.catalog.awards
        for a in n.awards:
            card = awards.get(a)
            if card is not None:
                total += card.potential
    return total


def total_potential(state: GameState, noble_ids: Iterable[str]) -> int:
    return sum(potential(state, n) for n in noble_ids)


def held_inside(state: GameState, place_id: str) -> int:
    """Troops inside a location: the potentials of every noble inside, any faction."""
    memo = state.troops_inside
    total = memo.get(place_id)
    if total is None:
        total = memo[place_id] = total_potential(state, state.inside_by_place.get(place_id, ()))
    return total


def carried(state: GameState, ship_id: str) -> int:
    """Troops aboard a ship."""
    return total_potential(state, state.ships[ship_id].passengers)
