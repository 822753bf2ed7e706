"""The three reports a GM posts each turn: the orders as given, the resolution, and
the position at the end of the turn (or now), for one viewer.

Every entry comes through ``visible_log`` and the position through ``view``: the
public version is what the thread may read, a faction's what its player may, the GM's
everything."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kingmaker.log.envelope import Envelope
from kingmaker.log.service_events import GameStarted, LineUnread, OrderSubmitted, PlayerSeated
from kingmaker.rules.commands import GM, EndPhase
from kingmaker.rules.events import SeedCommitted
from kingmaker.rules.views import PUBLIC

from .context import Reports
from .document import Block, Document, Inline, Item, bold, bullets, heading, inlines, italic, item, para
from .happenings import order_text, sentence
from .position import position
from .timeline import Live, Turn
from .wording import without_rule

UNDONE = " (undone by the GM)"
# the game's bookkeeping (its start, the seed's commitment, who plays whom): told in a
# section of its own before the turn's orders, never as the first of its happenings
SETTING_UP = (GameStarted, SeedCommitted, PlayerSeated)


def played(entries: Sequence[Envelope]) -> list[Envelope]:
    """``entries`` without the game's bookkeeping (``SETTING_UP``)."""
    return [e for e in entries if not isinstance(e.event, SETTING_UP)]


def setting_up(ctx: Reports, turn: Turn, viewer: str, level: int = 2) -> list[Block]:
    """The game's start, its seed's commitment and its seats in ``turn``, if any, under
    a heading of their own ("The game begins", or "Players" later in the game)."""
    entries = [e for e in ctx.visible_in(turn, viewer) if isinstance(e.event, SETTING_UP)]
    if not entries:
        return []
    number = ctx.numbering(viewer)
    items = []
    for env in entries:
        s = sentence(env, ctx.names, ctx.describe, ctx.timeline.state_before(env.seq), number)
        if s is not None:
            items.append(item(s, italic(UNDONE) if env.seq not in ctx.timeline.live else None))
    begins = any(isinstance(e.event, GameStarted) for e in entries)
    return [heading(level, "The game begins" if begins else "Players"), bullets(items)]


def _title(ctx: Reports, turn: Turn) -> tuple[Inline, ...]:
    rnd, faction = turn
    return inlines(f"Round {rnd}: ", ctx.names.possessive(faction), " turn")


def _faction_order(ctx: Reports, turn: Turn, factions: Iterable[str]) -> list[str]:
    """The faction whose turn it was first, then the others in turn order, the GM last."""
    order = list(ctx.timeline.state_at_end_of(turn).turn_order)
    if turn[1] in order:
        i = order.index(turn[1])
        order = order[i:] + order[:i]
    rank = {f: k for k, f in enumerate([*order, GM])}
    return sorted(set(factions), key=lambda f: (rank.get(f, len(rank)), f))


def orders_as_given(ctx: Reports, turn: Turn, viewer: str) -> list[Block]:
    """Every submission of the turn that ``viewer`` may read, by faction, in order: in
    the player's own words when the order came as text (with the engine's reading beside
    them when it reads differently), and the lines that gave no order, with why."""
    entries = [
        e
        for e in ctx.visible_in(turn, viewer)
        if isinstance(e.event, OrderSubmitted | LineUnread) and not _phase_step(e.event)
    ]
    if not entries:
        if viewer == PUBLIC and not ctx.timeline.is_over(turn):
            return [para(italic("The turn's orders are published when it ends."))]
        return [para(italic("No orders to publish." if viewer == PUBLIC else "No orders."))]
    live = ctx.timeline.live
    by_faction: dict[str, list[Item]] = {}
    for env in entries:
        o = env.event
        undone = italic(UNDONE) if env.seq not in live else None
        if isinstance(o, LineUnread):
            by_faction.setdefault(o.by, []).append(
                item(quoted(o.text), " — ", bold("not read"), ": ", o.message)
            )
            continue
        assert isinstance(o, OrderSubmitted)
        text = order_text(o.command, ctx.describe, ctx.timeline.state_before(env.seq))
        if o.text is None or _same_words(o.text, text):
            line = item(text, undone)
        else:
            line = item(quoted(o.text), " — read as: ", text, undone)
        by_faction.setdefault(o.by, []).append(line)
    return [
        bullets(
            item(ctx.names.faction(f) if f != GM else "The GM", ":", children=by_faction[f])
            for f in _faction_order(ctx, turn, by_faction)
        )
    ]


def _phase_step(e: object) -> bool:
    """The GM's accepted END PHASE: the resolution's phase headings tell it."""
    return isinstance(e, OrderSubmitted) and isinstance(e.command, EndPhase) and e.result != "refused"


def quoted(words: str) -> str:
    """A player's own words, in quotation marks."""
    return f"\u201c{words}\u201d"


def _same_words(written: str, canonical: str) -> bool:
    return " ".join(written.split()).casefold() == " ".join(canonical.split()).casefold()


def _groups(entries: Sequence[Envelope]) -> list[list[Envelope]]:
    """Consecutive entries written by one command (one order and what it caused)."""
    out: list[list[Envelope]] = []
    for env in entries:
        if out and env.command is not None and out[-1][0].command == env.command:
            out[-1].append(env)
        else:
            out.append([env])
    return out


def _outcome(ctx: Reports, env: Envelope) -> tuple[Inline, ...]:
    o = env.event
    assert isinstance(o, OrderSubmitted)
    text = order_text(o.command, ctx.describe, ctx.timeline.state_before(env.seq))
    who = ctx.names.faction(o.by) if o.by != GM else "The GM"
    rule = f" [{o.rule}]" if o.rule else ""
    return inlines(who, f": {text} — ", bold(o.result), rule, ": ", without_rule(o.explanation, o.rule))


def resolution_items(ctx: Reports, entries: Sequence[Envelope], live: Live, viewer: str) -> list[Item]:
    """Each order with its outcome (accepted / refused / pending, rule, explanation) and
    what it caused; and each other entry (the GM's rulings, the clock's deadlines), as
    ``viewer`` reads them (entries numbered as it numbers them)."""
    number = ctx.numbering(viewer)
    items: list[Item] = []
    for group in _groups(entries):
        undone = italic(UNDONE) if group[0].seq not in live else None
        first = group[0]
        if isinstance(first.event, OrderSubmitted):
            children = []
            for env in group[1:]:
                s = sentence(env, ctx.names, ctx.describe, ctx.timeline.state_before(env.seq), number)
                if s is not None:
                    children.append(item(s))
            items.append(item(_outcome(ctx, first), undone, children=children))
            continue
        for env in group:
            s = sentence(env, ctx.names, ctx.describe, ctx.timeline.state_before(env.seq), number)
            if s is not None:
                rule = f" [{env.rule}]" if env.rule else ""
                items.append(item(s, rule, italic(UNDONE) if env.seq not in live else None))
    return items


def resolution(ctx: Reports, turn: Turn, viewer: str) -> list[Block]:
    if ctx.timeline.state_at_end_of(turn).phased:  # the full game: by phase (``phased``)
        from .phased import phased_resolution

        return phased_resolution(ctx, turn, viewer)
    entries = played(ctx.visible_in(turn, viewer))
    items = resolution_items(ctx, entries, ctx.timeline.live, viewer)
    return [bullets(items)] if items else [para(italic("Nothing happened."))]


def position_at_end(ctx: Reports, turn: Turn, viewer: str, level: int = 2) -> list[Block]:
    v = ctx.view_at_end(turn, viewer)
    rnd, faction = turn
    if v.game_over:
        title = inlines(
            "Position at the end of the game (round ", str(rnd), ", ", ctx.names.possessive(faction), " turn)"
        )
    elif ctx.timeline.is_over(turn):
        title = inlines("Position at the end of ", ctx.names.possessive(faction), f" turn (round {rnd})")
    else:
        title = inlines(f"Position now (round {v.round}, ", ctx.names.faction(v.turn), " to play)")
    return position(v, ctx.names, title=title, level=level)


def turn_report(ctx: Reports, turn: Turn, viewer: str) -> Document:
    """The three reports of ``turn`` for ``viewer``: ``public`` (the thread), ``gm``, or
    a faction."""
    who = {PUBLIC: None, GM: " (GM's copy)"}.get(viewer, f" (for {ctx.names.faction_name(viewer)})")
    return Document(
        (
            heading(1, _title(ctx, turn), who),
            *setting_up(ctx, turn, viewer),
            heading(2, "Orders as given"),
            *orders_as_given(ctx, turn, viewer),
            heading(2, "Resolution"),
            *resolution(ctx, turn, viewer),
            *position_at_end(ctx, turn, viewer),
        )
    )
