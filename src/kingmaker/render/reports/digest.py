"""The round digest: one post for a whole round, beside the per-turn reports.

Every turn of the round in turn order, each with its orders as given and its
resolution (the same sections as the turn report, one heading level down), then one
position: at the end of the round, or now while the round goes on. A round of four
turns is one post instead of four, and the position is told once.

Built from the service's timeline (``Reports``) like every report, so it reads the log
and the states exactly as the turn reports do, for one viewer: the public digest holds
what the thread may read, a faction's what its player may, the GM's everything
(``visible_log`` and ``view`` decide it; nothing is folded again here)::

    doc = round_digest(ctx, 2, "public")   # or "gm", or a faction id
    text = render(doc, "bbcode")           # or "markdown", "plain"
"""

from __future__ import annotations

from dataclasses import replace

from kingmaker.rules.commands import GM
from kingmaker.rules.views import PUBLIC, view

from .context import Reports
from .document import Block, Document, Heading, Quote, heading, inlines, italic, para
from .position import position
from .timeline import Turn
from .turn import orders_as_given, resolution

__all__ = ["round_digest", "round_of_last_turn", "rounds", "turns_of_round"]


def rounds(ctx: Reports) -> list[int]:
    """The rounds the log has entries for, in order."""
    return sorted({r for r, _ in ctx.timeline.turns()})


def turns_of_round(ctx: Reports, rnd: int) -> list[Turn]:
    """The turns of round ``rnd`` the log has entries for, in the order they were played."""
    return [t for t in ctx.timeline.turns() if t[0] == rnd]


def round_of_last_turn(ctx: Reports) -> int | None:
    """The round to digest by default: that of the last turn that has ended (the
    current turn's when none has), or None before any turn."""
    turns = ctx.timeline.turns()
    if not turns:
        return None
    over = [t for t in turns if ctx.timeline.is_over(t)]
    return (over[-1] if over else turns[-1])[0]


def round_is_over(ctx: Reports, rnd: int) -> bool:
    """Whether round ``rnd`` has ended: a later round has begun."""
    return any(r > rnd for r, _ in ctx.timeline.turns())


def _down(blocks: list[Block], by: int = 1) -> list[Block]:
    """``blocks`` with every heading ``by`` levels lower (a turn report's sections
    become subsections of the turn in the digest)."""
    out: list[Block] = []
    for b in blocks:
        if isinstance(b, Heading):
            out.append(replace(b, level=b.level + by))
        elif isinstance(b, Quote):
            out.append(Quote(tuple(_down(list(b.blocks), by))))
        else:
            out.append(b)
    return out


def _turn_title(ctx: Reports, turn: Turn) -> Heading:
    live = "" if ctx.timeline.is_over(turn) else " (in play)"
    return heading(2, ctx.names.possessive(turn[1]), f" turn{live}")


def _summary(ctx: Reports, rnd: int, turns: list[Turn]) -> Block:
    """Which turns the digest tells, and whether the round is over."""
    names = ctx.names
    played = names.factions_list(f for _, f in turns)
    if round_is_over(ctx, rnd):
        return para("Turns: ", played, ".")
    now = ctx.timeline.now
    if now.round == rnd and not ctx.timeline.is_over(turns[-1]):
        return para(
            "Turns so far: ",
            played,
            ". ",
            italic("The round goes on: ", names.faction(now.turn), " to play."),
        )
    return para("Turns so far: ", played, ".")


def round_digest(ctx: Reports, rnd: int, viewer: str) -> Document:
    """Round ``rnd`` in one post for ``viewer`` (``public``, ``gm`` or a faction): every
    turn's orders as given and resolution, then the position at the end of the round
    (or now, while it goes on). ``KeyError`` when the log has no turn of that round."""
    turns = turns_of_round(ctx, rnd)
    if not turns:
        raise KeyError(f"no turn of round {rnd} yet")
    names = ctx.names
    who = {PUBLIC: None, GM: " (GM's copy)"}.get(viewer, f" (for {names.faction_name(viewer)})")
    blocks: list[Block] = [heading(1, f"Round {rnd} digest", who), _summary(ctx, rnd, turns)]
    for turn in turns:
        blocks.append(_turn_title(ctx, turn))
        blocks.append(heading(3, "Orders as given"))
        blocks += orders_as_given(ctx, turn, viewer)
        blocks.append(heading(3, "Resolution"))
        blocks += _down(resolution(ctx, turn, viewer))
    last = turns[-1]
    state = ctx.timeline.state_at_end_of(last)
    v = view(state, viewer)
    if ctx.timeline.is_over(last):
        if round_is_over(ctx, rnd):
            title = inlines(f"Position at the end of round {rnd}")
        else:
            title = inlines("Position after ", names.possessive(last[1]), f" turn (round {rnd})")
    else:
        title = inlines(f"Position now (round {v.round}, ", names.faction(v.turn), " to play)")
    blocks += position(v, names, title=title, level=2)
    return Document(tuple(blocks))
