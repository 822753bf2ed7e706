"""Storage: one ``GameStore`` port, with an in-memory store for tests and two real back
ends (SQLite, the embedded default; PostgreSQL, for hosting)."""

from .base import (
    AppendResult,
    ConcurrencyError,
    GameExists,
    GameRecord,
    GameStore,
    Seat,
    SeatTaken,
    Snapshot,
    StoreError,
    UnknownGame,
)
from .memory import MemoryStore
from .sqlstore import SqlStore, open_store

__all__ = [
    "AppendResult",
    "ConcurrencyError",
    "GameExists",
    "GameRecord",
    "GameStore",
    "MemoryStore",
    "Seat",
    "SeatTaken",
    "Snapshot",
    "SqlStore",
    "StoreError",
    "UnknownGame",
    "open_store",
]
