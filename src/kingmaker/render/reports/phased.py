"""The resolution of a turn of the full game (a game with phases): the entries a viewer
may read, under a short heading for each phase in which something happened ("Event
phase", "Movement phase", "Combat phase", ..., "End of the turn"), each battle and each
siege's draw as a paragraph and a table (``fighting``).

The phases' own entries ("the turn moves on to its combat phase") are not told: the
headings say it; nor are the GM's accepted ``END PHASE`` steps. A Crown card drawn into
another faction's hand, or a deck shuffled, is told without the card or the order
(``full_events.redacted``)."""

from __future__ import annotations

from collections.abc import Sequence

from kingmaker.log.envelope import Envelope
from kingmaker.log.service_events import (
    DeadlinePassed,
    DeadlineSet,
    GameStarted,
    LineUnread,
    OrdersMissed,
    OrderSubmitted,
    PlayerSeated,
    Undone,
)
from kingmaker.rules import commands as rc
from kingmaker.rules import events as ev
from kingmaker.rules import ids
from kingmaker.rules.commands import GM

from .context import Reports
from .document import Block, Item, bullets, heading, italic, para
from .fighting import Told, battle_blocks, siege_blocks
from .full_events import redacted, told_in_part
from .parliament import folded_votes, told_sitting
from .timeline import Turn

END = "end"
TITLES = {
    "event": "Event phase",
    "movement": "Movement phase",
    "combat": "Combat phase",
    "parliament": "Parliament phase",
    "coronation": "Coronation phase",
    "crown": "Crown phase",
    END: "End of the turn",
}
UNDONE = " (undone by the GM)"
# entries that belong to no phase: they join the section they fall in
_BOOKKEEPING = (
    DeadlineSet,
    DeadlinePassed,
    GameStarted,
    PlayerSeated,
    OrdersMissed,
    Undone,
    ev.SeedCommitted,
    ev.SeedRevealed,
)


def readable(ctx: Reports, turn: Turn, viewer: str) -> list[Envelope]:
    """The entries of ``turn`` that ``viewer`` may read, with those it may not read but
    is told of in part (a Crown card drawn by another, a deck shuffled) redacted."""
    seen = ctx.visible_in(turn, viewer)
    if viewer == GM:
        return seen
    have = {e.seq for e in seen}
    told = [redacted(e) for e in ctx.visible_in(turn, GM) if e.seq not in have and told_in_part(e, viewer)]
    return sorted([*seen, *told], key=lambda e: e.seq) if told else seen


def groups(entries: Sequence[Envelope]) -> list[list[Envelope]]:
    """Consecutive entries written by one command."""
    out: list[list[Envelope]] = []
    for env in entries:
        if out and env.command is not None and out[-1][0].command == env.command:
            out[-1].append(env)
        else:
            out.append([env])
    return out


def _phase_of(ctx: Reports, group: Sequence[Envelope]) -> str | None:
    """The phase a group belongs to: the phase once its first rules event is applied
    (an order that moves the turn on is told in the phase it moved to); None for the
    service's bookkeeping, which joins the section it falls in."""
    if any(isinstance(e.event, ev.TurnEnded) or _ends_at_turn_end(e.event) for e in group):
        return END
    if all(isinstance(e.event, _BOOKKEEPING) for e in group):
        return None
    first = next((e for e in group if not isinstance(e.event, OrderSubmitted | LineUnread)), group[0])
    return ctx.timeline.state_after(first.seq).phase or None


def _ends_at_turn_end(e: object) -> bool:
    """The game's end found by the check when a turn ends (every victory but
    Parliament's, which comes in its phase): the turn ends with it, without a
    ``TurnEnded``."""
    return isinstance(e, ev.GameEnded) and e.rule != ids.VICTORY_PARLIAMENT


def _phase_step(group: Sequence[Envelope]) -> bool:
    """An accepted END PHASE (the heading of the next phase tells it)."""
    first = group[0].event
    return (
        isinstance(first, OrderSubmitted)
        and isinstance(first.command, rc.EndPhase)
        and first.result != "refused"
    )


def told_fight(ctx: Reports, group: Sequence[Envelope]) -> Told | None:
    """The blocks of the battle or the siege draw among ``group`` (the entries one
    command wrote), or None."""
    n = ctx.names
    for env in group:
        if isinstance(env.event, ev.BattleFought):
            return battle_blocks(n, group, env)
        if isinstance(env.event, ev.SiegeDrawn):
            tl = ctx.timeline
            return siege_blocks(n, group, env, tl.state_before(group[0].seq), tl.state_before(env.seq))
    return None


def phased_resolution(ctx: Reports, turn: Turn, viewer: str) -> list[Block]:
    from .turn import played, resolution_items  # the items of ordinary entries, as in any game

    live = ctx.timeline.live
    sections: list[tuple[str | None, list[Item | Block]]] = []
    for group in groups(folded_votes(played(readable(ctx, turn, viewer)))):
        if _phase_step(group):
            continue
        phase = _phase_of(ctx, group)
        if not sections or (phase is not None and phase != sections[-1][0]):
            sections.append((phase, []))
        pieces = sections[-1][1]
        told = told_fight(ctx, group) or told_sitting(ctx, group, viewer)
        rest = list(group)
        if told is not None:
            blocks = told.blocks
            if group[0].seq not in live:
                blocks = [*blocks, para(italic(UNDONE.strip()))]
            pieces += blocks
            rest = [
                e
                for e in group
                if e.seq not in told.covered
                and not (isinstance(e.event, OrderSubmitted) and e.event.result == "accepted")
            ]
        pieces += resolution_items(ctx, rest, live, viewer)
    out: list[Block] = []
    for phase, pieces in sections:
        if not pieces:
            continue
        if phase is not None:
            out.append(heading(3, TITLES.get(phase, phase.capitalize())))
        items: list[Item] = []
        for piece in pieces:
            if isinstance(piece, Item):
                items.append(piece)
                continue
            if items:
                out.append(bullets(items))
                items = []
            out.append(piece)
        if items:
            out.append(bullets(items))
    return out or [para(italic("Nothing happened."))]
