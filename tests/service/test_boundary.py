"""The service boundary (issue 12, item 4): a seat and its log entry are written in one
transaction; a game's factions are typed settings, read the same way everywhere, and
old stored games keep loading; the rules that handlers held are the rules core's."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from kingmaker.log.envelope import Envelope
from kingmaker.log.service_events import DeadlineSet, PlayerSeated
from kingmaker.render.map import Styles
from kingmaker.render.reports import reports_for
from kingmaker.rules import commands as rc
from kingmaker.rules import ids
from kingmaker.rules.permissions import judge_permission_ask
from kingmaker.service import GM_ACTOR, BadRequest, Conflict, FixedClock, NotFound, player
from kingmaker.service.commands import AskPermission, CreateGame, FinishTurn, SeatPlayer, Submit
from kingmaker.service.game_service import GameService
from kingmaker.service.settings import GREY, FactionInfo, GameSettings
from kingmaker.storage import open_store
from kingmaker.storage.base import GameStore, Seat, SeatTaken, StoreError
from kingmaker.storage.memory import MemoryStore

FACTIONS = ("red", "blue", "green", "gold")


def _game(svc: GameService, factions: Sequence[str] = FACTIONS) -> str:
    return svc.execute(GM_ACTOR, CreateGame("Boundary", tuple(factions), seed="b", game_id="b1", settings=GameSettings(full_game=False))).game


class FailingStore:
    """A store whose appends fail as the database would, before or after writing."""

    def __init__(self, inner: GameStore, error: StoreError):
        self.inner = inner
        self.error = error
        self.fail = False
        self.set_seat_calls = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def append(self, game_id: str, expected_seq: int, envelopes: Sequence[Envelope], **kw: Any) -> Any:
        if self.fail:
            raise self.error
        return self.inner.append(game_id, expected_seq, envelopes, **kw)

    def set_seat(self, game_id: str, seat: Seat) -> None:
        self.set_seat_calls += 1
        self.inner.set_seat(game_id, seat)


@pytest.mark.parametrize(
    "error", [StoreError("the database is down"), SeatTaken("that token is already in use")]
)
def test_a_seat_and_its_entry_are_written_together_or_not_at_all(error: StoreError) -> None:
    store = FailingStore(MemoryStore(), error)
    svc = GameService(store, FixedClock())  # type: ignore[arg-type]
    game = _game(svc)
    head = store.head(game)
    store.fail = True
    expected = Conflict if isinstance(error, SeatTaken) else StoreError
    with pytest.raises(expected):
        svc.execute(GM_ACTOR, SeatPlayer(game, "red", "Alice"))
    assert store.seats(game) == [] and store.head(game) == head
    store.fail = False
    out = svc.execute(GM_ACTOR, SeatPlayer(game, "red", "Alice"), "seat-red")
    assert out.token and svc.identify(game, out.token) == player("red")
    seated = [e for e in svc.log(game) if isinstance(e.event, PlayerSeated)]
    assert [(e.seq, e.event.player) for e in seated] == [(out.first_seq, "Alice")]  # type: ignore[attr-defined]
    again = svc.execute(GM_ACTOR, SeatPlayer(game, "red", "Alice"), "seat-red")  # a retry
    assert again.replayed and again.token is None and svc.identify(game, out.token) == player("red")
    assert store.set_seat_calls == 0  # the service seats only through the append


def test_seating_writes_one_transaction_on_sqlite(tmp_path: Path) -> None:
    svc = GameService(open_store(f"sqlite:///{tmp_path / 'g.db'}"), FixedClock())
    game = _game(svc)
    tokens = {f: svc.execute(GM_ACTOR, SeatPlayer(game, f, f"{f} player")).token for f in FACTIONS}
    fresh = GameService(open_store(f"sqlite:///{tmp_path / 'g.db'}"))
    for f, token in tokens.items():
        assert token is not None and fresh.identify(game, token) == player(f)
    assert sum(isinstance(e.event, PlayerSeated) for e in fresh.log(game)) == len(FACTIONS)
    svc.store.close()
    fresh.store.close()


def test_the_factions_are_typed_settings_read_alike_everywhere() -> None:
    svc = GameService(MemoryStore(), FixedClock())
    game = svc.execute(GM_ACTOR, CreateGame("Names", ("red", "white_rose"), seed="n", game_id="n1")).game
    settings = svc.settings(game)
    red, white = settings.factions
    assert red == FactionInfo("red", "Red", red.colour) and red.colour != GREY  # from the data set
    assert white == FactionInfo("white_rose", "White Rose", GREY)  # not in it: the defaults
    # stored as before: {id: {"name", "colour"}}
    assert svc.store.game(game).settings["factions"] == {
        "red": {"name": "Red", "colour": red.colour},
        "white_rose": {"name": "White Rose", "colour": GREY},
    }
    names = reports_for(svc, game).names
    styles = Styles.of(settings.factions)
    for f in ("red", "white_rose", "nobody"):
        info = settings.faction(f)
        assert names.faction_name(f) == styles.name(f) == info.name
        assert names.style(f).colour == styles.colour(f) == info.colour
    assert settings.faction_names() == {"red": "Red", "white_rose": "White Rose"}


def test_old_stored_games_keep_loading() -> None:
    store = MemoryStore()
    svc = GameService(store, FixedClock())
    game = _game(svc, ("red", "blue"))
    rec = store.game(game)
    for stored, expected in [
        ({"policy": "hold"}, [("red", "Red", GREY), ("blue", "Blue", GREY)]),  # before the names
        (
            {"factions": {"red": {"name": "Rouge"}, "blue": {"colour": "url(javascript:x)"}}},
            [("red", "Rouge", GREY), ("blue", "Blue", GREY)],
        ),
        (
            {"factions": {"blue": {"name": "Bleu", "colour": "#00f"}}},
            [("red", "Red", GREY), ("blue", "Bleu", "#00f")],
        ),
    ]:
        old = dataclasses.replace(rec, id=f"old-{len(store.games())}", settings=stored)
        store.import_game(old, store.latest_snapshot(game, at_or_before=0), list(store.envelopes(game)), None)
        got = svc.settings(old.id)
        assert [(f.id, f.name, f.colour) for f in got.factions] == expected
        assert got.policy == "hold" and reports_for(svc, old.id).names.faction_name("red") == expected[0][1]
    assert GameSettings.from_data({}, ("red",)) == GameSettings(factions=(FactionInfo("red", "Red"),))


def test_asking_for_permission_is_judged_by_the_rules() -> None:
    svc = GameService(MemoryStore(), FixedClock())
    game = _game(svc)
    state = svc.state(game)
    place, owner = sorted(state.control.items())[0]
    asker = next(f for f in FACTIONS if f != owner)
    third = next(f for f in FACTIONS if f not in (owner, asker))
    d = judge_permission_ask(state, asker, third, place, ("road",))
    assert d.refused and d.rule == ids.LOC_PERMISSION and ids.LOC_PERMISSION in d.explanation
    with pytest.raises(BadRequest, match="does not control"):
        svc.execute(player(asker), AskPermission(game, asker, third, place, ("road",)))
    with pytest.raises(BadRequest, match="ask for one or more"):
        svc.execute(player(asker), AskPermission(game, asker, owner, place, ("siege",)))
    with pytest.raises(NotFound):
        svc.execute(player(asker), AskPermission(game, asker, owner, "atlantis", ("road",)))
    assert judge_permission_ask(state, asker, owner, "atlantis", ("road",)).rule == ids.ORDER_INVALID
    out = svc.execute(player(asker), AskPermission(game, asker, owner, place, ("road",)))
    assert out.explanation == judge_permission_ask(state, asker, owner, place, ("road",)).explanation


def test_the_next_turn_is_the_rules_answer() -> None:
    svc = GameService(MemoryStore(), FixedClock())
    game = _game(svc)
    for _ in range(len(FACTIONS) + 1):  # through the end of a round
        state = svc.state(game)
        rnd, nxt = state.next_turn()
        svc.execute(GM_ACTOR, FinishTurn(game, state.turn))
        after = svc.state(game)
        assert (after.round, after.turn) == (rnd, nxt)
        last = svc.log(game)[-1].event
        assert isinstance(last, DeadlineSet) and last.target == nxt  # the service asks the rules
    svc.execute(GM_ACTOR, Submit(game, rc.EndTurn(rc.GM)))
    assert svc.state(game).turn == FACTIONS[2]
