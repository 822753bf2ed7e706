"""A faction's private report for a turn, and the messages awaiting its answers: what
its player may know, from ``visible_log(..., faction)`` and ``view(state, faction)``
only."""

from __future__ import annotations

from kingmaker.log.service_events import PermissionAsked
from kingmaker.rules import ids
from kingmaker.rules.events import PermissionGranted
from kingmaker.rules.state import GameState
from kingmaker.rules.views import View, as_seen_by, view

from .answered import answered_messages
from .context import Reports
from .crown_position import parliament_awaiting
from .document import Block, Code, Document, Item, bullets, heading, inlines, italic, item, para
from .hands import hand_blocks
from .happenings import order_text, permission_words
from .messages import (
    Message,
    alliance_request,
    alliance_sentence,
    allied_order_request,
    allied_order_sentence,
    army_consent_request,
    army_sentence,
    permission_request,
)
from .messages_full import (
    ransom_request,
    ransom_sentence,
    storm_request,
    storm_sentence,
    storms_awaiting,
    vote_request,
    votes_awaiting,
)
from .naming import when
from .timeline import Turn
from .turn import orders_as_given, position_at_end, resolution, setting_up

# what asks a faction for an answer, by the request's rule
_SENTENCES = {ids.ALLY_4: allied_order_sentence, ids.ALLY_6: army_sentence, ids.RANSOM_OFFER: ransom_sentence}
_ASKS = {ids.ALLY_4: allied_order_request, ids.ALLY_6: army_consent_request, ids.RANSOM_OFFER: ransom_request}


def _listed(items: list[Item], empty: str = "None.") -> Block:
    return bullets(items) if items else para(italic(empty))


def _awaiting_you(ctx: Reports, state: GameState, v: View, faction: str, due: dict[str, str]) -> list[Item]:
    n, d = ctx.names, ctx.describe
    out = [
        item(alliance_sentence(state, x.id, faction, n, due.get(x.id), d))
        for x in v.declarations
        if faction in x.awaiting
    ]
    for r in v.requests:
        if faction in r.awaiting:
            write = _SENTENCES.get(r.rule)
            if write is not None:
                out.append(item(write(state, r.id, faction, n, due.get(r.id), d)))
    out += [
        item(storm_sentence(state, st, faction, n, due.get(st), d)) for st in storms_awaiting(state, faction)
    ]
    out += parliament_awaiting(v, as_seen_by(state, faction), faction, n, d)
    return out


def _awaiting_others(
    ctx: Reports, state: GameState, v: View, faction: str, due: dict[str, str]
) -> list[Item]:
    n = ctx.names
    out = []
    for x in v.declarations:
        if faction not in x.awaiting and x.awaiting:
            accepted = inlines("; accepted by ", n.factions_list(x.confirmed)) if x.confirmed else ()
            out.append(
                item(
                    "Alliance ",
                    Code(x.id),
                    " declared by ",
                    n.faction(x.by),
                    " with ",
                    n.factions_list(x.invited),
                    accepted,
                    "; awaiting ",
                    n.factions_list(x.awaiting),
                    f" (due {when(due.get(x.id))}).",
                )
            )
    for r in v.requests:
        if faction not in r.awaiting:
            out.append(
                item(
                    "Request ",
                    Code(r.id),
                    " by ",
                    n.faction(r.by),
                    ": ",
                    order_text(r.command, ctx.describe, state),
                    f" ({r.rule}); awaiting ",
                    n.factions_list(r.awaiting),
                    f" (due {when(due.get(r.id))}).",
                )
            )
    return out


def _standing(ctx: Reports, v: View, faction: str) -> list[Block]:
    """Alliances, permissions, cooling-offs, defence pacts and this round's orders."""
    n = ctx.names
    alliances = [
        item(Code(a.id), ": ", n.factions_list(a.members), " (public)" if a.public else " (secret)")
        for a in sorted(v.alliances, key=lambda a: a.id)
        if faction in a.members
    ]
    permissions = [item(permission_words(n, p.by, p.to, p.place, p.aspects), ".") for p in v.permissions]
    cooling = [
        item(
            n.faction(c.faction),
            " and ",
            n.factions_list(c.former_allies),
            f" may not fight each other until {n.faction_name(c.faction)}'s turn in round {c.until_round} (ALLY.12).",
        )
        for c in v.cooling_off
    ]
    defences = [item(f"{n.unit(d.unit)} fights on {n.unit(d.with_)}'s side this round.") for d in v.defences]
    orders = [
        item(
            f"{n.unit(o.unit)}: {o.kind} order in ",
            n.possessive(o.turn_of),
            " turn, given by ",
            n.faction(o.by),
            ".",
        )
        for o in v.orders
    ]
    return [
        heading(2, "Your alliances"),
        _listed(alliances),
        heading(2, "Permissions granted to or by you (ruling R5)"),
        _listed(permissions),
        heading(2, "Cooling-off (ALLY.12)"),
        _listed(cooling),
        heading(2, "Defence pacts this round"),
        _listed(defences),
        heading(2, "Orders already given this round (ALLY.4, ALLY.5)"),
        _listed(orders),
    ]


def private_report(ctx: Reports, turn: Turn, faction: str) -> Document:
    """What ``faction``'s player may know at the end of ``turn`` (or now): its orders and
    their outcomes, what awaits its answer and others', its standing, the position."""
    n = ctx.names
    state = ctx.timeline.state_at_end_of(turn)
    v = view(state, faction)
    tl = ctx.timeline
    # deadlines then, looked up only for the turns, declarations and requests ``v`` shows
    due = tl.position_after(tl.last_seq_of(turn) or tl.head).due()
    rnd, whose = turn
    blocks: list[Block] = [
        heading(
            1, f"Round {rnd}: ", n.possessive(whose), f" turn — private report for {n.faction_name(faction)}"
        )
    ]
    if v.turn == faction and not v.game_over:
        when_due = f": your orders are due by {when(due[faction])}" if faction in due else ""
        blocks.append(para(italic(f"It is your turn{when_due}.")))
    blocks += [
        *setting_up(ctx, turn, faction),
        heading(2, "Orders as given"),
        *orders_as_given(ctx, turn, faction),
        heading(2, "Resolution"),
        *resolution(ctx, turn, faction),
        heading(2, "Awaiting your answer"),
        _listed(_awaiting_you(ctx, state, v, faction, due), "Nothing."),
        heading(2, "Awaiting others"),
        _listed(_awaiting_others(ctx, state, v, faction, due), "Nothing."),
        *(hand_blocks(n, state, v, faction) if state.phased else []),
        *_standing(ctx, v, faction),
        *position_at_end(ctx, turn, faction),
    ]
    return Document(tuple(blocks))


def messages_for(
    ctx: Reports, faction: str, turn: Turn | None = None, *, answered: bool = True
) -> list[Message]:
    """Every message asking ``faction`` for an answer now: alliance declarations,
    allied orders, army formations and ransoms awaiting it, the open proposal in
    Parliament it has still to vote on, storms waiting for its
    ports, permissions asked of it, with their deadlines; then (``answered``) those
    sent in ``turn`` (None: the turn now) that it has answered or that ended, each
    marked with how it ended (``answered.answered_messages``)."""
    state = ctx.timeline.now
    v = view(state, faction)
    due = ctx.timeline.position.due()
    n, d = ctx.names, ctx.describe
    out = [
        alliance_request(state, x.id, faction, n, due=due.get(x.id), describe=d)
        for x in v.declarations
        if faction in x.awaiting
    ]
    for r in v.requests:
        if faction in r.awaiting:
            ask = _ASKS.get(r.rule)
            if ask is not None:
                out.append(ask(state, r.id, faction, n, due=due.get(r.id), describe=d))
    out += [
        storm_request(state, st, faction, n, due=due.get(st), describe=d)
        for st in storms_awaiting(state, faction)
    ]
    out += [vote_request(state, pr, faction, n, describe=d) for pr in votes_awaiting(state, faction)]
    out += _permission_asks(ctx, state, faction)
    if answered:
        turns = ctx.timeline.turns()
        out += answered_messages(ctx, faction, turn or (turns[-1] if turns else None))
    return out


def _permission_asks(ctx: Reports, state: GameState, faction: str) -> list[Message]:
    """Requests for permission made to ``faction`` that it has not granted yet, while it
    still controls the place."""
    asks: dict[tuple[str, str], PermissionAsked] = {}
    for env in ctx.visible(faction):
        e = env.event
        if isinstance(e, PermissionAsked) and e.of == faction:
            asks[(e.by, e.place)] = e
        elif isinstance(e, PermissionGranted) and e.by == faction:
            ask = asks.get((e.to, e.place))
            if ask is not None and set(ask.aspects) <= set(e.aspects):
                del asks[(e.to, e.place)]
    return [
        permission_request(
            a.by, faction, a.place, a.aspects, a.note, ctx.names, state=state, describe=ctx.describe
        )
        for a in asks.values()
        if state.control.get(a.place) == faction
    ]
