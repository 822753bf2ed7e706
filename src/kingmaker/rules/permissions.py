"""Ruling R5: permissions a controlling faction grants for aspects of one location."""

from __future__ import annotations

from . import events as ev
from . import ids
from .commands import Grant, Revoke
from .context import invalid, require_place
from .decision import Decision, Result
from .state import GameState


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
        f"{cmd.by} grants {cmd.to} permission for {', '.join(aspects)} at {place.name} ({ids.LOC_PERMISSION})",
        (ev.PermissionGranted(cmd.by, cmd.to, place.id, aspects),),
        place=place.id,
    )


def decide_revoke(state: GameState, cmd: Revoke) -> Decision:
    place = require_place(state, cmd.place)
    held = [p for p in state.permissions if (p.by, p.to, p.place) == (cmd.by, cmd.to, place.id)]
    if not held:
        raise invalid(f"{cmd.by} has granted {cmd.to} no permission at {place.name}", place=place.id)
    aspects = tuple(sorted(set(cmd.aspects)))
    what = ", ".join(aspects) if aspects else "every permission"
    return Decision(
        Result.ACCEPTED,
        ids.LOC_PERMISSION,
        f"{cmd.by} revokes {what} granted to {cmd.to} at {place.name} ({ids.LOC_PERMISSION})",
        (ev.PermissionRevoked(cmd.by, cmd.to, place.id, aspects),),
        place=place.id,
    )
