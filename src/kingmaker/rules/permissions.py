"""Ruling R5: permissions a controlling faction grants for aspects of one location."""

from __future__ import annotations

from . import events as ev
from . import ids
from .commands import Grant, Revoke
from .context import invalid, require_place
from .decision import Decision, Result, refused
from .state import GameState

#: Each grantable aspect as players say it (the grammar's words: GRANTS Red HARBOUR AT ...).
ASPECT_WORDS = {
    ids.ROAD: "passage",
    ids.ENTER: "entry",
    ids.SHIP_ENTER: "harbour",
    ids.EMBARK: "embarkation",
    ids.FORCED_LEAVE: "departure",
}


def aspect_words(aspects: tuple[str, ...] | list[str]) -> str:
    """``("embark", "ship_enter")`` -> ``embarkation and harbour``."""
    words = [ASPECT_WORDS.get(a, a.replace("_", " ")) for a in aspects]
    return ", ".join(words[:-1]) + f" and {words[-1]}" if len(words) > 1 else "".join(words)


def decide_grant(state: GameState, cmd: Grant) -> Decision:
    place = require_place(state, cmd.place)
    if cmd.to not in state.turn_order or cmd.to == cmd.by:
        raise invalid(f"{cmd.to!r} is not another faction of this game", place=place.id)
    if state.control.get(place.id) != cmd.by:
        raise invalid(
            f"{cmd.by} does not control {place.name}, so it cannot grant permission for it", place=place.id
        )
    aspects = tuple(sorted(set(cmd.aspects)))
    bad = [a for a in aspects if a not in ids.GRANTABLE]
    if not aspects or bad:
        raise invalid(
            f"a permission is for one or more of {', '.join(ids.GRANTABLE)}"
            + (f", not {', '.join(bad)}" if bad else ""),
            place=place.id,
        )
    return Decision(
        Result.ACCEPTED,
        ids.LOC_PERMISSION,
        f"{cmd.by} grants {cmd.to} {aspect_words(aspects)} at {place.name} ({ids.LOC_PERMISSION})",
        (ev.PermissionGranted(cmd.by, cmd.to, place.id, aspects),),
        place=place.id,
    )


def decide_revoke(state: GameState, cmd: Revoke) -> Decision:
    place = require_place(state, cmd.place)
    held = [p for p in state.permissions if (p.by, p.to, p.place) == (cmd.by, cmd.to, place.id)]
    if not held:
        raise invalid(f"{cmd.by} has granted {cmd.to} no permission at {place.name}", place=place.id)
    aspects = tuple(sorted(set(cmd.aspects)))
    what = aspect_words(aspects) if aspects else "every permission"
    return Decision(
        Result.ACCEPTED,
        ids.LOC_PERMISSION,
        f"{cmd.by} revokes {what} granted to {cmd.to} at {place.name} ({ids.LOC_PERMISSION})",
        (ev.PermissionRevoked(cmd.by, cmd.to, place.id, aspects),),
        place=place.id,
    )


def judge_permission_ask(
    state: GameState, by: str, of: str, place_id: str, aspects: tuple[str, ...]
) -> Decision:
    """Whether ``by`` may ask ``of`` for permission for ``aspects`` at a place (ruling
    R5): only the faction that controls a place grants permission for it, so the ask
    goes to that faction, from another faction of the game, for aspects it may grant.
    Accepted with no events (asking changes nothing; the service logs the ask), or
    refused with ``LOC.permission`` (``ORDER.invalid`` for a place not on the map).

    >>> from kingmaker.data import load_dataset
    >>> from kingmaker.rules.deal import new_game
    >>> ds = load_dataset()
    >>> s = new_game(ds.board, ds.catalog, ("red", "blue"), "doc")
    >>> place, owner = sorted(s.control.items())[0]
    >>> other = "blue" if owner == "red" else "red"
    >>> judge_permission_ask(s, other, owner, place, ("road",)).accepted
    True
    >>> judge_permission_ask(s, owner, other, place, ("road",)).rule
    'LOC.permission'
    """
    place = state.board.places.get(place_id)
    if place is None:
        return refused(ids.ORDER_INVALID, f"there is no place {place_id!r} on the map ({ids.ORDER_INVALID})")
    if state.control.get(place.id) != of:
        return refused(
            ids.LOC_PERMISSION,
            f"{of} does not control {place.name}, so it grants no permission there ({ids.LOC_PERMISSION})",
            place=place.id,
        )
    if by == of or by not in state.turn_order:
        return refused(
            ids.LOC_PERMISSION,
            f"{by!r} cannot ask {of} for permission ({ids.LOC_PERMISSION})",
            place=place.id,
        )
    bad = [a for a in aspects if a not in ids.GRANTABLE]
    if not aspects or bad:
        return refused(
            ids.LOC_PERMISSION,
            f"ask for one or more of {', '.join(ids.GRANTABLE)} ({ids.LOC_PERMISSION})",
            place=place.id,
        )
    return Decision(
        Result.ACCEPTED,
        ids.LOC_PERMISSION,
        f"{by} asks {of} for {aspect_words(aspects)} at {place.name}",
        place=place.id,
    )
