"""The map to post with a turn's report: the position at the end of that turn (or now),
as one reader may see it, captioned "<game>: round 4, after Red's turn".

Read from what the service answers (``GameService.report_inputs``: the game's record,
its settings and the timeline it holds), never from the store; the position is
``view(state, viewer)``, so the public's map shows what the thread may see and a
faction's what its player may.
"""

from __future__ import annotations

from kingmaker.log.fold import Turn
from kingmaker.rules.views import view
from kingmaker.service.game_service import ReportInputs

from .draw import Styles
from .forum import ForumMap, forum_map
from .geometry import Geometry

__all__ = ["last_turn_over", "posted_map"]


def last_turn_over(inputs: ReportInputs) -> Turn | None:
    """The last turn that has ended (the one a GM posts), or None before any."""
    tl = inputs.timeline
    over = [t for t in tl.turns() if tl.is_over(t)]
    return over[-1] if over else None


def posted_map(
    inputs: ReportInputs,
    viewer: str,
    turn: Turn | None = None,
    *,
    now: bool = False,
    geo: Geometry | None = None,
) -> ForumMap:
    """The map of the position after ``turn`` (default: the last turn that has ended)
    for ``viewer`` (``public``, ``gm`` or a faction); ``now``: the position now.
    ``KeyError`` when the log has no such turn."""
    tl = inputs.timeline
    styles = Styles.of(inputs.settings.factions)
    name = inputs.record.name
    if not now and turn is None:
        turn = last_turn_over(inputs)
    if now or turn is None:
        state = tl.now
        caption = f"{name}: round {state.round}, {styles.name(state.turn)} to play"
    else:
        if turn not in tl.turns():
            raise KeyError(f"no turn of {turn[1]} in round {turn[0]} yet")
        state = tl.state_at_end_of(turn)
        if tl.is_over(turn):
            caption = f"{name}: round {turn[0]}, after {styles.name(turn[1])}'s turn"
        else:
            caption = f"{name}: round {turn[0]}, {styles.name(turn[1])}'s turn in play"
    if state.game_over:
        caption += (
            f" (the game is over: {styles.name(state.winner)} wins)"
            if state.winner
            else " (the game is over)"
        )
    return forum_map(state.board, state.catalog, view(state, viewer), styles, caption=caption, geo=geo)
