"""From a log to a state: apply the rules events in order, honouring the GM's undo.

Service events (seats, deadlines, undo) are in the log for the audit but do not touch
the rules state; ``Undone(to_seq)`` restores the state as it stood after ``to_seq``
(history is never edited: the undo is itself an entry)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kingmaker.rules.apply import apply
from kingmaker.rules.events import Event
from kingmaker.rules.state import GameState

from .envelope import Envelope
from .service_events import Undone


def effective(envelopes: Sequence[Envelope]) -> list[Envelope]:
    """The rules events in force: each undo drops the events after its target."""
    live: list[Envelope] = []
    for env in envelopes:
        if isinstance(env.event, Undone):
            target = env.event.to_seq
            while live and live[-1].seq > target:
                live.pop()
        elif isinstance(env.event, Event):
            live.append(env)
    return live


def fold(initial: GameState, envelopes: Iterable[Envelope]) -> GameState:
    """The state after ``envelopes`` (all of a game's entries from the first)."""
    envs = list(envelopes)
    if not any(isinstance(e.event, Undone) for e in envs):
        state = initial
        for env in envs:
            if isinstance(env.event, Event):
                state = apply(state, env.event)
        return state
    state = initial
    for env in effective(envs):
        state = apply(state, env.event)  # type: ignore[arg-type]
    return state
