"""Answers to pending allied orders (ALLY.4) and army formations (ALLY.6): confirm,
reject, and lapse at the end of the ordering faction's turn (R15)."""

from __future__ import annotations

from collections.abc import Callable

from . import events as ev
from . import ids
from .commands import Command, Confirm, Reject
from .context import invalid
from .decision import Decision, Result
from .state import GameState, Request
from .units import unit_faction

Decider = Callable[[GameState, Command, bool], Decision]


def _request(state: GameState, req_id: str, by: str) -> Request | Decision:
    r = state.requests.get(req_id)
    if r is None:
        rule = state.closed.get(req_id)
        if rule is not None:
            return Decision(
                Result.REFUSED,
                rule,
                f"request {req_id} has already ended (it lapsed, or was answered) ({rule})",
                request=req_id,
            )
        raise invalid(f"there is no pending request {req_id!r}")
    if by not in r.awaiting:
        raise invalid(f"request {req_id} does not await {by}'s answer")
    return r


def decide_reject(state: GameState, cmd: Reject) -> Decision:
    r = _request(state, cmd.id, cmd.by)
    if isinstance(r, Decision):
        return r
    return Decision(
        Result.REFUSED,
        r.rule,
        f"{cmd.by} rejects request {r.id}; nothing is done ({r.rule})",
        (ev.RequestClosed(r.id, "refused", r.rule),),
        request=r.id,
    )


def decide_confirm(state: GameState, cmd: Confirm, decide_again: Decider) -> Decision:
    r = _request(state, cmd.id, cmd.by)
    if isinstance(r, Decision):
        return r
    left = tuple(f for f in r.awaiting if f != cmd.by)
    answer = ev.RequestConfirmed(r.id, cmd.by)
    if left:
        return Decision(
            Result.PENDING,
            r.rule,
            f"{cmd.by} confirms request {r.id}; still awaiting {', '.join(left)} ({r.rule})",
            (answer,),
            awaiting=left,
            request=r.id,
        )
    d = decide_again(state, r.command, True)
    if not d.accepted:
        return Decision(
            Result.REFUSED,
            d.rule,
            f"request {r.id} is checked again and refused: {d.explanation}",
            (answer, ev.RequestClosed(r.id, "refused", r.rule)),
            unit=d.unit,
            place=d.place,
            request=r.id,
        )
    events: list[ev.Event] = [answer, ev.RequestClosed(r.id, "accepted", r.rule), *d.events]
    if r.rule == ids.ALLY_4:
        events += _reveal_allied_order(state, r)
    return Decision(
        Result.ACCEPTED,
        d.rule,
        d.explanation,
        tuple(events),
        unit=d.unit,
        place=d.place,
        siege=d.siege,
        senior=d.senior,
        senior_rule=d.senior_rule,
        request=r.id,
        report=d.report,
    )


def _reveal_allied_order(state: GameState, r: Request) -> list[ev.Event]:
    """Ruling R7: an allied order carried out makes the alliance public."""
    factions = {r.by, *r.awaiting}
    for attr in ("unit", "ship"):
        uid = getattr(r.command, attr, None)
        if isinstance(uid, str):
            f = unit_faction(state, uid)
            if f is not None:
                factions.add(f)
    for n in getattr(r.command, "nobles", ()) or ():
        f = unit_faction(state, n)
        if f is not None:
            factions.add(f)
    ids_ = sorted(
        a.id
        for a in state.alliances.values()
        if not a.public and r.by in a.members and len(factions & set(a.members)) >= 2
    )
    return [ev.AlliancesRevealed(tuple(ids_))] if ids_ else []


def lapse_events(state: GameState) -> list[ev.Event]:
    """Requests not completed before the ordering faction's turn ends lapse (R15).
    Every request is made on its orderer's turn, so at a turn's end all of them lapse."""
    return [ev.RequestClosed(r.id, "lapsed", r.rule) for r in state.requests.values()]
