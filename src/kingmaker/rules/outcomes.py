"""The GM's rulings on what combat decided (until the engine resolves combat itself):
nobles killed, captured or released, heirs changing hands, combats settled; and
requests expiring at their deadline."""

from __future__ import annotations

from . import events as ev
from . import ids
from .armies import settle_armies
from .commands import Capture, Expire, Kill, MoveHeir, Release, ResolveCombat
from .context import invalid, require_place
from .decision import Decision, Result
from .state import GameState, Noble
from .units import name


def _noble(state: GameState, noble_id: str) -> Noble:
    n = state.nobles.get(noble_id)
    if n is None:
        raise invalid(f"there is no noble {noble_id!r} in play", unit=noble_id)
    return n


def _accept(state: GameState, text: str, effects: list[ev.Event], gone: tuple[str, ...] = ()) -> Decision:
    events = effects + settle_armies(state, effects, gone)
    return Decision(Result.ACCEPTED, ids.GM_ACTION, f"{text} ({ids.GM_ACTION})", tuple(events))


def decide_kill(state: GameState, cmd: Kill) -> Decision:
    n = _noble(state, cmd.noble)
    himself = tuple(h.id for h in state.catalog.heirs.values() if h.noble == n.id and h.id in state.heirs)
    text = f"{name(state, n.id)} is killed; his crown items go to the Chancery"
    return _accept(state, text, [ev.NobleKilled(n.id, himself)], (n.id,))


def decide_capture(state: GameState, cmd: Capture) -> Decision:
    n = _noble(state, cmd.noble)
    if n.captive_of is not None:
        raise invalid(f"{name(state, n.id)} is already held by {n.captive_of}", unit=n.id)
    if cmd.faction not in state.turn_order or cmd.faction == n.faction:
        raise invalid(f"{cmd.faction!r} is not another faction of this game", unit=n.id)
    return _accept(
        state,
        f"{name(state, n.id)} is captured by {cmd.faction}",
        [ev.NobleCaptured(n.id, cmd.faction)],
        (n.id,),
    )


def decide_release(state: GameState, cmd: Release) -> Decision:
    n = _noble(state, cmd.noble)
    if n.captive_of is None:
        raise invalid(f"{name(state, n.id)} is not a captive", unit=n.id)
    place = require_place(state, cmd.place)
    if cmd.inside and not place.kind.is_location:
        raise invalid(f"there is no location to be inside at {place.name}", unit=n.id, place=place.id)
    where = f"inside {place.name}" if cmd.inside else f"at {place.name}"
    return _accept(
        state, f"{name(state, n.id)} is released {where}", [ev.NobleReleased(n.id, place.id, cmd.inside)]
    )


def decide_move_heir(state: GameState, cmd: MoveHeir) -> Decision:
    h = state.heirs.get(cmd.heir)
    if h is None:
        raise invalid(f"there is no heir {cmd.heir!r} in play")
    if (cmd.with_noble is None) == (cmd.place is None):
        raise invalid("an heir goes either with a noble or to a place")
    if cmd.with_noble is not None:
        n = _noble(state, cmd.with_noble)
        if n.place is None and n.aboard is None:
            raise invalid(f"{name(state, n.id)} is not on the map", unit=n.id)
        return _accept(
            state, f"{name(state, h.id)} is now with {name(state, n.id)}", [ev.HeirMoved(h.id, n.id)]
        )
    assert cmd.place is not None
    place = require_place(state, cmd.place)
    where = f"inside {place.name}" if cmd.inside else f"at {place.name}"
    return _accept(
        state, f"{name(state, h.id)} is left {where}", [ev.HeirMoved(h.id, None, place.id, cmd.inside)]
    )


def decide_resolve_combat(state: GameState, cmd: ResolveCombat) -> Decision:
    if not any(c.id == cmd.combat for c in state.combats):
        raise invalid(f"there is no open combat {cmd.combat!r}")
    text = f"combat {cmd.combat} is settled" + (f": {cmd.summary}" if cmd.summary else "")
    return _accept(state, text, [ev.CombatResolved(cmd.combat, cmd.summary)])


def decide_expire(state: GameState, cmd: Expire) -> Decision:
    r = state.requests.get(cmd.request)
    if r is None:
        raise invalid(f"there is no pending request {cmd.request!r}")
    return Decision(
        Result.REFUSED,
        r.rule,
        f"request {r.id} was not confirmed by its deadline and lapses ({r.rule})",
        (ev.RequestClosed(r.id, "lapsed", r.rule),),
        request=r.id,
    )
