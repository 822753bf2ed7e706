"""EXEC.two_houses (FULL_GAME 3.6, PC22; option ``two_houses_limit``, off by default): a
faction may not control heirs of both houses for more than two consecutive turns.

The reading (docs/rulings.md 76): the turns counted are the faction's
own. At the end of each of its turns (after the executions of unransomed captives,
before the victory check) a faction that controls heirs of both houses counts one more
turn; one that does not starts again from nought. Until the end of its third such turn
it may give one house up itself (EXEC.heir: execute an heir, or lose him); if it still
controls both then, it has held them "for more than two consecutive turns", and the
house it would keep least is given up for it: every heir of that house it controls is
executed (PC22: "After that, one or the other Heir must be executed"). It keeps the
house of which it controls the most heirs; on a tie, the house of the crowned heir it
controls; then the house whose heir it controls stands highest in the succession; then
the house first by id. Beaufort, an heir who is his own noble (3.13.4), is never
counted: he dies only as a noble does.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import events as ev
from . import ids
from .kings import controller, noble_heir
from .state import GameState
from .units import names

#: The option, and the turns a faction may end controlling heirs of both houses.
OPTION = "two_houses_limit"
LIMIT = 2


@dataclass(frozen=True, slots=True)
class TwoHouses:
    """The events of the check at a turn's end, the clause that says them ("" for none)
    and the heirs executed."""

    events: tuple[ev.Event, ...] = ()
    clause: str = ""
    executed: tuple[str, ...] = ()


def houses_held(state: GameState, faction: str) -> dict[str, tuple[str, ...]]:
    """The heirs ``faction`` controls, by house, each house's in succession order
    (Beaufort left out)."""
    out: dict[str, list[str]] = {}
    for h in sorted(state.heirs.values(), key=lambda h: (h.order, h.id)):
        if controller(state, h.id) == faction and not noble_heir(state, h.id):
            out.setdefault(h.house, []).append(h.id)
    return {house: tuple(heirs) for house, heirs in sorted(out.items())}


def kept_house(state: GameState, held: dict[str, tuple[str, ...]]) -> str:
    """The house a faction holding heirs of several houses keeps: the most heirs, then a
    crowned heir, then the heir highest in the succession, then the first by id."""

    def rank(house: str) -> tuple[int, int, int, str]:
        heirs = [state.heirs[h] for h in held[house]]
        crowned = any(h.crowned for h in heirs)
        return (-len(heirs), 0 if crowned else 1, min(h.order for h in heirs), house)

    return min(held, key=rank)


def two_houses_at_turn_end(state: GameState) -> TwoHouses:
    """The check of EXEC.two_houses when the turn of ``state.turn`` ends (nothing while
    the option is off)."""
    if not state.option_on(OPTION):
        return TwoHouses()
    faction = state.turn
    before = state.two_houses.get(faction, 0)
    held = houses_held(state, faction)
    if len(held) < 2:
        return TwoHouses((ev.HousesHeldCounted(faction, 0),) if before else ())
    turns = before + 1
    if turns <= LIMIT:
        clause = (
            f"{faction} ends its {_nth(turns)} turn in a row controlling heirs of both houses; if it still "
            f"controls both when its {_nth(LIMIT + 1)} ends, it gives one house up ({ids.EXEC_TWO_HOUSES})"
        )
        return TwoHouses((ev.HousesHeldCounted(faction, turns),), clause)
    kept = kept_house(state, held)
    gone = tuple(h for house, heirs in held.items() if house != kept for h in heirs)
    verb = "is" if len(gone) == 1 else "are"
    clause = (
        f"{faction} ends its {_nth(turns)} turn in a row controlling heirs of both houses, more than the {LIMIT} "
        f"allowed: it keeps "
        f"{names(state, list(held[kept]))}, and {names(state, list(gone))} {verb} executed ({ids.EXEC_TWO_HOUSES})"
    )
    events: list[ev.Event] = [ev.HeirDied(h, "execution") for h in gone]
    events.append(ev.HousesHeldCounted(faction, 0))
    return TwoHouses(tuple(events), clause, gone)


def _nth(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")
