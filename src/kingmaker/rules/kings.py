"""Kings (FULL_GAME 3.1): the crowned heirs, the King of a house and the sole King."""

from __future__ import annotations

from .state import GameState


def crowned(state: GameState) -> tuple[str, ...]:
    """The living crowned heirs, sorted by id."""
    return tuple(sorted(h.id for h in state.heirs.values() if h.crowned))


def sole_king(state: GameState) -> str | None:
    """The sole King: the one living crowned heir, when there is exactly one (3.1)."""
    kings = crowned(state)
    return kings[0] if len(kings) == 1 else None


def king_of(state: GameState, house: str) -> str | None:
    """The living crowned heir of ``house`` (at most one: CROWN.succession)."""
    kings = [h.id for h in state.heirs.values() if h.crowned and h.house == house]
    return min(kings) if kings else None
