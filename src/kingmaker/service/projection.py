"""A game as the service holds it: its record and settings beside the fold of its log
(``kingmaker.log.fold``: the rules state, open deadlines, who has ordered this turn, the
GM's undo). Snapshots store the fold's position."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kingmaker.log.envelope import Envelope
from kingmaker.log.fold import Deadline, Fold, Position
from kingmaker.rules.board import Board
from kingmaker.rules.cards import Catalog
from kingmaker.rules.hashing import state_hash
from kingmaker.rules.state import GameState
from kingmaker.storage.base import GameRecord, Snapshot

from .settings import GameSettings

__all__ = ["Deadline", "Projection"]


@dataclass
class Projection:
    record: GameRecord
    settings: GameSettings
    fold: Fold

    @property
    def state(self) -> GameState:
        return self.fold.state

    @property
    def head(self) -> int:
        return self.fold.head

    @property
    def position(self) -> Position:
        return self.fold.position

    @property
    def deadlines(self) -> Mapping[str, Deadline]:
        return self.fold.position.deadlines

    def copy(self) -> Projection:
        """The game as it stands, to fold further without changing this one."""
        return Projection(self.record, self.settings, self.fold.branch())

    def step(self, env: Envelope) -> None:
        """Fold one entry (an undo restores the position the fold kept; see
        ``UnitOfWork.fold_into`` for one to before the fold's start)."""
        self.fold.step(env)

    def has_ordered(self, faction: str) -> bool:
        """Whether ``faction`` submitted anything in the current turn."""
        return self.fold.position.has_ordered(faction)

    def open_deadlines(self) -> list[Deadline]:
        """Deadlines whose target is still waiting: the current turn, pending
        declarations and requests."""
        return self.fold.position.open_deadlines()

    def snapshot(self) -> Snapshot:
        return Snapshot(self.head, self.position.to_data(), state_hash(self.state))

    @classmethod
    def from_snapshot(
        cls, record: GameRecord, settings: GameSettings, snap: Snapshot, board: Board, catalog: Catalog
    ) -> Projection:
        return cls(record, settings, Fold(Position.from_data(snap.state, board, catalog), snap.seq))

    @classmethod
    def initial_snapshot(cls, state: GameState) -> Snapshot:
        return Snapshot(0, Position(state).to_data(), state_hash(state))
