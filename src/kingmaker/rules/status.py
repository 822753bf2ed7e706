"""A location's status for a faction (RULE_IDS §1) and the judgment of each aspect."""

from __future__ import annotations

from dataclasses import dataclass

from . import ids
from .board import Place, PlaceKind
from .state import GameState


def status(state: GameState, place: Place, faction: str | None) -> str | None:
    """``friendly``, ``unfortified``, ``open``, ``neutral`` or ``unfriendly`` for
    ``faction``; None for countryside, which has no status and never blocks."""
    kind = place.kind
    if kind is PlaceKind.COUNTRY:
        return None
    if kind is PlaceKind.UNFORTIFIED_TOWN:
        return ids.UNFORTIFIED
    if kind is PlaceKind.OPEN_TOWN:
        return ids.OPEN
    holder = state.control.get(place.id)
    if holder is None:
        return ids.NEUTRAL
    return ids.FRIENDLY if state.friends(faction, holder) else ids.UNFRIENDLY


def non_allied_inside(state: GameState, place_id: str, faction: str | None) -> tuple[str, ...]:
    """Nobles inside whose faction is neither ``faction`` nor allied with it."""
    nobles = state.nobles
    return tuple(
        n for n in state.inside_by_place.get(place_id, ()) if not state.friends(faction, nobles[n].faction)
    )


def has_permission(state: GameState, place_id: str, faction: str | None, aspect: str) -> bool:
    """Ruling R5: a permission recorded by the place's current controller."""
    holder = state.control.get(place_id)
    if holder is None or faction is None:
        return False
    return any(
        p.place == place_id and p.to == faction and p.by == holder and aspect in p.aspects
        for p in state.permissions
    )


@dataclass(frozen=True, slots=True)
class Verdict:
    """One aspect judged for one faction at one place."""

    ok: bool
    rule: str | None  # the deciding id (None for countryside)
    reason: str = ""  # why, for a player: "a neutral castle blocks road movement"
    siege_only: bool = False  # ruling R3: the landing is accepted only as a siege attempt


_PASS = Verdict(True, None)
_OK: dict[str | None, Verdict] = {}


def _ok(rule: str | None) -> Verdict:
    """The shared passing verdict for ``rule``."""
    v = _OK.get(rule)
    if v is None:
        v = _OK[rule] = Verdict(True, rule)
    return v


def _faction_list(state: GameState, nobles: tuple[str, ...]) -> str:
    factions = sorted({state.nobles[n].faction or "no faction" for n in nobles})
    return " and ".join(factions)


def judge(
    state: GameState, place: Place, faction: str | None, aspect: str, *, enter: bool = False
) -> Verdict:
    """Judge one aspect of ``place`` for a unit of ``faction``.

    For ``disembark``, ``enter`` says whether the landing nobles go inside. Verdicts are
    memoised on the (immutable) state.
    """
    key = (place.id, faction, aspect, enter)
    memo = state.judgments
    v = memo.get(key)
    if v is None:
        v = memo[key] = _judge(state, place, faction, aspect, enter)
    return v


def _judge(state: GameState, place: Place, faction: str | None, aspect: str, enter: bool) -> Verdict:
    st = status(state, place, faction)
    if st is None:
        return _PASS
    rule = ids.loc(st, aspect)
    if st == ids.FRIENDLY:
        if aspect == ids.SIEGE:
            return Verdict(False, rule, f"the {place.kind.label} is held by its own side or an ally")
        return _ok(rule)
    kind = place.kind.label
    if st in (ids.UNFORTIFIED, ids.OPEN):
        return _judge_town(state, place, faction, aspect, rule, kind)
    if st == ids.NEUTRAL:
        if aspect == ids.ROAD:
            return Verdict(False, rule, f"a neutral {kind} blocks road movement")
        if aspect == ids.ENTER:
            return Verdict(False, rule, f"a neutral {kind} must be besieged to get in")
        if aspect == ids.SHIP_ENTER:
            return Verdict(False, rule, f"ships may not enter a neutral {kind}")
        if aspect == ids.EMBARK:
            return Verdict(False, rule, f"ships may not take passengers aboard at a neutral {kind}")
        if aspect == ids.DISEMBARK and enter:
            return Verdict(
                False,
                rule,
                f"nobles landing at a neutral {kind} may stay in the open but must lay siege to get in",
            )
        return Verdict(True, rule)
    # unfriendly
    holder = state.control.get(place.id, "")
    if aspect == ids.SIEGE:
        return _ok(rule)
    if aspect == ids.DISEMBARK:
        if not enter:
            return _ok(rule)
        if has_permission(state, place.id, faction, ids.ENTER):
            return _ok(ids.LOC_PERMISSION)
        return Verdict(
            False,
            rule,
            f"the {kind} is held by {holder}; nobles landing may stay in the open but must lay siege to get in",
        )
    if has_permission(state, place.id, faction, aspect):
        return _ok(ids.LOC_PERMISSION)
    what = {
        ids.ROAD: "to pass",
        ids.ENTER: "to enter",
        ids.SHIP_ENTER: "for ships to enter",
        ids.EMBARK: "to take passengers aboard (to leave port)",
        ids.FORCED_LEAVE: "for a ship driven in by storm to leave",
    }[aspect]
    return Verdict(
        False, rule, f"the {kind} is held by {holder}, who has given {faction} no permission {what}"
    )


def _judge_town(
    state: GameState, place: Place, faction: str | None, aspect: str, rule: str, kind: str
) -> Verdict:
    if aspect in (ids.FORCED_LEAVE, ids.EMBARK):
        return _ok(rule)
    if aspect == ids.SHIP_ENTER:
        inside = state.inside_by_place.get(place.id, ())
        if inside:
            return Verdict(
                False, rule, f"the {kind} is occupied by {_faction_list(state, inside)}, so no ship may enter"
            )
        return _ok(rule)
    hostile = non_allied_inside(state, place.id, faction)
    if aspect == ids.SIEGE:
        if hostile:
            return _ok(rule)
        return Verdict(False, rule, f"the {kind} is not occupied by a faction hostile to {faction}")
    if not hostile:
        return _ok(rule)
    by = _faction_list(state, hostile)
    if aspect == ids.ROAD:
        return Verdict(False, rule, f"the {kind} is occupied by {by}, not allied with {faction}")
    if aspect == ids.ENTER:
        return Verdict(False, rule, f"the {kind} is occupied by {by}, not allied with {faction}")
    # disembark at a town held by a non-allied faction: only as a siege attempt (R3)
    return Verdict(True, rule, f"the {kind} is occupied by {by}: the landing nobles must lay siege", True)
