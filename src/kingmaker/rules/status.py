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
    if faction is None or not state.permissions:
        return False
    return (place_id, faction, aspect) in state.permitted


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
    kind = place.kind
    if kind is PlaceKind.COUNTRY:
        return _PASS
    if kind is PlaceKind.UNFORTIFIED_TOWN or kind is PlaceKind.OPEN_TOWN:
        st = ids.UNFORTIFIED if kind is PlaceKind.UNFORTIFIED_TOWN else ids.OPEN
        if state.inside_by_place.get(place.id):
            return _judge_town(state, place, faction, aspect, _RULES[st, aspect], kind.label)
        # no one inside: only the kind, the aspect and (for a siege) the faction count
        empty = (kind, st, aspect, False, None, faction if aspect == ids.SIEGE else None, False)
        v = _FIXED.get(empty)
        if v is None:
            v = _FIXED[empty] = _judge_town(state, place, faction, aspect, _RULES[st, aspect], kind.label)
        return v
    holder = state.control.get(place.id)
    permitted = False
    if holder is None:
        st = ids.NEUTRAL
    elif faction is not None and (holder == faction or holder in state.allies.get(faction, ())):
        st = ids.FRIENDLY  # state.friends(faction, holder)
    else:
        st = ids.UNFRIENDLY
        if state.permissions:
            asked = ids.ENTER if aspect == ids.DISEMBARK else aspect
            permitted = has_permission(state, place.id, faction, asked)
    if st != ids.UNFRIENDLY:
        holder = faction = None  # the verdict does not depend on them
    key = (kind, st, aspect, enter, holder, faction, permitted)
    v = _FIXED.get(key)
    if v is None:
        v = _FIXED[key] = _fixed(kind, st, aspect, enter, holder, faction, permitted)
    return v


#: The rule id of each status and aspect (``ids.loc``).
_RULES: dict[tuple[str, str], str] = {(st, a): ids.loc(st, a) for st in ids.STATUSES for a in ids.ASPECTS}

#: The verdicts that depend only on the place's kind, its status, the aspect and (when
#: unfriendly) its holder, the faction and a permission, or (a town no one is inside)
#: on its kind, the aspect and, for a siege, the faction: each made once per process.
_FIXED: dict[tuple[PlaceKind, str, str, bool, str | None, str | None, bool], Verdict] = {}


def _fixed(
    place_kind: PlaceKind,
    st: str,
    aspect: str,
    enter: bool,
    holder: str | None,
    faction: str | None,
    permitted: bool,
) -> Verdict:
    """The verdict of a city, town or castle of ``place_kind`` whose status is ``st``
    for the faction (``permitted``: its holder's permission for the aspect, R5)."""
    rule = ids.loc(st, aspect)
    kind = place_kind.label
    if st == ids.FRIENDLY:
        if aspect == ids.SIEGE:
            return Verdict(False, rule, f"the {kind} is held by its own side or an ally")
        return _ok(rule)
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
    if aspect == ids.SIEGE:
        return _ok(rule)
    if aspect == ids.DISEMBARK:
        if not enter:
            return _ok(rule)
        if permitted:
            return _ok(ids.LOC_PERMISSION)
        return Verdict(
            False,
            rule,
            f"the {kind} is held by {holder}, who has given {faction} no permission to enter "
            f"({ids.LOC_PERMISSION}); nobles landing may stay in the open but must lay siege to get in",
        )
    if permitted:
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
