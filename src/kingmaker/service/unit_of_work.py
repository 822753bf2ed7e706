"""The unit of work under every command handler: load a game (snapshot plus the entries
after it, folded by ``kingmaker.log.fold``), decide with a build function, append the
entries with optimistic concurrency on the sequence number, retry on conflict.

It holds the games it has loaded (a bounded, thread-safe cache: one ``Projection`` per
game, its fold caught up by reading only the entries after its head, which other
processes sharing the store may have appended). Every fold of a held game happens under
the game's lock; readers get branches or timelines, which never move under them.

Handlers (``service.handlers``) are functions of a unit of work, an actor and a command.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from kingmaker.log.envelope import Envelope
from kingmaker.log.fold import Fold, Position, Timeline, Unreachable
from kingmaker.log.service_events import Undone
from kingmaker.rules.board import Board
from kingmaker.rules.cards import Catalog
from kingmaker.rules.codec import board_from_data, catalog_from_data
from kingmaker.rules.limits import shown
from kingmaker.rules.records import Record
from kingmaker.storage.base import ConcurrencyError, GameRecord, GameStore, Seat, UnknownGame

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

#: Games held at once by default (each with its fold; a game of 10,000 entries folded
#: from its start holds a few MB)
CACHE_SIZE = 32


@dataclass(frozen=True)
class _Static:
    board: Board
    catalog: Catalog
    settings: GameSettings


class UnitOfWork:
    """Loading, holding and committing games; thread-safe, and safe with several
    processes on one store."""

    def __init__(
        self,
        store: GameStore,
        clock: Clock | None = None,
        *,
        max_retries: int = 200,
        cache_size: int = CACHE_SIZE,
    ):
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.max_retries = max_retries
        self.cache_size = max(1, cache_size)
        self._held: OrderedDict[str, Projection] = OrderedDict()  # least recently used first
        self._static: dict[str, _Static] = {}
        # boards and catalogs decoded, by the identity of their data (kept alive here):
        # games whose records share their data (``SqlStore`` shares equal data) share these
        self._boards: dict[int, tuple[dict[str, Any], Board]] = {}
        self._catalogs: dict[int, tuple[dict[str, Any], Catalog]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._scope = threading.local()  # see ``request``

    @contextmanager
    def request(self) -> Iterator[None]:
        """One request of the service (a command, a post): within it, a held game whose
        head was read from the store once is taken as fresh (``held`` asks the store
        again in the next request, so what other processes append shows up then), and
        an append moves it on (the store checks the head as it appends, so a command
        decided on a stale game is refused and decided again). Nested requests share
        the outer one's."""
        if getattr(self._scope, "heads", None) is not None:
            yield
            return
        self._scope.heads = {}
        try:
            yield
        finally:
            self._scope.heads = None

    def _fresh(self, game: str, proj: Projection) -> bool:
        """Whether ``proj`` is known, within this request, to be the store's head."""
        heads: dict[str, int] | None = getattr(self._scope, "heads", None)
        return heads is not None and heads.get(game) == proj.head

    def _seen(self, game: str, head: int) -> None:
        heads: dict[str, int] | None = getattr(self._scope, "heads", None)
        if heads is not None:
            heads[game] = head

    def lock(self, game: str) -> threading.Lock:
        with self._guard:
            lock = self._locks.get(game)
            if lock is None:
                lock = self._locks[game] = threading.Lock()
            return lock

    def envelope(
        self,
        state_of: Projection | Position,
        actor: Actor,
        record: Record,
        rule: str | None,
        seq: int,
        command_id: str | None,
        at: str,
    ) -> Envelope:
        """An entry stamped with the round and turn of ``state_of`` and the time ``at``."""
        state = state_of.state
        return Envelope(seq, state.round, state.turn, actor.label, rule, record, at, command_id)

    def commit(
        self,
        game: str,
        actor: Actor,
        build: Build,
        key: str | None,
        *,
        command_ids: bool = True,
        snapshot: bool = False,
        seat: Seat | None = None,
    ) -> Outcome:
        """Decide with ``build`` on the game as it stands and append its entries (all or
        none), deciding again if another writer got there first. ``command_ids``: the
        entries carry the command's id (the key, or a fresh one); ``snapshot``: store a
        snapshot with them (else one every ``snapshot_every`` entries); ``seat``: a
        player's seat, written in the same transaction as the entries."""
        command_id = (key or secrets.token_hex(8)) if command_ids else None
        if key is not None:
            seen = self.earlier_answer(game, key)
            if seen is not None:  # a retry: nothing is decided again
                return seen
        with self.lock(game):
            for attempt in range(self.max_retries):
                held = self._cached(game)
                # not read in this request: the head first (one cheap read), the entries
                # only if it moved
                if held is None or (not self._fresh(game, held) and self.store.head(game) != held.head):
                    held = self._catch_up(game)
                outcome, entries = build(held.copy())
                if not entries:
                    return outcome
                work = held.copy()
                at = iso(self.clock.now())  # the entries of one command are recorded at once
                envs = [
                    self._fold_entry(game, work.fold, actor, record, rule, command_id, at)
                    for record, rule in entries
                ]
                every = held.settings.snapshot_every
                snap = work.snapshot() if snapshot or work.head // every > held.head // every else None
                try:
                    r = self.store.append(
                        game,
                        held.head,
                        envs,
                        idempotency_key=key,
                        response=outcome.to_data(),
                        snapshot=snap,
                        seat=seat,
                    )
                except ConcurrencyError:
                    # another process appended first: catch up (``_catch_up`` reads the
                    # new entries) and decide again, after a short random pause
                    self._seen(game, -1)
                    time.sleep(random.uniform(0, 0.001 * min(attempt + 1, 10)))
                    continue
                if r.replayed:
                    self._seen(game, -1)
                    return Outcome.from_data(r.response or {}, replayed=True).with_seqs(
                        r.first_seq, r.last_seq
                    )
                held.fold.extend(work.fold)
                self._seen(game, held.head)
                return outcome.with_seqs(r.first_seq, r.last_seq)
        raise Conflict(f"game {game} kept changing under this request; try again")

    def _fold_entry(
        self,
        game: str,
        fold: Fold,
        actor: Actor,
        record: Record,
        rule: str | None,
        command_id: str | None,
        at: str,
    ) -> Envelope:
        """Stamp ``record`` as the next entry of ``fold`` and fold it. An undo is stamped
        with the round and turn it returns to."""
        seq = fold.head + 1
        if isinstance(record, Undone):
            restored = self.position_after(game, fold, min(record.to_seq, fold.head))
            env = self.envelope(restored, actor, record, rule, seq, command_id, at)
            fold.step(env, restored)
        else:
            env = self.envelope(fold.position, actor, record, rule, seq, command_id, at)
            fold.step(env)
        return env

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
                self._decode(self._boards, rec.board, board_from_data),
                self._decode(self._catalogs, rec.catalog, catalog_from_data),
                GameSettings.from_data(rec.settings, rec.factions),
            )
            self._static[game] = st
        return st

    def _decode(self, cache: dict[int, tuple[_D, _T]], data: _D, decode: Callable[[_D], _T]) -> _T:
        with self._guard:
            hit = cache.get(id(data))
            if hit is not None and hit[0] is data:
                return hit[1]
        value = decode(data)
        with self._guard:
            cache[id(data)] = (data, value)
        return value

    def project(self, game: str, upto: int | None = None, *, snapshots: bool = True) -> Projection:
        """The game as it stood after entry ``upto`` (default: now), read from the store:
        from the latest snapshot at or before it (``snapshots``), else from the start."""
        st = self.static_of(game)
        rec = self.store.game(game)
        snap = self.store.latest_snapshot(game, at_or_before=upto if snapshots else 0)
        proj = Projection.from_snapshot(rec, st.settings, snap, st.board, st.catalog)
        for env in self.store.envelopes(game, after=snap.seq, upto=upto):
            self.fold_into(game, proj.fold, env, snapshots=snapshots)
        return proj

    def fold_into(self, game: str, fold: Fold, env: Envelope, *, snapshots: bool = True) -> None:
        """Fold a stored entry; an undo to before the fold's start restores the position
        read from the store."""
        try:
            fold.step(env)
        except Unreachable as e:
            fold.step(env, self.project(game, upto=e.seq, snapshots=snapshots).position)

    def position_after(self, game: str, fold: Fold, seq: int) -> Position:
        """The position after entry ``seq``: kept by ``fold``, else read from the store."""
        try:
            return fold.after(seq)
        except Unreachable:
            return self.project(game, upto=seq).position

    # ------------------------------------------------------------------ the games held
    def _cached(self, game: str) -> Projection | None:
        with self._guard:
            proj = self._held.get(game)
            if proj is not None:
                self._held.move_to_end(game)
            return proj

    def _keep(self, game: str, proj: Projection) -> None:
        with self._guard:
            self._held[game] = proj
            self._held.move_to_end(game)
            while len(self._held) > self.cache_size:
                self._held.popitem(last=False)

    def _catch_up(self, game: str) -> Projection:
        """The held game with every entry of the store folded (under the game's lock):
        only the entries after its head are read."""
        proj = self._cached(game)
        if proj is None:
            proj = self.project(game)
        else:
            for env in self.store.envelopes(game, after=proj.head):
                self.fold_into(game, proj.fold, env)
        self._keep(game, proj)
        return proj

    def held(self, game: str) -> Projection:
        """The game as the service holds it, caught up with the store (one query when
        nothing is new, the usual case). Shared: read it, never fold into it (``copy``)."""
        proj = self._cached(game)
        if proj is not None and self._fresh(game, proj):
            return proj
        head = None
        if proj is not None:
            head = self.store.head(game)
            if head == proj.head:
                self._seen(game, head)
                return proj
        with self.lock(game):
            held = self._cached(game)
            if held is not None and head is not None and held.head >= head:
                # a writer of this process folded its entries while this one waited for
                # the lock: the game is as fresh as the head read above, nothing to read
                self._seen(game, held.head)
                return held
            proj = self._catch_up(game)
            self._seen(game, proj.head)
            return proj

    def save_snapshot(self, game: str) -> None:
        """Store a snapshot of the game as it stands (snapshots only make loading fast)."""
        with self.lock(game):
            self.store.save_snapshot(game, self._catch_up(game).snapshot())

    def current(self, game: str) -> Projection:
        """The game as it stands now, to read or fold further (a branch of the held one)."""
        return self.held(game).copy()

    def timeline(self, game: str) -> Timeline:
        """The game's log folded from its first entry, up to its latest: the held fold's
        timeline. The first call for a game loaded from a snapshot folds the whole log
        once (outside the game's lock); later calls fold only new entries."""
        proj = self._cached(game)
        if proj is not None and proj.fold.start_seq == 0 and self.store.head(game) == proj.head:
            return proj.fold.timeline()
        with self.lock(game):
            proj = self._catch_up(game)
            if proj.fold.start_seq == 0:
                return proj.fold.timeline()
        full = self.project(game, snapshots=False)  # the long read, without the lock
        with self.lock(game):
            for env in self.store.envelopes(game, after=full.head):
                self.fold_into(game, full.fold, env)
            self._keep(game, full)
            return full.fold.timeline()
