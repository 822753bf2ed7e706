"""A game as the service holds it: the rules state, plus the service's own facts folded
from the log (open deadlines, who has ordered this turn). Snapshots store all of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kingmaker.log.envelope import Envelope
from kingmaker.log.service_events import DeadlinePassed, DeadlineSet, OrderSubmitted
from kingmaker.rules.apply import apply
from kingmaker.rules.board import Board
from kingmaker.rules.cards import Catalog
from kingmaker.rules.codec import state_from_data, state_to_data
from kingmaker.rules.events import Event
from kingmaker.rules.hashing import state_hash
from kingmaker.rules.state import GameState
from kingmaker.storage.base import GameRecord, Snapshot

from .settings import GameSettings


@dataclass(frozen=True)
class Deadline:
    target: str  # a faction (its turn), an alliance id or a request id
    kind: str  # "turn" | "declaration" | "request"
    due: str  # ISO 8601 UTC
    extended: bool = False


@dataclass
class Projection:
    record: GameRecord
    settings: GameSettings
    state: GameState
    head: int
    deadlines: dict[str, Deadline] = field(default_factory=dict)
    ordered: set[tuple[int, str, str]] = field(default_factory=set)  # (round, turn, faction)

    def copy(self) -> Projection:
        return Projection(
            self.record, self.settings, self.state, self.head, dict(self.deadlines), set(self.ordered)
        )

    def step(self, env: Envelope) -> None:
        """Fold one entry (not an undo: the service handles those by reloading)."""
        e = env.event
        if isinstance(e, Event):
            self.state = apply(self.state, e)
        elif isinstance(e, DeadlineSet):
            self.deadlines[e.target] = Deadline(e.target, e.target_kind, e.due, e.extended)
        elif isinstance(e, DeadlinePassed):
            self.deadlines.pop(e.target, None)
        elif isinstance(e, OrderSubmitted):
            self.ordered.add((env.round, env.turn, e.by))
        self.head = env.seq

    def has_ordered(self, faction: str) -> bool:
        """Whether ``faction`` submitted anything in the current turn."""
        return (self.state.round, self.state.turn, faction) in self.ordered

    def open_deadlines(self) -> list[Deadline]:
        """Deadlines whose target is still waiting: the current turn, pending
        declarations and requests."""
        out = []
        for d in self.deadlines.values():
            if d.kind == "turn" and d.target != self.state.turn:
                continue
            if d.kind == "declaration" and d.target not in self.state.declarations:
                continue
            if d.kind == "request" and d.target not in self.state.requests:
                continue
            out.append(d)
        return sorted(out, key=lambda d: (d.due, d.target))

    def snapshot(self) -> Snapshot:
        data: dict[str, Any] = {
            "rules": state_to_data(self.state),
            "deadlines": {k: [d.kind, d.due, d.extended] for k, d in sorted(self.deadlines.items())},
            "ordered": sorted([list(x) for x in self.ordered]),
        }
        return Snapshot(self.head, data, state_hash(self.state))

    @classmethod
    def from_snapshot(
        cls, record: GameRecord, settings: GameSettings, snap: Snapshot, board: Board, catalog: Catalog
    ) -> Projection:
        data = snap.state
        rules = data.get("rules", data)
        state = state_from_data(rules, board, catalog)
        deadlines = {
            k: Deadline(k, str(v[0]), str(v[1]), bool(v[2])) for k, v in (data.get("deadlines") or {}).items()
        }
        ordered = {(int(r), str(t), str(f)) for r, t, f in data.get("ordered") or []}
        return cls(record, settings, state, snap.seq, deadlines, ordered)

    @classmethod
    def initial_snapshot(cls, state: GameState) -> Snapshot:
        return Snapshot(0, {"rules": state_to_data(state), "deadlines": {}, "ordered": []}, state_hash(state))
