"""What follows a noble's death (EXEC.remains, F8, F16) and the spoils of the field
(BATTLE.spoils): the events every cause of death shares (battle, siege, plague,
execution), so that each module that kills decides nothing of this again.

- His noble card goes to the Crown discard; his titles, offices and sees to the
  Chancery; his other awards to the Crown discard, unless the winner of the field takes
  the transferable ones (towns, mercenaries) as spoils.
- Control his faction held only through one of his awards ends: the place becomes
  neutral and every noble inside goes out into the open there. Control won by a siege
  stays (``state.conquests``), and so does control another noble of his faction holds
  an award for.
- Heirs he escorted stay where he was, unescorted (CAPTURE.orphan); an heir who is the
  noble himself (Beaufort) dies with him.
- Armies he was in lose him (R17: a new senior officer, or the army ceases).
"""

from __future__ import annotations

from collections.abc import Iterable

from . import events as ev
from .armies import settle_armies
from .cards import AwardKind
from .state import GameState

#: Awards that go to the Chancery when their holder dies, or stay with a captive.
CHANCERY_KINDS = frozenset({AwardKind.TITLE, AwardKind.OFFICE, AwardKind.SEE})
#: Awards the winner of a field takes from the losers (BATTLE.spoils).
TRANSFERABLE_KINDS = frozenset({AwardKind.TOWN, AwardKind.MERCENARY})


def awards_of_kinds(state: GameState, noble: str, kinds: Iterable[AwardKind]) -> tuple[str, ...]:
    wanted = set(kinds)
    n = state.nobles[noble]
    return tuple(a for a in n.awards if state.catalog.award(a).kind in wanted)


def death(state: GameState, noble: str, cause: str, *, spoils_to: str | None = None) -> list[ev.Event]:
    """The events of ``noble``'s death by ``cause`` (battle | siege | plague |
    execution); ``spoils_to``: the faction whose hand takes his transferable awards (a
    loser killed on the field, F8), else they go to the Crown discard."""
    n = state.nobles[noble]
    out: list[ev.Event] = []
    transferable = awards_of_kinds(state, noble, TRANSFERABLE_KINDS)
    if spoils_to is not None and transferable:
        out.append(ev.AwardsMoved(transferable, f"noble:{noble}", f"hand:{spoils_to}"))
        kept = tuple(a for a in n.awards if a not in transferable)
    else:
        kept = n.awards
    to_chancery = tuple(a for a in kept if state.catalog.award(a).kind in CHANCERY_KINDS)
    to_discard = tuple(a for a in kept if a not in to_chancery)
    out += lost_control(state, noble, n.awards)
    himself = tuple(h.id for h in state.catalog.heirs.values() if h.noble == noble and h.id in state.heirs)
    out.append(ev.NobleDied(noble, cause, to_chancery, to_discard, himself))
    return out + settle_armies(state, out, (noble,))


def spoils_of_captive(state: GameState, noble: str, winner: str) -> list[ev.Event]:
    """A captive's sees and transferable awards go to the winner's hand (BATTLE.spoils);
    his titles and offices stay with him (RANSOM.terms)."""
    taken = awards_of_kinds(state, noble, {AwardKind.SEE, *TRANSFERABLE_KINDS})
    if not taken:
        return []
    out: list[ev.Event] = [ev.AwardsMoved(taken, f"noble:{noble}", f"hand:{winner}")]
    return out + lost_control(state, noble, taken)


def lost_control(state: GameState, noble: str, awards: Iterable[str]) -> list[ev.Event]:
    """Control ``noble``'s faction held only through these awards of his, now gone from
    him (F16): each such place becomes neutral, its nobles inside go into the open."""
    n = state.nobles[noble]
    faction = n.faction
    if faction is None:
        return []
    gone = set(awards)
    still: set[str] = set()  # places another award of the faction still ties to it
    for other in state.nobles.values():
        if other.faction != faction or other.captive_of is not None:
            continue
        for a in other.awards:
            if other.id == noble and a in gone:
                continue
            still.update(state.catalog.award(a).places)
    out: list[ev.Event] = []
    for a in sorted(gone):
        for place in state.catalog.award(a).places:
            if state.control.get(place) != faction or place in still:
                continue
            if state.conquests.get(place) == faction:
                continue  # won by a siege: it stays (F16)
            out.append(ev.ControlSet(place, None))
            for inside in state.inside_by_place.get(place, ()):
                if inside != noble:
                    out.append(ev.NobleMoved(inside, place, False))
    return out
