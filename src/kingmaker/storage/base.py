"""The ``GameStore`` port: what the service needs from storage, and nothing more.

Every back end passes the same contract tests (``tests/storage/contract.py``):

- ``create_game`` stores the game's record and its initial state (a snapshot at seq 0).
- ``append`` adds envelopes atomically *if* the game's last sequence number is still
  ``expected_seq`` (optimistic concurrency); otherwise it raises ``ConcurrencyError``
  and writes nothing. Envelope ``seq`` must run on from ``expected_seq + 1``.
- An ``idempotency_key`` makes a retried append apply once: the second call with the
  same key returns the first call's result (``replayed=True``) and writes nothing.
- A ``seat`` given to ``append`` is written in the same transaction as the envelopes:
  both or neither (a player's seat and the log entry that seats them). A seat's e-mail
  address counts from the entries after its ``email_since``: ``append`` sets it to the
  append's last seq, ``set_email`` to the head when the address is set.
- Snapshots are a cache: ``latest_snapshot`` may return any stored snapshot at or before
  a sequence number; replay from the seq-0 snapshot gives the same state.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from kingmaker.log.envelope import Envelope


class StoreError(Exception):
    """A storage failure the caller can report."""


class UnknownGame(StoreError):
    def __init__(self, game_id: str):
        super().__init__(f"there is no game {game_id!r}")
        self.game_id = game_id


class GameExists(StoreError):
    def __init__(self, game_id: str):
        super().__init__(f"a game {game_id!r} already exists")
        self.game_id = game_id


class SeatTaken(StoreError):
    """A seat's token is already another seat's (nothing was written)."""


class ConcurrencyError(StoreError):
    """Another writer appended first: reload and decide again."""

    def __init__(self, game_id: str, expected: int, actual: int):
        super().__init__(f"game {game_id!r} is at seq {actual}, not {expected}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


@dataclass(frozen=True)
class GameRecord:
    """What a game is made of, besides its log."""

    id: str
    name: str
    created_at: str  # ISO 8601 UTC
    factions: tuple[str, ...]
    data_set: str  # the data set's name
    board: dict[str, Any]  # kingmaker.rules.codec.board_to_data
    catalog: dict[str, Any]  # kingmaker.rules.codec.catalog_to_data
    seed: str  # secret until the GM reveals it
    commitment: str  # SHA-256 of the seed, published at creation
    settings: dict[str, Any] = field(default_factory=dict)  # policy, deadlines, faction names...


@dataclass(frozen=True)
class Snapshot:
    seq: int
    state: dict[str, Any]  # kingmaker.rules.codec.state_to_data
    state_hash: str


@dataclass(frozen=True)
class AppendResult:
    first_seq: int
    last_seq: int
    response: dict[str, Any] | None = None  # what the caller stored with the idempotency key
    replayed: bool = False  # True: this key was seen before; nothing was written


@dataclass(frozen=True)
class Seat:
    faction: str
    player: str
    token_hash: str  # SHA-256 of the player's secret token (the token itself is never stored)
    email: str | None = None  # where the player is told (secret: the GM's and the player's only)
    email_since: int = 0  # the address is told of what the entries after this seq open


class GameStore(Protocol):
    """Storage for games: records, append-only logs, snapshots and seats."""

    def create_game(self, record: GameRecord, initial: Snapshot) -> None: ...

    def import_game(
        self, record: GameRecord, initial: Snapshot, envelopes: Sequence[Envelope], snapshot: Snapshot | None
    ) -> None:
        """Create a game with its whole log in one transaction: all of it, or nothing
        (``GameExists`` if the id is taken)."""
        ...

    def game(self, game_id: str) -> GameRecord: ...

    def games(self) -> list[GameRecord]: ...

    def head(self, game_id: str) -> int:
        """The sequence number of the game's last envelope (0 when it has none)."""
        ...

    def append(
        self,
        game_id: str,
        expected_seq: int,
        envelopes: Sequence[Envelope],
        *,
        idempotency_key: str | None = None,
        response: dict[str, Any] | None = None,
        snapshot: Snapshot | None = None,
        seat: Seat | None = None,
    ) -> AppendResult:
        """Append ``envelopes`` after ``expected_seq``, with the idempotency key, its
        response, a snapshot and a seat (set as ``set_seat`` does), all in one
        transaction. ``SeatTaken`` when the seat's token is another seat's, and then
        nothing is written."""
        ...

    def recorded(self, game_id: str, key: str) -> AppendResult | None:
        """What an earlier append with idempotency ``key`` recorded (``replayed`` set),
        or None if no append used that key."""
        ...

    def envelopes(self, game_id: str, after: int = 0, upto: int | None = None) -> Iterator[Envelope]:
        """Envelopes with ``after < seq <= upto``, in order."""
        ...

    def latest_snapshot(self, game_id: str, at_or_before: int | None = None) -> Snapshot: ...

    def save_snapshot(self, game_id: str, snapshot: Snapshot) -> None: ...

    def set_seat(self, game_id: str, seat: Seat) -> None:
        """Seat a player (replacing the faction's seat); ``SeatTaken`` when the token is
        another seat's."""
        ...

    def seats(self, game_id: str) -> list[Seat]: ...

    def set_email(self, game_id: str, faction: str, email: str | None) -> bool:
        """Set (or, with None, remove) the e-mail address of ``faction``'s seat, changing
        nothing else of it; ``email_since`` becomes the game's head. False when the
        faction has no seat."""
        ...

    def close(self) -> None: ...
