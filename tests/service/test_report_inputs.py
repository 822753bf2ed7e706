"""The service holds each game's fold: a report request reads and folds only the
entries it has not folded yet (none, the second time), also when another process
appended them; the games held are bounded; timelines stay whole while other threads
write; an undo to before the snapshot the service loaded is read from the store."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from kingmaker.log.envelope import Envelope
from kingmaker.log.fold import Fold
from kingmaker.render.reports import render, reports_for, turn_report
from kingmaker.rules.hashing import state_hash
from kingmaker.service import GM_ACTOR, FixedClock
from kingmaker.service.commands import CreateGame, Submit, Undo
from kingmaker.service.game_service import GameService
from kingmaker.service.settings import GameSettings
from kingmaker.simulation import RandomPlayer
from kingmaker.storage import open_store
from kingmaker.storage.base import GameStore
from kingmaker.storage.memory import MemoryStore

FACTIONS = ("red", "blue", "green", "gold")


class CountingStore:
    """A store that counts the log entries read from it."""

    def __init__(self, inner: GameStore):
        self.inner = inner
        self.read = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def envelopes(self, game_id: str, after: int = 0, upto: int | None = None) -> Iterator[Envelope]:
        for env in self.inner.envelopes(game_id, after, upto):
            self.read += 1
            yield env


def _game(svc: GameService, game: str = "g", snapshot_every: int = 100) -> str:
    settings = GameSettings(turn_hours=None, request_hours=None, snapshot_every=snapshot_every, full_game=False)
    return svc.execute(
        GM_ACTOR, CreateGame("Held", FACTIONS, seed="held", game_id=game, settings=settings)
    ).game


def _play(svc: GameService, game: str, n: int, seed: int = 3) -> None:
    rp = RandomPlayer(seed)
    for _ in range(n):
        svc.execute(GM_ACTOR, Submit(game, rp.command(svc.state(game))))


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    from tests.storage.conftest import postgres_schema

    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
    else:
        with postgres_schema() as u:
            yield u


def test_a_second_report_request_folds_nothing_old(url: str) -> None:
    writer = GameService(open_store(url), FixedClock())
    game = _game(writer, snapshot_every=40)
    _play(writer, game, 120)
    head = writer.store.head(game)
    # another process on the same database: it loads the game from its latest snapshot
    store = CountingStore(open_store(url))
    reader = GameService(store, FixedClock())  # type: ignore[arg-type]
    reader.state(game)
    assert 0 < store.read < head  # from the snapshot on
    store.read = 0
    first = reports_for(reader, game)
    assert store.read == head  # the first report folds the log once, from its start
    text = render(turn_report(first, first.timeline.turns()[-1], "public"), "plain")
    store.read = 0
    second = reports_for(reader, game)
    assert store.read == 0 and second.timeline is first.timeline
    assert render(turn_report(second, second.timeline.turns()[-1], "public"), "plain") == text
    # the writer appends; the reader reads only the new entries
    _play(writer, game, 10, seed=4)
    writer.execute(GM_ACTOR, Undo(game, 5, "back to the start"))
    new = writer.store.head(game) - head
    third = reports_for(reader, game)
    assert store.read == new and third.timeline.head == writer.store.head(game)
    assert first.timeline.head == head  # the earlier timeline did not move
    assert (
        state_hash(third.timeline.now)
        == state_hash(writer.state(game))
        == state_hash(reader.replayed_state(game))
    )
    assert state_hash(third.timeline.now) == state_hash(third.timeline.state_after(5))
    writer.store.close()
    store.inner.close()


def test_an_undo_to_before_the_loaded_snapshot_is_read_from_the_store(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    first = GameService(open_store(url), FixedClock())
    game = _game(first, snapshot_every=10)
    _play(first, game, 60)
    at_12 = state_hash(first.uow.project(game, upto=12).state)
    other = GameService(open_store(url), FixedClock())
    assert other.uow.held(game).fold.start_seq > 12  # loaded from a later snapshot
    other.execute(GM_ACTOR, Undo(game, 12, "far back"))
    assert state_hash(other.state(game)) == at_12 == state_hash(other.replayed_state(game))
    assert state_hash(first.state(game)) == at_12  # the first service catches up the same way
    first.store.close()
    other.store.close()


def test_the_games_held_are_bounded() -> None:
    svc = GameService(MemoryStore(), FixedClock(), cache_size=2)
    games = [_game(svc, f"g{i}") for i in range(3)]
    for g in games:
        _play(svc, g, 5)
        reports_for(svc, g)
    assert len(svc.uow._held) == 2 and games[0] not in svc.uow._held
    for g in games:  # a game let go is read again when asked for
        assert state_hash(svc.state(g)) == state_hash(svc.replayed_state(g))


def test_timelines_stay_whole_while_other_threads_write(tmp_path: Any) -> None:
    svc = GameService(open_store(f"sqlite:///{tmp_path / 'games.db'}"), FixedClock())
    game = _game(svc, snapshot_every=15)
    _play(svc, game, 20)
    initial = svc.uow.project(game, upto=0).state
    stop = threading.Event()
    problems: list[str] = []
    seen: list[int] = []

    def write(seed: int) -> None:
        rp = RandomPlayer(seed)
        try:
            for _ in range(40):
                svc.execute(GM_ACTOR, Submit(game, rp.command(svc.state(game))))
        except Exception as e:  # reported below
            problems.append(f"writer: {e!r}")

    def read() -> None:
        try:
            while not stop.is_set():
                tl = svc.report_inputs(game).timeline
                envs = tl.envelopes
                if [e.seq for e in envs] != list(range(1, tl.head + 1)):
                    problems.append(f"entries of a timeline at {tl.head} are not 1..{tl.head}")
                if state_hash(tl.now) != state_hash(Fold.of(initial, envs).state):
                    problems.append(f"the timeline at {tl.head} is not the fold of its entries")
                seen.append(tl.head)
        except Exception as e:  # reported below
            problems.append(f"reader: {e!r}")

    readers = [threading.Thread(target=read) for _ in range(3)]
    writers = [threading.Thread(target=write, args=(s,)) for s in range(3)]
    for t in readers + writers:
        t.start()
    for t in writers:
        t.join(timeout=300)
    stop.set()
    for t in readers:
        t.join(timeout=300)
    assert problems == []
    assert len(set(seen)) > 2  # the readers saw the game grow
    tl = svc.report_inputs(game).timeline
    assert state_hash(tl.now) == state_hash(svc.replayed_state(game)) == state_hash(svc.state(game))
    svc.store.close()
