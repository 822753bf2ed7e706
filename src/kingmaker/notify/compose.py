"""What each log entry tells whom, and the reminders a deadline brings: the messages the
GM would send by private message, written by ``render.reports`` for one faction at a
time (each reads ``view(state, faction)`` only, so a faction's mail holds nothing it
may not see), and the public turn report for the webhook.

For an entry (in force, after the entry its recipient's address counts from):

- a declaration, allied order, army, ransom, storm or Parliament's vote that awaits a
  faction after the entry and not before it, and still awaits it now: the message
  asking for its answer
  (``render.reports.messages``), to that faction;
- a ``permission_asked`` addressed to a faction: the request for permission, to it;
- the entry that ends a turn (the round or whose turn it is moves forward, or the game
  ends): each faction's private report of that turn, to each faction, and the public
  turn report, to the webhook.

A reminder goes ``remind_hours`` before an open deadline to each faction it waits for
(the turn's faction, unless it has ordered; the factions a declaration, request or
storm awaits), once per deadline and due time (an extended deadline is reminded again).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from kingmaker.log.envelope import Envelope
from kingmaker.log.fold import Deadline
from kingmaker.log.service_events import PermissionAsked, Undone
from kingmaker.render.reports import (
    Message,
    Reports,
    alliance_request,
    allied_order_request,
    army_consent_request,
    permission_request,
    private_report,
    render,
    turn_report,
)
from kingmaker.render.reports.document import Document, italic, para
from kingmaker.render.reports.messages_full import (
    ransom_request,
    storm_request,
    storms_awaiting,
    vote_request,
    votes_awaiting,
)
from kingmaker.render.reports.naming import when
from kingmaker.rules import ids
from kingmaker.rules.state import GameState
from kingmaker.rules.views import PUBLIC
from kingmaker.service.clock import parse_iso
from kingmaker.storage.outbox import NewMessage

Ask = Callable[..., Message]
# what asks a faction for an answer: the kind of message and who writes it, by rule
_ASKS: dict[str, tuple[str, Ask]] = {
    ids.ALLY_4: ("order", allied_order_request),
    ids.ALLY_6: ("army", army_consent_request),
    ids.RANSOM_OFFER: ("ransom", ransom_request),
}


@dataclass(frozen=True)
class Recipient:
    """A seat with an e-mail address, told of the entries after ``since``."""

    faction: str
    since: int


@dataclass(frozen=True)
class Hook:
    """The game's webhook, told of the entries after ``since``, in ``fmt``."""

    since: int
    fmt: str


def awaiting(state: GameState, faction: str) -> dict[str, str]:
    """What awaits ``faction``'s answer in ``state``: the kind of message, by the id of
    the declaration, request or storm."""
    out = {d.id: "alliance" for d in state.declarations.values() if faction in d.awaiting}
    out |= {
        r.id: _ASKS[r.rule][0] for r in state.requests.values() if faction in r.awaiting and r.rule in _ASKS
    }
    if state.storms:
        out |= {st: "storm" for st in storms_awaiting(state, faction)}
    if state.parliament is not None:
        out |= {pr: "vote" for pr in votes_awaiting(state, faction)}
    return out


def ask(ctx: Reports, state: GameState, faction: str, kind: str, ref: str, due: str | None) -> Message:
    """The message asking ``faction`` to answer ``ref`` (``LookupError``: it cannot see it)."""
    n, d = ctx.names, ctx.describe
    if kind == "alliance":
        return alliance_request(state, ref, faction, n, due=due, describe=d)
    if kind == "storm":
        return storm_request(state, ref, faction, n, due=due, describe=d)
    if kind == "vote":
        return vote_request(state, ref, faction, n, due=due, describe=d)
    rule = state.requests[ref].rule
    return _ASKS[rule][1](state, ref, faction, n, due=due, describe=d)


def _mail(game: str, title: str, m: Message, kind: str, ref: str, seq: int, key: str) -> NewMessage:
    return NewMessage(
        "email",
        m.to,
        kind,
        ref,
        seq,
        f"{game}/mail/{m.to}/{key}",
        f"[{title}] {m.subject}",
        render(m.body, "plain"),
    )


def ends_turn(before: GameState, after: GameState) -> bool:
    """Whether the step from ``before`` to ``after`` ends ``before``'s turn."""
    if after.game_over and not before.game_over:
        return True
    return (after.round, after.turn_index) > (before.round, before.turn_index)


def entry_messages(
    ctx: Reports,
    game: str,
    title: str,
    env: Envelope,
    recipients: Sequence[Recipient],
    hook: Hook | None,
) -> list[NewMessage]:
    """The messages entry ``env`` makes (see the module's doc)."""
    tl = ctx.timeline
    s = env.seq
    if isinstance(env.event, Undone) or s not in tl.live:
        return []
    before, after, now = tl.state_before(s), tl.state_after(s), tl.now
    due = tl.position.due()
    out: list[NewMessage] = []
    mailed = [r for r in recipients if r.since < s]
    for r in mailed:
        f = r.faction
        opened = awaiting(after, f)
        new = {ref: kind for ref, kind in opened.items() if ref not in awaiting(before, f)}
        still = awaiting(now, f) if new else {}
        for ref, kind in sorted(new.items()):
            if still.get(ref) != kind:
                continue  # answered, withdrawn or lapsed already: nothing to ask
            try:
                m = ask(ctx, after, f, kind, ref, due.get(ref))
            except LookupError:
                continue
            out.append(_mail(game, title, m, kind, ref, s, f"{kind}/{ref}/{s}"))
        e = env.event
        if isinstance(e, PermissionAsked) and e.of == f and after.control.get(e.place) == f:
            m = permission_request(
                e.by, f, e.place, e.aspects, e.note, ctx.names, state=after, describe=ctx.describe
            )
            out.append(_mail(game, title, m, "permission", f"{e.by}:{e.place}", s, f"permission/{s}"))
    if ends_turn(before, after):
        turn = (before.round, before.turn)
        tag = f"{turn[0]}/{turn[1]}/{s}"
        name = f"{ctx.names.faction_name(turn[1])}'s"
        for r in mailed:
            doc = private_report(ctx, turn, r.faction)
            subject = f"[{title}] Round {turn[0]}, {name} turn: your private report"
            ref = f"{turn[0]}/{turn[1]}"
            out.append(
                NewMessage(
                    "email",
                    r.faction,
                    "report",
                    ref,
                    s,
                    f"{game}/mail/{r.faction}/report/{tag}",
                    subject,
                    render(doc, "plain"),
                )
            )
        if hook is not None and hook.since < s:
            out.append(webhook_message(ctx, game, title, turn, s, hook.fmt))
    return out


def webhook_message(
    ctx: Reports, game: str, title: str, turn: tuple[int, str], seq: int, fmt: Any
) -> NewMessage:
    """The public report of ``turn``, as the webhook posts it (its JSON, fixed now so
    that a retry posts the same bytes with the same signature)."""
    rnd, whose = turn
    text = render(turn_report(ctx, turn, PUBLIC), fmt)
    dedup = f"{game}/hook/turn/{rnd}/{whose}/{seq}"
    payload = {
        "event": "turn_report",
        "game": game,
        "game_name": title,
        "round": rnd,
        "turn": whose,
        "turn_name": ctx.names.faction_name(whose),
        "seq": seq,
        "format": fmt,
        "delivery": dedup,
        "text": text,
    }
    body = json.dumps(payload, ensure_ascii=False, sort_keys=True)
    subject = f"Round {rnd}, {ctx.names.faction_name(whose)}'s turn"
    return NewMessage("webhook", None, "turn_report", f"{rnd}/{whose}", seq, dedup, subject, body)


def reminders(
    ctx: Reports,
    game: str,
    title: str,
    deadlines: Sequence[Deadline],
    has_ordered: Callable[[str], bool],
    factions: Sequence[str],
    now: datetime,
    hours: float,
) -> list[NewMessage]:
    """A reminder for each of ``factions`` (seats with an address) that an open deadline
    due within ``hours`` of ``now`` waits for."""
    if hours <= 0:
        return []
    state = ctx.timeline.now
    horizon = now + timedelta(hours=hours)
    out: list[NewMessage] = []
    for d in deadlines:
        due = parse_iso(d.due)
        if not now < due <= horizon:
            continue
        for f in factions:
            key = f"remind/{d.target}/{d.due}"
            if d.kind == "turn":
                if d.target != f or d.target != state.turn or has_ordered(f):
                    continue
                body = Document(
                    (
                        para(
                            f"Reminder: it is your turn (round {state.round}); your orders are due by {when(d.due)}."
                        ),
                        para(italic(f"Sent {hours:g} hours or less before the deadline.")),
                    )
                )
                m = Message(f, f"Reminder: your orders are due by {when(d.due)}", body)
                out.append(_mail(game, title, m, "reminder", d.target, 0, key))
                continue
            kind = awaiting(state, f).get(d.target)
            if kind is None:
                continue
            try:
                asked = ask(ctx, state, f, kind, d.target, d.due)
            except LookupError:
                continue
            note = para(italic(f"Reminder: this awaits your answer, due by {when(d.due)}."))
            m = Message(f, f"Reminder: {asked.subject}", Document((note, *asked.body.blocks)))
            out.append(_mail(game, title, m, "reminder", d.target, 0, key))
    return out
