"""The messages that asked a faction for an answer and no longer wait for it: each as it
was sent (the ask, its replies and its deadline, as they stood just before it ended),
then how it ended ("You confirmed it in round 2, Red's turn", "It lapsed when Red's
turn ended"). ``messages_for`` lists them after the messages still waiting, so the GM's
record of what a faction was asked keeps the asks already answered.

Only what the faction may read is used (``visible_log``): it is a party to every ask
it is sent, and to its ending."""

from __future__ import annotations

from dataclasses import dataclass, replace

from kingmaker.log.envelope import Envelope
from kingmaker.log.service_events import OrderSubmitted, PermissionAsked
from kingmaker.rules import commands as c
from kingmaker.rules import events as ev
from kingmaker.rules import ids
from kingmaker.rules.state import GameState

from .context import Reports
from .document import Document, Inline, inlines, italic, para
from .messages import (
    Message,
    alliance_request,
    allied_order_request,
    army_consent_request,
    permission_request,
)
from .messages_full import ransom_request, storm_request
from .naming import Names, aspects
from .timeline import Turn

_ASKS = {ids.ALLY_4: allied_order_request, ids.ALLY_6: army_consent_request, ids.RANSOM_OFFER: ransom_request}


@dataclass
class _Ask:
    """One ask sent to the faction (``kind``: alliance, request, storm or permission;
    ``ref``: what it is about), and how it ended."""

    kind: str
    ref: str
    opened: Envelope
    asked: object = None  # a request's rule, or the permission asked
    ended: int = 0  # the entry that ended it for the faction (0: still waiting)
    how: tuple[Inline, ...] = ()


def answered_messages(ctx: Reports, faction: str, turn: Turn | None = None) -> list[Message]:
    """The asks sent to ``faction`` in ``turn`` (None: every turn) that it has answered,
    or that ended without its answer, in the order they were made."""
    out = []
    for a in _asks(ctx, faction):
        if not a.ended or (turn is not None and (a.opened.round, a.opened.turn) != turn):
            continue
        before = a.ended - 1  # the ask as it last stood, its deadline set
        msg = _message(
            ctx, faction, a, ctx.timeline.state_after(before), ctx.timeline.position_after(before).due()
        )
        body = Document((*msg.body.blocks, para(italic(*a.how))))
        out.append(replace(msg, subject=f"{msg.subject} (answered)", body=body))
    return out


def _message(ctx: Reports, to: str, a: _Ask, state: GameState, due: dict[str, str]) -> Message:
    n, d = ctx.names, ctx.describe
    if a.kind == "alliance":
        return alliance_request(state, a.ref, to, n, due=due.get(a.ref), describe=d)
    if a.kind == "request":
        return _ASKS[str(a.asked)](state, a.ref, to, n, due=due.get(a.ref), describe=d)
    if a.kind == "storm":
        return storm_request(state, a.ref, to, n, due=due.get(a.ref), describe=d)
    p = a.asked
    assert isinstance(p, PermissionAsked)
    return permission_request(p.by, to, p.place, p.aspects, p.note, n, state=state, describe=d)


def _asks(ctx: Reports, faction: str) -> list[_Ask]:
    n = ctx.names
    live = ctx.timeline.live
    entries = [e for e in ctx.visible(faction) if e.seq in live]
    by_command = _orders_by_command(entries)
    open_: dict[tuple[str, str], _Ask] = {}
    out: list[_Ask] = []

    def start(kind: str, ref: str, env: Envelope, asked: object = None) -> None:
        open_[(kind, ref)] = a = _Ask(kind, ref, env, asked)
        out.append(a)

    def end(kind: str, ref: str, env: Envelope, *how: Inline | str) -> None:
        a = open_.pop((kind, ref), None)
        if a is not None:
            a.ended = env.seq
            a.how = inlines(*how, f" (round {env.round}, ", *n.possessive(env.turn), " turn).")

    for env in entries:
        e = env.event
        if isinstance(e, ev.AllianceDeclared) and faction in e.invited:
            start("alliance", e.alliance, env)
        elif isinstance(e, ev.AllianceAnswered) and e.faction == faction:
            end("alliance", e.alliance, env, f"You {'accepted' if e.confirm else 'declined'} it")
        elif isinstance(e, ev.DeclarationEnded):
            end("alliance", e.alliance, env, f"It was settled without your answer ({e.rule})")
        elif isinstance(e, ev.RequestOpened) and faction in e.awaiting and e.rule in _ASKS:
            start("request", e.request, env, e.rule)
        elif isinstance(e, ev.RequestConfirmed) and e.faction == faction:
            end("request", e.request, env, "You confirmed it")
        elif isinstance(e, ev.RequestClosed):
            end("request", e.request, env, *_closed(e, by_command.get(env.command), faction, n))
        elif isinstance(e, ev.StormBegan):
            before = ctx.timeline.state_before(env.seq)
            if any(before.ships[s].faction == faction for s in e.ships if s in before.ships):
                start("storm", e.storm, env)
        elif isinstance(e, ev.PortChosen) and ("storm", e.storm) in open_:
            ship = ctx.timeline.state_before(env.seq).ships.get(e.ship)
            if ship is not None and ship.faction == faction:
                who = {faction: "You chose", "clock": "The deadline passed; the draw chose"}
                end(
                    "storm",
                    e.storm,
                    env,
                    f"{who.get(env.actor, 'The GM chose')} {n.place(e.port)} for {n.unit(e.ship)}",
                )
        elif isinstance(e, ev.StormSettled):
            end("storm", e.storm, env, "The storm was settled")
        elif isinstance(e, PermissionAsked) and e.of == faction:
            start("permission", f"{e.by}:{e.place}", env, e)
        elif isinstance(e, ev.PermissionGranted) and e.by == faction:
            end("permission", f"{e.to}:{e.place}", env, f"You granted {aspects(e.aspects)}")
        elif isinstance(e, ev.ControlSet) and e.faction != faction:
            for kind, ref in [k for k in open_ if k[0] == "permission" and k[1].endswith(f":{e.place}")]:
                end(kind, ref, env, f"You no longer control {n.place(e.place)}")
    return out


def _orders_by_command(entries: list[Envelope]) -> dict[str | None, OrderSubmitted]:
    """The order each command id was given as (its ``OrderSubmitted``)."""
    out: dict[str | None, OrderSubmitted] = {}
    for env in entries:
        if env.command is not None and isinstance(env.event, OrderSubmitted):
            out.setdefault(env.command, env.event)
    return out


def _closed(
    e: ev.RequestClosed, order: OrderSubmitted | None, faction: str, n: Names
) -> tuple[Inline | str, ...]:
    """How a request ended without ``faction``'s confirmation."""
    if e.outcome == "lapsed":
        return ("It lapsed unanswered when the turn ended (ruling R15)",)
    if order is not None and isinstance(order.command, c.Reject):
        return ("You rejected it",) if order.by == faction else (n.faction(order.by), " rejected it")
    if e.outcome == "accepted":
        return ("It was carried out",)
    return (f"It was not carried out ({e.rule})",)
