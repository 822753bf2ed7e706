"""What is open, for the GM (issue 15 §6): ``status`` (and ``--json``) lists the open
battles and sieges, what waits for each faction's answer, Parliament and the heirs, from
the service's one query (``GameService.open_business``); ``end-turn`` says what is still
open and ends nothing without ``--force``; the GM's END TURN text order likewise, until
END TURN ANYWAY. On a real SQLite file, through Typer's runner and the whole app.

The full games are dealt from the seed ``cli-106``, as in ``test_full_game_cli``: red's
Pole, inside Wingfield, reaches Framlingham in one move, where green's Mowbray stands in
the open."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingmaker.service import GM_ACTOR, FixedClock, player
from kingmaker.service.commands import AskPermission, CreateGame, FinishTurn
from kingmaker.service.game_service import GameService
from kingmaker.service.open_business import (
    BATTLE,
    CAPTIVE,
    COMBAT,
    DECLARATION,
    PERMISSION,
    RANSOM,
    SIEGE,
    open_business,
)
from kingmaker.service.settings import GameSettings
from kingmaker.storage import open_store
from kingmaker.storage.memory import MemoryStore

from .test_full_game_cli import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "open.db")


def _turn(cli: Cli, game: str) -> tuple[int, str]:
    view = cli.json("status", game)["view"]
    return view["round"], view["turn"]


def test_an_open_battle_is_listed_and_holds_the_turn_until_forced(cli: Cli) -> None:
    cli.new("g")
    rows = cli.orders("g", "red", "Pole MOVES TO Framlingham\nPole ATTACKS Mowbray\n")
    assert [r["result"] for r in rows] == ["accepted", "accepted"], rows
    data = cli.json("status", "g")["open"]
    (battle,) = [i for i in data["items"] if i["kind"] == BATTLE]
    assert battle["awaiting"] == ["gm"] and battle["holds_turn"] and battle["rule"] == "BATTLE.ratio"
    assert "Framlingham" in battle["text"] and "is not resolved" in battle["text"]
    assert data["holding"] >= 1 and data["turn"] == "red"
    human = " ".join(cli.run("status", "g").split())
    assert "open business" in human and "the battle" in human and "royal heirs" in human
    # the GM's end-turn says what is open and ends nothing
    out = cli.run("end-turn", "g", code=1)
    flat = " ".join(out.split())
    assert "red's turn was not ended" in flat and "is not resolved" in flat
    assert "kingmaker end-turn g --force" in flat
    assert _turn(cli, "g") == (1, "red")
    refused = cli.json("end-turn", "g", code=1)
    assert refused["result"] == "refused" and refused["rule"] == "TURN.end"
    assert any(i["kind"] == BATTLE for i in refused["open"]["items"])
    # --force goes on
    assert cli.json("end-turn", "g", "--force")["result"] == "accepted"
    assert _turn(cli, "g") == (1, "blue")


def test_a_siege_that_may_still_be_drawn_holds_the_turn(cli: Cli) -> None:
    cli.new("s")
    cli.orders("s", "red", "Pole MOVES TO Framlingham\nPole BESIEGES Framlingham\n")
    items = cli.json("status", "s")["open"]["items"]
    (siege,) = [i for i in items if i["kind"] == SIEGE]
    assert siege["ref"] == "framlingham" and siege["holds_turn"] and siege["awaiting"] == ["gm"]
    assert "may still be drawn this turn (SIEGE.resolve)" in siege["text"]
    assert "Framlingham" in " ".join(cli.run("end-turn", "s", code=1).split())
    assert _turn(cli, "s") == (1, "red")


def test_the_gm_end_turn_text_order_asks_for_end_turn_anyway(cli: Cli) -> None:
    cli.new("t")
    cli.orders("t", "red", "Pole MOVES TO Framlingham\nPole ATTACKS Mowbray\n")
    (row,) = cli.orders("t", "gm", "END TURN\n", code=1)
    assert row["result"] == "refused" and row["rule"] == "TURN.end"
    assert "is not resolved" in row["explanation"] and "END TURN ANYWAY" in row["explanation"]
    assert _turn(cli, "t") == (1, "red")
    (row,) = cli.orders("t", "gm", "END TURN ANYWAY\n")
    assert row["result"] == "accepted" and row["reading"] == "END TURN ANYWAY"
    assert _turn(cli, "t")[1] == "blue"


def test_nothing_open_ends_the_turn_at_once(cli: Cli) -> None:
    cli.new("n", "--hand-adjudication")
    assert cli.json("status", "n")["open"]["holding"] == 0
    assert cli.json("end-turn", "n")["result"] == "accepted"


def test_heirs_are_listed_with_where_they_are_and_whether_crowned(cli: Cli) -> None:
    cli.new("h")
    heirs = cli.json("status", "h")["open"]["heirs"]
    assert len(heirs) >= 8
    henry = next(h for h in heirs if h["id"] == "henry_vi")
    assert henry["crowned"] and henry["where"] == "inside London" and henry["captive_of"] is None
    assert not next(h for h in heirs if h["id"] == "richard_duke_of_york")["crowned"]


def test_requests_are_listed_by_the_faction_they_wait_for_with_their_deadlines(cli: Cli) -> None:
    cli.new("r")
    cli.orders("r", "red", "Pole MOVES TO Framlingham\nPole ATTACKS Mowbray\n")
    battle = cli.json("status", "r")["open"]["items"][0]["ref"]
    cli.run("resolve", "r", battle)  # Mowbray is taken
    (row,) = cli.orders("r", "red", "Red RANSOMS Mowbray FREE AS m1\n")
    assert row["result"] == "pending", row
    cli.orders("r", "red", "Red ALLIES WITH Blue AS rb\n")
    store = open_store(cli.url)
    try:
        svc = GameService(store)
        place = next(p for p, f in svc.state("r").control.items() if f == "gold")
        svc.execute(player("blue"), AskPermission("r", "blue", "gold", place, ("road", "enter")))
        business = svc.open_business("r")
    finally:
        store.close()
    mine = business.by_faction(("red", "blue", "green", "gold"))
    assert {f: [i.kind for i in items] for f, items in mine.items()} == {
        "blue": [DECLARATION],
        "green": [RANSOM],
        "gold": [PERMISSION],
    }
    (ransom,) = mine["green"]
    assert ransom.holds_turn and ransom.due and ransom.by == "red" and ransom.rule == "RANSOM.offer"
    assert "green has not answered red's ransom offer red-m1 for Mowbray" in ransom.text
    assert "lapses when the turn ends" in ransom.text
    (perm,) = mine["gold"]
    assert "passage and entry" in perm.text and not perm.holds_turn and perm.by == "blue"
    assert "declaration of alliance red-rb" in mine["blue"][0].text and not mine["blue"][0].holds_turn
    captive = next(i for i in business.items if i.kind == CAPTIVE)
    assert "Mowbray (green), captive of red, is executed when the turn ends" in captive.text
    assert "1 thing is still open" in business.warning()
    # the same in status --json, each item with whom it waits for and its deadline
    items = cli.json("status", "r")["open"]["items"]
    assert {(i["kind"], tuple(i["awaiting"])) for i in items} >= {
        (RANSOM, ("green",)),
        (DECLARATION, ("blue",)),
        (PERMISSION, ("gold",)),
    }
    human = " ".join(cli.run("status", "r").split())
    assert "passage and entry" in human and "red-m1" in human


def _classic() -> tuple[GameService, str]:
    svc = GameService(MemoryStore(), FixedClock())
    settings = GameSettings(full_game=False)
    svc.execute(
        GM_ACTOR,
        CreateGame("Desk", ("red", "blue", "green", "gold"), seed="s", game_id="d", settings=settings),
    )
    return svc, "d"


def test_the_gms_end_of_turn_is_held_and_the_factions_own_is_not() -> None:
    svc, game = _classic()
    text = "Bourchier MOVES CROSS COUNTRY TO Colchester\nBourchier BESIEGES Colchester"
    assert [v.result for v in svc.post(player("red"), game, text, "red", send=True)] == ["accepted"] * 2
    (combat,) = svc.open_business(game).holding
    assert combat.kind == COMBAT and "the siege of Colchester" in combat.text and combat.awaiting == ("gm",)
    out = svc.execute(GM_ACTOR, FinishTurn(game, "red"))
    assert out.result == "refused" and "awaits the GM's ruling" in out.explanation
    assert svc.state(game).turn == "red" and out.last_seq is None  # nothing written
    # a faction ends its own turn: it cannot see all that is open, so nothing holds it
    assert svc.execute(player("red"), FinishTurn(game, "red")).result == "accepted"


def test_the_query_is_a_function_of_the_state() -> None:
    """``open_business`` reads the state (and the deadlines and asks the service gives
    it): the CLI and the web show the service's answer and work nothing out."""
    svc, game = _classic()
    state = svc.state(game)
    assert open_business(state).items == () and len(open_business(state).heirs) == len(state.heirs)
