"""An in-memory ``GameStore`` for service tests (same contract as the real ones)."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from kingmaker.log.envelope import Envelope

from .base import (
    AppendResult,
    ConcurrencyError,
    GameExists,
    GameRecord,
    Seat,
    SeatTaken,
    Snapshot,
    StoreError,
    UnknownGame,
)


class MemoryStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[str, GameRecord] = {}
        self._logs: dict[str, list[Envelope]] = {}
        self._snapshots: dict[str, dict[int, Snapshot]] = {}
        self._keys: dict[tuple[str, str], AppendResult] = {}
        self._seats: dict[str, dict[str, Seat]] = {}

    def _need(self, game_id: str) -> None:
        if game_id not in self._games:
            raise UnknownGame(game_id)

    def create_game(self, record: GameRecord, initial: Snapshot) -> None:
        with self._lock:
            if record.id in self._games:
                raise GameExists(record.id)
            self._games[record.id] = record
            self._logs[record.id] = []
            self._snapshots[record.id] = {initial.seq: initial}
            self._seats[record.id] = {}

    def import_game(
        self, record: GameRecord, initial: Snapshot, envelopes: Sequence[Envelope], snapshot: Snapshot | None
    ) -> None:
        for i, env in enumerate(envelopes):
            if env.seq != i + 1:
                raise ValueError(f"envelope seq {env.seq} does not follow {i}")
        with self._lock:
            if record.id in self._games:
                raise GameExists(record.id)
            self._games[record.id] = record
            self._logs[record.id] = list(envelopes)
            self._snapshots[record.id] = {initial.seq: initial}
            if snapshot is not None:
                self._snapshots[record.id][snapshot.seq] = snapshot
            self._seats[record.id] = {}

    def game(self, game_id: str) -> GameRecord:
        self._need(game_id)
        return self._games[game_id]

    def games(self) -> list[GameRecord]:
        return sorted(self._games.values(), key=lambda g: (g.created_at, g.id))

    def head(self, game_id: str) -> int:
        self._need(game_id)
        log = self._logs[game_id]
        return log[-1].seq if log else 0

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
        with self._lock:
            self._need(game_id)
            if idempotency_key is not None:
                seen = self._keys.get((game_id, idempotency_key))
                if seen is not None:
                    return AppendResult(seen.first_seq, seen.last_seq, seen.response, True)
            log = self._logs[game_id]
            head = log[-1].seq if log else 0
            if head != expected_seq:
                raise ConcurrencyError(game_id, expected_seq, head)
            for i, env in enumerate(envelopes):
                if env.seq != expected_seq + 1 + i:
                    raise ValueError(f"envelope seq {env.seq} does not follow {expected_seq + i}")
            if seat is not None:
                self._check_token(game_id, seat)
            log.extend(envelopes)
            result = AppendResult(expected_seq + 1, expected_seq + len(envelopes), response)
            if idempotency_key is not None:
                self._keys[(game_id, idempotency_key)] = result
            if snapshot is not None:
                self._snapshots[game_id][snapshot.seq] = snapshot
            if seat is not None:
                since = result.last_seq if seat.email else 0
                self._seats[game_id][seat.faction] = replace(seat, email_since=since)
            return result

    def recorded(self, game_id: str, key: str) -> AppendResult | None:
        with self._lock:
            self._need(game_id)
            seen = self._keys.get((game_id, key))
        return None if seen is None else AppendResult(seen.first_seq, seen.last_seq, seen.response, True)

    def envelopes(self, game_id: str, after: int = 0, upto: int | None = None) -> Iterator[Envelope]:
        self._need(game_id)
        for env in list(self._logs[game_id]):
            if env.seq > after and (upto is None or env.seq <= upto):
                yield env

    def latest_snapshot(self, game_id: str, at_or_before: int | None = None) -> Snapshot:
        self._need(game_id)
        snaps = self._snapshots[game_id]
        seqs = [s for s in snaps if at_or_before is None or s <= at_or_before]
        if not seqs:
            raise StoreError(f"game {game_id!r} has no snapshot at or before seq {at_or_before}")
        return snaps[max(seqs)]

    def save_snapshot(self, game_id: str, snapshot: Snapshot) -> None:
        with self._lock:
            self._need(game_id)
            self._snapshots[game_id][snapshot.seq] = snapshot

    def set_seat(self, game_id: str, seat: Seat) -> None:
        with self._lock:
            self._need(game_id)
            self._check_token(game_id, seat)
            log = self._logs[game_id]
            since = (log[-1].seq if log else 0) if seat.email else 0
            self._seats[game_id][seat.faction] = replace(seat, email_since=since)

    def _check_token(self, game_id: str, seat: Seat) -> None:
        for game, seats in self._seats.items():
            for other in seats.values():
                if other.token_hash == seat.token_hash and (game, other.faction) != (game_id, seat.faction):
                    raise SeatTaken("that token is already in use")

    def seats(self, game_id: str) -> list[Seat]:
        self._need(game_id)
        return sorted(self._seats[game_id].values(), key=lambda s: s.faction)

    def set_email(self, game_id: str, faction: str, email: str | None) -> bool:
        with self._lock:
            self._need(game_id)
            seat = self._seats[game_id].get(faction)
            if seat is None:
                return False
            log = self._logs[game_id]
            since = (log[-1].seq if log else 0) if email else 0
            self._seats[game_id][faction] = replace(seat, email=email, email_since=since)
            return True

    def close(self) -> None:
        pass
