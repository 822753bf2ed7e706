"""From a log to a state: apply the rules events in order, honouring the GM's undo.

Service entries (seats, deadlines, submissions) are in the log for the audit but do not
touch the rules state. ``Undone(to_seq)`` restores the state exactly as it stood after
entry ``to_seq`` (history is never edited: the undo is itself an entry, and a later undo
may even restore a state from before an earlier one)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kingmaker.rules.apply import apply
from kingmaker.rules.events import Event
from kingmaker.rules.state import GameState

from .envelope import Envelope
from .service_events import Undone


def effective(envelopes: Sequence[Envelope], upto: int | None = None) -> list[Envelope]:
    """The rules events in force after entry ``upto`` (default: the last)."""
    memo: dict[int, list[Envelope]] = {}

    def live_after(limit: int) -> list[Envelope]:
        if limit in memo:
            return memo[limit]
        live: list[Envelope] = []
        for env in envelopes:
            if env.seq > limit:
                break
            if isinstance(env.event, Undone):
                live = list(live_after(min(env.event.to_seq, env.seq - 1)))
            elif isinstance(env.event, Event):
                live.append(env)
        memo[limit] = live
        return live

    last = envelopes[-1].seq if envelopes else 0
    return live_after(last if upto is None else upto)


def fold(initial: GameState, envelopes: Iterable[Envelope]) -> GameState:
    """The state after ``envelopes`` (all of a game's entries from the first)."""
    envs = list(envelopes)
    state = initial
    if not any(isinstance(e.event, Undone) for e in envs):
        for env in envs:
            if isinstance(env.event, Event):
                state = apply(state, env.event)
        return state
    for env in effective(envs):
        state = apply(state, env.event)  # type: ignore[arg-type]
    return state
