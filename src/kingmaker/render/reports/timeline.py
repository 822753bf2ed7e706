"""A game's log as the reports read it: the service's ``Timeline`` (``kingmaker.log.fold``:
the state after every entry, the turns, the entries in force after undos, the deadlines
then, what each viewer may read), and the entries of one turn."""

from __future__ import annotations

from collections.abc import Iterable

from kingmaker.log.envelope import Envelope
from kingmaker.log.fold import Live, Timeline, Turn

__all__ = ["Live", "Timeline", "Turn", "in_turn"]


def in_turn(envelopes: Iterable[Envelope], turn: Turn) -> list[Envelope]:
    return [e for e in envelopes if (e.round, e.turn) == turn]
