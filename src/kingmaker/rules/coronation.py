"""Coronation (FULL_GAME 3.8, CROWN.*): a faction crowns an heir it controls in its own
coronation phase, if he is his house's senior heir and his house has no King, he is
escorted by its noble inside a cathedral, and its nobles inside there hold an
archbishopric or two bishoprics. Two Kings, one of each house, may reign at once.

A refused coronation names the first failing rule in 3.8's order: CROWN.phase,
CROWN.succession, CROWN.escort, CROWN.cathedral, CROWN.clergy; when the heir is
Beaufort, CROWN.beaufort comes before CROWN.succession (3.13.4).
"""

from __future__ import annotations

from . import events as ev
from . import ids
from .cards import AwardKind, archbishopric
from .commands import Crown
from .context import invalid
from .decision import Decision, Refusal, Result
from .kings import crowned, king_of, noble_heir, others_of_house, senior_heir
from .phases import CORONATION, register_phase
from .state import GameState
from .units import name, names

register_phase(Crown, CORONATION)


def clergy(state: GameState, faction: str, place: str) -> tuple[list[str], list[str]]:
    """The archbishoprics and the bishoprics held by ``faction``'s nobles inside
    ``place`` (CROWN.clergy, F22: only the crowning faction's, only inside)."""
    arch: list[str] = []
    bishops: list[str] = []
    for nid in state.inside_by_place.get(place, ()):
        n = state.nobles[nid]
        if n.faction != faction or n.captive_of is not None:
            continue
        for a in n.awards:
            if archbishopric(state.catalog, a):
                arch.append(a)
            elif state.catalog.award(a).kind is AwardKind.SEE:
                bishops.append(a)
    return sorted(arch), sorted(bishops)


def decide_crown(state: GameState, cmd: Crown) -> Decision:
    """CROWN.*: ``cmd.by`` crowns ``cmd.heir`` (see the module's text for the order)."""
    h = state.heirs.get(cmd.heir)
    if h is None:
        if cmd.heir in state.catalog.heirs:
            raise invalid(f"{name(state, cmd.heir)} is not a living heir in play")
        raise invalid(f"there is no heir {cmd.heir!r}")
    who = name(state, h.id)
    if cmd.by != state.turn or (state.phased and state.phase != "coronation"):
        raise Refusal(
            ids.CROWN_PHASE,
            f"{cmd.by} may crown {who} only in its own coronation phase; it is {state.turn}'s "
            f"{state.phase + ' phase' if state.phased else 'turn'} ({ids.CROWN_PHASE})",
        )
    if noble_heir(state, h.id):
        rivals = others_of_house(state, h)
        if rivals:
            raise Refusal(
                ids.CROWN_BEAUFORT,
                f"{who} can be crowned only when no other heir of his house lives, and {names(state, list(rivals))} "
                f"{'lives' if len(rivals) == 1 else 'live'} ({ids.CROWN_BEAUFORT})",
            )
    king = king_of(state, h.house)
    senior = senior_heir(state, h.house)
    if h.crowned:
        raise Refusal(ids.CROWN_SUCCESSION, f"{who} is crowned already ({ids.CROWN_SUCCESSION})")
    if king is not None:
        raise Refusal(
            ids.CROWN_SUCCESSION,
            f"{who} may not be crowned: his house has a living King, {name(state, king)} ({ids.CROWN_SUCCESSION})",
        )
    if senior != h.id:
        raise Refusal(
            ids.CROWN_SUCCESSION,
            f"{who} may not be crowned: {name(state, senior)} is before him in the succession and lives "
            f"({ids.CROWN_SUCCESSION})",
        )
    escort = state.nobles.get(h.with_noble) if h.with_noble is not None else None
    if escort is None or escort.faction != cmd.by or escort.captive_of is not None:
        whose = "no one" if escort is None else f"{name(state, escort.id)} of {escort.faction}"
        raise Refusal(
            ids.CROWN_ESCORT,
            f"{cmd.by} may not crown {who}: the heir must be escorted by one of its nobles, and is escorted by "
            f"{whose} ({ids.CROWN_ESCORT})",
        )
    place = state.board.places.get(escort.place) if escort.place is not None else None
    if place is None or escort.aboard is not None or not escort.inside or not place.cathedral:
        if place is None or escort.aboard is not None:
            where = "at sea" if escort.aboard is not None else "nowhere on the map"
        elif not place.cathedral:
            where = f"at {place.name}, which has no cathedral"
        else:
            where = f"in the open at {place.name}"
        raise Refusal(
            ids.CROWN_CATHEDRAL,
            f"{who} may be crowned only inside a cathedral city or town (F22), and the heir is {where} "
            f"({ids.CROWN_CATHEDRAL})",
            place=place.id if place is not None else None,
        )
    arch, bishops = clergy(state, cmd.by, place.id)
    if not arch and len(bishops) < 2:
        held = f"only {names(state, bishops)}" if bishops else "no see"
        raise Refusal(
            ids.CROWN_CLERGY,
            f"{cmd.by} may not crown {who} at {place.name}: its nobles inside must hold an archbishopric or "
            f"two bishoprics, and hold {held} ({ids.CROWN_CLERGY})",
            place=place.id,
        )
    by_clergy = names(state, arch[:1] if arch else bishops[:2])
    others = crowned(state)
    reign = (
        f"; England has two Kings, {names(state, [*others, h.id])}" if others else f"; {who} is the sole King"
    )
    return Decision(
        Result.ACCEPTED,
        ids.CROWN_SUCCESSION,
        f"{who} is crowned at {place.name} by {by_clergy}, escorted by {name(state, escort.id)} of "
        f"{cmd.by}{reign} ({ids.CROWN_SUCCESSION})",
        (ev.HeirCrowned(h.id),),
        unit=escort.id,
        place=place.id,
    )
