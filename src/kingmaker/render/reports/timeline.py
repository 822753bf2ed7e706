"""A game's log read for reports: the state after every entry, the turns, the
entries of a turn, which entries a later undo took back, and open deadlines.

Pure: built from the initial state and the envelopes (no store, no clock). The state
after an ``Undone(to_seq)`` entry is the state after entry ``to_seq``, as the service
replays it."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence

from kingmaker.log.envelope import Envelope
from kingmaker.log.service_events import DeadlinePassed, DeadlineSet, Undone
from kingmaker.rules.apply import apply
from kingmaker.rules.events import Event
from kingmaker.rules.state import GameState

Turn = tuple[int, str]  # (round, faction whose turn it is)


class Timeline:
    """Every state of one game, by log entry. Grows with ``add``."""

    def __init__(self, initial: GameState, envelopes: Iterable[Envelope] = ()):
        self.initial = initial
        self.envelopes: list[Envelope] = []
        self._seqs: list[int] = []
        self._after: list[GameState] = []
        self._last: dict[Turn, int] = {}  # each turn's last entry, turns in order of first entry
        self.add(envelopes)

    def add(self, envelopes: Iterable[Envelope]) -> None:
        """Fold more entries (each with a higher ``seq`` than those already read)."""
        for env in envelopes:
            if self._seqs and env.seq <= self._seqs[-1]:
                continue
            state = self.state_after(self._seqs[-1]) if self._seqs else self.initial
            if isinstance(env.event, Undone):
                state = self.state_after(env.event.to_seq)
            elif isinstance(env.event, Event):
                state = apply(state, env.event)
            self.envelopes.append(env)
            self._seqs.append(env.seq)
            self._after.append(state)
            self._last[(env.round, env.turn)] = env.seq

    # -- states -----------------------------------------------------------------------
    @property
    def head(self) -> int:
        return self._seqs[-1] if self._seqs else 0

    def state_after(self, seq: int) -> GameState:
        """The state after entry ``seq`` (the initial state for 0)."""
        i = bisect.bisect_right(self._seqs, seq)
        return self._after[i - 1] if i else self.initial

    def state_before(self, seq: int) -> GameState:
        return self.state_after(seq - 1)

    @property
    def now(self) -> GameState:
        return self.state_after(self.head)

    # -- turns ------------------------------------------------------------------------
    def turns(self) -> list[Turn]:
        """Every turn the log has entries for, in order of first entry."""
        return list(self._last)

    def last_seq_of(self, turn: Turn) -> int:
        """The last entry of ``turn`` (0 when it has none)."""
        return self._last.get(turn, 0)

    def state_at_end_of(self, turn: Turn) -> GameState:
        """The state after the turn's last entry: the position at its end, or now."""
        last = self.last_seq_of(turn)
        return self.state_after(last) if last else self.now

    def is_over(self, turn: Turn) -> bool:
        last = self.last_seq_of(turn)
        return 0 < last < self.head


def in_turn(envelopes: Iterable[Envelope], turn: Turn) -> list[Envelope]:
    return [e for e in envelopes if (e.round, e.turn) == turn]


def live_seqs(envelopes: Sequence[Envelope]) -> frozenset[int]:
    """The entries still in force after the last one: those no undo took back (an
    ``Undone`` entry is itself in force unless a later undo went back before it)."""
    memo: dict[int, list[int]] = {}

    def live_after(limit: int) -> list[int]:
        if limit in memo:
            return memo[limit]
        live: list[int] = []
        for env in envelopes:
            if env.seq > limit:
                break
            if isinstance(env.event, Undone):
                live = list(live_after(min(env.event.to_seq, env.seq - 1)))
            live.append(env.seq)
        memo[limit] = live
        return live

    return frozenset(live_after(envelopes[-1].seq if envelopes else 0))


def deadlines(envelopes: Sequence[Envelope], upto: int | None = None) -> dict[str, str]:
    """Deadlines set and not yet passed after entry ``upto``: target -> due (ISO UTC).
    Read from whatever entries the caller may see (its ``visible_log``)."""
    envs = [e for e in envelopes if upto is None or e.seq <= upto]
    live = live_seqs(envs)
    due: dict[str, str] = {}
    for env in envs:
        if env.seq not in live:
            continue
        e = env.event
        if isinstance(e, DeadlineSet):
            due[e.target] = e.due
        elif isinstance(e, DeadlinePassed):
            due.pop(e.target, None)
    return due
