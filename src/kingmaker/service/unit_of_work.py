"""The unit of work under every command handler: load a game (snapshot plus the entries
after it, undo honoured), decide with a build function, append the entries with
optimistic concurrency on the sequence number, retry on conflict, keep a cache.

Handlers (``service.handlers``) are functions of a unit of work, an actor and a command.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from kingmaker.log.envelope import Envelope
from kingmaker.log.service_events import (
    Undone,
)
from kingmaker.rules.board import Board
from kingmaker.rules.cards import Catalog
from kingmaker.rules.codec import board_from_data, catalog_from_data
from kingmaker.rules.limits import shown
from kingmaker.rules.records import Record
from kingmaker.storage.base import ConcurrencyError, GameRecord, GameStore, UnknownGame

from .clock import Clock, SystemClock, iso
from .errors import Conflict, NotFound
from .identity import Actor
from .outcome import Outcome
from .projection import Projection
from .settings import GameSettings

_D = TypeVar("_D")
_T = TypeVar("_T")

Entry = tuple[Record, str | None]  # an event or service entry, and the rule that decided it
Build = Callable[[Projection], tuple[Outcome, list[Entry]]]


@dataclass(frozen=True)
class _Static:
    board: Board
    catalog: Catalog
    settings: GameSettings


class UnitOfWork:
    """Loading, caching and committing games; thread-safe, and safe with several processes
    on one store."""

    def __init__(self, store: GameStore, clock: Clock | None = None, *, max_retries: int = 200):
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.max_retries = max_retries
        self.cache: dict[str, Projection] = {}
        self._static: dict[str, _Static] = {}
        # boards and catalogs decoded, by the identity of their data (kept alive here):
        # games whose records share their data (``SqlStore`` shares equal data) share these
        self._decoded: dict[int, tuple[object, object]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def lock(self, game: str) -> threading.Lock:
        with self._guard:
            lock = self._locks.get(game)
            if lock is None:
                lock = self._locks[game] = threading.Lock()
            return lock

    def envelope(
        self,
        proj: Projection,
        actor: Actor,
        record: Record,
        rule: str | None,
        seq: int,
        command_id: str | None,
    ) -> Envelope:
        return Envelope(
            seq,
            proj.state.round,
            proj.state.turn,
            actor.label,
            rule,
            record,
            iso(self.clock.now()),
            command_id,
        )

    def commit(self, game: str, actor: Actor, build: Build, key: str | None) -> Outcome:
        command_id = key or secrets.token_hex(8)
        if key is not None:
            seen = self.earlier_answer(game, key)
            if seen is not None:  # a retry: nothing is decided again
                return seen
        with self.lock(game):
            for attempt in range(self.max_retries):
                proj = self.current(game)
                outcome, entries = build(proj)
                if not entries:
                    return outcome
                work = proj.copy()
                envs: list[Envelope] = []
                for record, rule in entries:
                    env = self.envelope(work, actor, record, rule, work.head + 1, command_id)
                    work.step(env)
                    envs.append(env)
                every = proj.settings.snapshot_every
                snapshot = work.snapshot() if work.head // every > proj.head // every else None
                try:
                    r = self.store.append(
                        game,
                        proj.head,
                        envs,
                        idempotency_key=key,
                        response=outcome.to_data(),
                        snapshot=snapshot,
                    )
                except ConcurrencyError:
                    # another process appended first: catch up (``_current`` reads the new
                    # entries) and decide again, after a short random pause
                    time.sleep(random.uniform(0, 0.001 * min(attempt + 1, 10)))
                    continue
                if r.replayed:
                    return Outcome.from_data(r.response or {}, replayed=True).with_seqs(
                        r.first_seq, r.last_seq
                    )
                self.cache[game] = work
                return outcome.with_seqs(r.first_seq, r.last_seq)
        raise Conflict(f"game {game} kept changing under this request; try again")

    def earlier_answer(self, game: str, key: str) -> Outcome | None:
        """The answer given to an earlier command sent with idempotency ``key`` (decided
        on the state of then), or None if no command used that key."""
        seen = self.store.recorded(game, key)
        if seen is None:
            return None
        return Outcome.from_data(seen.response or {}, replayed=True).with_seqs(seen.first_seq, seen.last_seq)

    # ------------------------------------------------------------------ loading
    def require_game(self, game: str) -> GameRecord:
        try:
            return self.store.game(game)
        except UnknownGame:
            raise NotFound(f"there is no game {shown(game)}") from None

    def static_of(self, game: str) -> _Static:
        st = self._static.get(game)
        if st is None:
            rec = self.require_game(game)
            st = _Static(
                self._decode(rec.board, board_from_data),
                self._decode(rec.catalog, catalog_from_data),
                GameSettings.from_data(rec.settings),
            )
            self._static[game] = st
        return st

    def _decode(self, data: _D, decode: Callable[[_D], _T]) -> _T:
        with self._guard:
            hit = self._decoded.get(id(data))
            if hit is not None and hit[0] is data:
                return hit[1]  # type: ignore[return-value]
        value = decode(data)
        with self._guard:
            self._decoded[id(data)] = (data, value)
        return value

    def project(self, game: str, upto: int | None = None, *, snapshots: bool = True) -> Projection:
        """The game as it stood after entry ``upto`` (default: now)."""
        st = self.static_of(game)
        rec = self.store.game(game)
        snap = self.store.latest_snapshot(game, at_or_before=upto if snapshots else 0)
        proj = Projection.from_snapshot(rec, st.settings, snap, st.board, st.catalog)
        for env in self.store.envelopes(game, after=snap.seq, upto=upto):
            if isinstance(env.event, Undone):
                proj = self.project(game, upto=min(env.event.to_seq, env.seq - 1), snapshots=snapshots)
                proj.head = env.seq
            else:
                proj.step(env)
        return proj

    def current(self, game: str) -> Projection:
        """The cached projection, caught up with entries other processes appended."""
        proj = self.cache.get(game)
        if proj is None:
            proj = self.project(game)
            self.cache[game] = proj
            return proj
        if self.store.head(game) == proj.head:  # one query when nothing is new (the usual)
            return proj
        tail = list(self.store.envelopes(game, after=proj.head))
        if not tail:
            return proj
        if any(isinstance(e.event, Undone) for e in tail):
            proj = self.project(game)
        else:
            proj = proj.copy()
            for env in tail:
                proj.step(env)
        self.cache[game] = proj
        return proj
