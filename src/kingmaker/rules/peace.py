"""The King's Peace (PARL.peace, F19): from its summons until the summoner's next turn
begins, no attack or siege may be ordered at the place where Parliament sits.

Checked by the combat rules (``combat.decide_attack``, ``combat.siege_checks``, which
R3 landings share) right after ALLY.12, as FULL_GAME 3.11 orders the refusals.
"""

from __future__ import annotations

from . import ids
from .decision import Refusal
from .state import GameState, Summoned
from .units import name


def peace_until(state: GameState, summoner: str) -> tuple[int, int]:
    """The round and turn index at which ``summoner``'s next turn begins, seen from the
    turn now (its own turn: the next round's)."""
    i = state.turn_order.index(summoner)
    return (state.round, i) if i > state.turn_index else (state.round + 1, i)


def peace_at(state: GameState, place: str | None) -> Summoned | None:
    """The summons whose King's Peace holds at ``place`` now, if any."""
    s = state.summoned
    if s is None or place is None or s.seat != place:
        return None
    return s if (state.round, state.turn_index) < (s.until_round, s.until_index) else None


def check_peace(state: GameState, place: str | None, what: str, unit: str | None = None) -> None:
    """Refuse ``what`` (an attack or a siege, said as "Percy may not attack Stafford")
    at ``place`` while the King's Peace holds there (PARL.peace)."""
    s = peace_at(state, place)
    if s is None:
        return
    raise Refusal(
        ids.PARL_PEACE,
        f"{what}: the King's Peace holds at {name(state, place)}, where Parliament was summoned, "
        f"until {s.summoner}'s next turn begins ({ids.PARL_PEACE})",
        unit=unit,
        place=place,
    )
