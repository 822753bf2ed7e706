"""The one fold of a game's log: from entries to positions, with the GM's undo.

A ``Position`` is the game after one entry: the rules state, the deadlines set and not
yet passed, and who has ordered in which turn. ``Position.after(env)`` folds one entry
(rules events change the state; ``DeadlineSet`` / ``DeadlinePassed`` the deadlines;
``OrderSubmitted`` who has ordered; other service entries nothing).

A ``Fold`` folds entries one by one and keeps the position after each of them, so
``Undone(to_seq)`` restores the position exactly as it stood after entry ``to_seq``
(its deadlines and who has ordered included; history is never edited: the undo is an
entry, and a later undo may restore a position from before an earlier one). A fold may
start from a snapshot (a position after some entry): an undo to before its start raises
``Unreachable``, and whoever holds the log gives the restored position to ``step``.

A ``Timeline`` is a fold seen up to one entry: what the reports read (the state after
each entry, the turns, which entries an undo took back, the deadlines then, what each
viewer may read). It never moves, however the fold grows, so it may be read from any
thread while the fold's owner folds further entries.

The service (``kingmaker.service``) holds one fold per game and folds only entries it
has not folded yet; reports take its timelines.

>>> from kingmaker.data import load_dataset
>>> from kingmaker.rules.deal import new_game
>>> from kingmaker.rules.events import TurnEnded
>>> from .envelope import Envelope
>>> from .service_events import Undone
>>> ds = load_dataset()
>>> f = Fold(Position(new_game(ds.board, ds.catalog, ("red", "blue"), "doc")))
>>> f.step(Envelope(1, 1, "red", "gm", None, TurnEnded(), ""))
>>> f.state.turn
'blue'
>>> f.step(Envelope(2, 1, "blue", "gm", None, Undone(0), ""))
>>> f.state.turn, 1 in f.timeline().live, 2 in f.timeline().live
('red', False, True)
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kingmaker.rules.apply import apply
from kingmaker.rules.board import Board
from kingmaker.rules.cards import Catalog
from kingmaker.rules.codec import state_from_data, state_to_data
from kingmaker.rules.events import Event
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.state import GameState

from .envelope import Envelope
from .service_events import DeadlinePassed, DeadlineSet, OrderSubmitted, Undone
from .visibility import visible_log

Turn = tuple[int, str]  # (round, faction whose turn it is)


@dataclass(frozen=True)
class Deadline:
    """A deadline set and not passed: for a faction's turn (``target`` = the faction),
    an alliance declaration or a request (``target`` = its id)."""

    target: str
    kind: str  # "turn" | "declaration" | "request"
    due: str  # ISO 8601 UTC
    extended: bool = False


@dataclass(frozen=True, slots=True)
class Position:
    """The game after one entry: the rules state, the open deadlines (by target) and
    who has ordered, as (round, turn, faction)."""

    state: GameState
    deadlines: Mapping[str, Deadline] = field(default_factory=FrozenDict)
    ordered: frozenset[tuple[int, str, str]] = frozenset()

    def after(self, env: Envelope) -> Position:
        """The position after ``env`` (any entry but an undo: ``Fold.step`` does those)."""
        e = env.event
        if isinstance(e, Event):
            return Position(apply(self.state, e), self.deadlines, self.ordered)
        if isinstance(e, DeadlineSet):
            d = Deadline(e.target, e.target_kind, e.due, e.extended)
            return Position(self.state, FrozenDict({**self.deadlines, e.target: d}), self.ordered)
        if isinstance(e, DeadlinePassed):
            if e.target not in self.deadlines:
                return self
            rest = {k: v for k, v in self.deadlines.items() if k != e.target}
            return Position(self.state, FrozenDict(rest), self.ordered)
        if isinstance(e, OrderSubmitted):
            key = (env.round, env.turn, e.by)
            if key in self.ordered:
                return self
            return Position(self.state, self.deadlines, self.ordered | {key})
        if isinstance(e, Undone):
            raise ValueError("an undo restores an earlier position: fold it with Fold.step")
        return self

    def has_ordered(self, faction: str) -> bool:
        """Whether ``faction`` submitted anything in the current turn."""
        return (self.state.round, self.state.turn, faction) in self.ordered

    def open_deadlines(self) -> list[Deadline]:
        """Deadlines whose target still waits: the current turn, pending declarations,
        requests (ransoms and allied orders among them) and storms; by due time."""
        s = self.state
        if s.game_over:  # the game has ended: nothing waits for anyone (VICTORY.timing)
            return []
        out = [
            d
            for d in self.deadlines.values()
            if not (d.kind == "turn" and d.target != s.turn)
            and not (d.kind == "declaration" and d.target not in s.declarations)
            and not (d.kind == "request" and d.target not in s.requests and d.target not in s.storms)
        ]
        return sorted(out, key=lambda d: (d.due, d.target))

    def due(self) -> dict[str, str]:
        """Every deadline set and not passed, by target: its due time (ISO UTC)."""
        return {k: d.due for k, d in self.deadlines.items()}

    # -- snapshots --------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        """The position as a snapshot stores it."""
        return {
            "rules": state_to_data(self.state),
            "deadlines": {k: [d.kind, d.due, d.extended] for k, d in sorted(self.deadlines.items())},
            "ordered": sorted([list(x) for x in self.ordered]),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any], board: Board, catalog: Catalog) -> Position:
        """A snapshot's position, of any format (the oldest held the rules state alone)."""
        rules = data.get("rules", data)
        state = state_from_data(dict(rules), board, catalog)
        deadlines = FrozenDict(
            {
                k: Deadline(k, str(v[0]), str(v[1]), bool(v[2]))
                for k, v in (data.get("deadlines") or {}).items()
            }
        )
        ordered = frozenset((int(r), str(t), str(f)) for r, t, f in data.get("ordered") or [])
        return cls(state, deadlines, ordered)


class Unreachable(LookupError):
    """An undo restores the position after an entry this fold does not hold (it starts
    from a later snapshot): ``seq`` is that entry."""

    def __init__(self, seq: int):
        super().__init__(f"the fold holds no position after entry {seq}")
        self.seq = seq


class Fold:
    """A game's log folded entry by entry, keeping the position after each entry from
    ``start_seq`` (the entry ``start`` stands after: 0 for the game as created).

    Entries are folded in order (``step``) and only appended: a ``Timeline`` taken at one
    head stays as it was. Not thread-safe for writers: one writer at a time (the service
    folds under its per-game lock); any number of readers of timelines.
    """

    def __init__(self, start: Position, start_seq: int = 0, *, parent: Timeline | None = None):
        self.start = start
        self.start_seq = start_seq
        self._tip = (start_seq, start)  # the head and the position after it, set together
        self._parent = parent  # where positions before start_seq are read (a branch)
        self._envs: list[Envelope] = []
        self._seqs: list[int] = []
        self._pos: list[Position] = []
        self._undo_seqs: list[int] = []
        self._undo_targets: list[int] = []
        self._turn_keys: list[Turn] = []  # turns in order of their first entry
        self._turn_firsts: list[int] = []
        self._turn_seqs: dict[Turn, list[int]] = {}
        self._last_turn: Turn | None = None
        self._window: Timeline | None = None

    @classmethod
    def of(cls, initial: GameState, envelopes: Iterable[Envelope] = ()) -> Fold:
        """A game's whole log folded from its initial state."""
        f = cls(Position(initial))
        for env in envelopes:
            f.step(env)
        return f

    @property
    def head(self) -> int:
        """The last entry folded (``start_seq`` when none)."""
        return self._tip[0]

    @property
    def position(self) -> Position:
        """The position after the head."""
        return self._tip[1]

    @property
    def state(self) -> GameState:
        return self._tip[1].state

    # -- folding ----------------------------------------------------------------------
    def step(self, env: Envelope, restored: Position | None = None) -> None:
        """Fold one entry (its ``seq`` after the head). An ``Undone`` restores the
        position kept after its target, or ``restored`` when given (the caller read it
        elsewhere after ``Unreachable``)."""
        head, pos = self._tip
        seq, e = env.seq, env.event
        if seq <= head:
            raise ValueError(f"entry {seq} is not after entry {head}, folded already")
        if isinstance(e, Event):  # the most entries, so first
            pos = Position(apply(pos.state, e), pos.deadlines, pos.ordered)
        elif isinstance(e, Undone):
            target = min(e.to_seq, seq - 1)
            pos = restored if restored is not None else self.after(target)
            self._undo_seqs.append(seq)
            self._undo_targets.append(target)
        else:
            pos = pos.after(env)
        self._push(env, pos)

    def _push(self, env: Envelope, pos: Position) -> None:
        # appended in this order, and windows read only up to their length: a window
        # taken between two writes sees whole entries
        seq = env.seq
        key = (env.round, env.turn)
        if key == self._last_turn:
            self._turn_seqs[key].append(seq)
        else:
            seqs = self._turn_seqs.get(key)
            if seqs is None:
                self._turn_seqs[key] = [seq]
                self._turn_keys.append(key)
                self._turn_firsts.append(seq)
            else:
                seqs.append(seq)
            self._last_turn = key
        self._seqs.append(seq)
        self._pos.append(pos)
        self._envs.append(env)
        self._tip = (seq, pos)

    def branch(self) -> Fold:
        """A fold that goes on from this one's head without changing it (its undos read
        this one's positions as they stand now); ``extend`` takes its entries back."""
        head, position = self._tip
        return Fold(position, head, parent=self.timeline())

    def extend(self, branch: Fold) -> None:
        """Append the entries ``branch`` folded (a branch taken at this fold's head)."""
        if branch.start_seq != self.head:
            raise ValueError(f"the branch starts at entry {branch.start_seq}, not at the head {self.head}")
        undone = dict(zip(branch._undo_seqs, branch._undo_targets, strict=True))
        for env, pos in zip(branch._envs, branch._pos, strict=True):
            if env.seq in undone:
                self._undo_seqs.append(env.seq)
                self._undo_targets.append(undone[env.seq])
            self._push(env, pos)

    # -- reading ----------------------------------------------------------------------
    def after(self, seq: int) -> Position:
        """The position after entry ``seq`` (the start for ``start_seq``); ``Unreachable``
        when this fold holds none."""
        return self.timeline().position_after(seq)

    def timeline(self) -> Timeline:
        """The fold as it stands now (the same object until it grows)."""
        w = self._window
        if w is None or w.length != len(self._envs):
            w = self._window = Timeline(self, len(self._envs))
        return w


class Live:
    """Which entries are in force: those no undo took back (an ``Undone`` entry is in
    force unless a later undo went back before it). Disjoint ranges of seqs."""

    __slots__ = ("_highs", "_lows")

    def __init__(self, ranges: Sequence[tuple[int, int]]):
        ordered = sorted(ranges)
        self._lows = [lo for lo, _ in ordered]
        self._highs = [hi for _, hi in ordered]

    def __contains__(self, seq: object) -> bool:
        if not isinstance(seq, int):
            return False
        i = bisect.bisect_right(self._lows, seq) - 1
        return i >= 0 and seq <= self._highs[i]


class Timeline:
    """A fold seen up to one entry: every position to its head, the turns, the entries
    in force, and what each viewer may read of the entries. Read-only."""

    def __init__(self, fold: Fold, length: int):
        self._fold = fold
        self.length = length
        self.head = fold._seqs[length - 1] if length else fold.start_seq
        self._envelopes: list[Envelope] | None = None
        self._live: Live | None = None
        self._visible: dict[str, list[Envelope]] = {}

    # -- positions --------------------------------------------------------------------
    @property
    def start_seq(self) -> int:
        return self._fold.start_seq

    @property
    def initial(self) -> GameState:
        """The state at the start (the game as created, for a fold from entry 0)."""
        return self._fold.start.state

    @property
    def envelopes(self) -> list[Envelope]:
        """The entries folded, in order (a list of its own)."""
        if self._envelopes is None:
            self._envelopes = self._fold._envs[: self.length]
        return self._envelopes

    def position_after(self, seq: int) -> Position:
        """The position after entry ``seq`` (the start at or before ``start_seq``, when
        the fold starts at 0); ``Unreachable`` for an entry before a later start."""
        f = self._fold
        if seq < f.start_seq:
            if f._parent is not None:
                return f._parent.position_after(seq)
            if f.start_seq > 0:
                raise Unreachable(seq)
            return f.start
        i = bisect.bisect_right(f._seqs, seq, 0, self.length)
        return f._pos[i - 1] if i else f.start

    @property
    def position(self) -> Position:
        return self.position_after(self.head)

    def state_after(self, seq: int) -> GameState:
        """The state after entry ``seq`` (the initial state for 0)."""
        return self.position_after(seq).state

    def state_before(self, seq: int) -> GameState:
        return self.state_after(seq - 1)

    @property
    def now(self) -> GameState:
        return self.position.state

    # -- turns ------------------------------------------------------------------------
    def turns(self) -> list[Turn]:
        """Every turn the log has entries for, in order of first entry."""
        f = self._fold
        return f._turn_keys[: bisect.bisect_right(f._turn_firsts, self.head)]

    def last_seq_of(self, turn: Turn) -> int:
        """The last entry of ``turn`` (0 when it has none)."""
        seqs = self._fold._turn_seqs.get(turn)
        if not seqs:
            return 0
        i = bisect.bisect_right(seqs, self.head)
        return seqs[i - 1] if i else 0

    def state_at_end_of(self, turn: Turn) -> GameState:
        """The state after the turn's last entry: the position at its end, or now."""
        last = self.last_seq_of(turn)
        return self.state_after(last) if last else self.now

    def is_over(self, turn: Turn) -> bool:
        last = self.last_seq_of(turn)
        return 0 < last < self.head

    # -- undo and visibility ----------------------------------------------------------
    @property
    def live(self) -> Live:
        """The entries in force after the head (of those this fold holds; an undo's
        target before a later start counts as in force)."""
        if self._live is None:
            f = self._fold
            count = bisect.bisect_right(f._undo_seqs, self.head)
            ranges: list[tuple[int, int]] = []
            limit = self.head
            while True:
                k = bisect.bisect_right(f._undo_seqs, limit, 0, count) - 1
                if k < 0:
                    ranges.append((-1, limit))
                    break
                undo = f._undo_seqs[k]
                ranges.append((undo, limit))
                limit = min(f._undo_targets[k], undo - 1)
            self._live = Live(ranges)
        return self._live

    def visible(self, viewer: str) -> list[Envelope]:
        """The entries ``viewer`` (a faction, ``gm`` or ``public``) may read
        (``log.visibility.visible_log``), worked out once per timeline."""
        seen = self._visible.get(viewer)
        if seen is None:
            seen = self._visible.setdefault(viewer, visible_log(self.envelopes, viewer))
        return seen


def fold(initial: GameState, envelopes: Iterable[Envelope]) -> GameState:
    """The state after ``envelopes`` (all of a game's entries from the first)."""
    return Fold.of(initial, envelopes).state
