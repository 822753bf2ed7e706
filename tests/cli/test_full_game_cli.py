"""The GM's full game at a terminal (issue 13): ``battles``, ``resolve``, ``draw-event``,
``end-phase`` and what ``status`` and ``view`` show of phases, decks, sieges, captives,
ransoms and storms; each with ``--json`` and the README's exit codes. On a real SQLite
file, through Typer's runner and the whole app.

The games are dealt from the seed ``cli-106`` (four factions): red's Pole, inside
Wingfield, reaches Framlingham in one move, where green's Mowbray stands in the open.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kingmaker.cli.app import command_app
from kingmaker.rules.fighting import category, strength
from kingmaker.service.game_service import GameService
from kingmaker.storage import open_store

SEED = "cli-106"


class Cli:
    def __init__(self, db: Path):
        self.url = f"sqlite:///{db}"
        self.runner = CliRunner()
        self.app = command_app()

    def run(self, *args: str, stdin: str | None = None, code: int = 0) -> str:
        r = self.runner.invoke(self.app, [args[0], "--db", self.url, *args[1:]], input=stdin)
        assert r.exit_code == code, f"{args} -> {r.exit_code}\n{r.output}"
        assert "Traceback" not in r.output and "internal error" not in r.output, r.output
        return r.output

    def json(self, *args: str, code: int = 0) -> Any:
        return json.loads(self.run(*args, "--json", code=code))

    def new(self, game: str, *options: str) -> None:
        self.run(
            "new", "Full game", "--id", game, "--seed", SEED, "--factions", "red,blue,green,gold", *options
        )

    def orders(self, game: str, author: str, text: str, code: int = 0) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = json.loads(
            self.run("orders", game, "--as", author, "--json", stdin=text, code=code)
        )
        return rows


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "full.db")


def _attack(cli: Cli, game: str) -> str:
    """Red's Pole moves to Framlingham and attacks Mowbray; the attack's id."""
    cli.new(game)
    rows = cli.orders(game, "red", "Pole MOVES TO Framlingham\nPole ATTACKS Mowbray\n")
    assert [r["result"] for r in rows] == ["accepted", "accepted"], rows
    (battle,) = cli.json("battles", game)["battles"]
    return str(battle["id"])


def test_battles_lists_the_sides_and_strengths_as_the_rules_count_them(cli: Cli, tmp_path: Path) -> None:
    ident = _attack(cli, "g")
    data = cli.json("battles", "g")
    assert data["phased"] and data["phase"] == "combat" and data["sieges"] == []
    (b,) = data["battles"]
    assert (b["id"], b["kind"], b["place"], b["by"]) == (ident, "attack", "framlingham", "red")
    assert (b["attackers"], b["defenders"]) == (["pole"], ["mowbray"])
    assert (b["attacking_factions"], b["defending_factions"]) == (["red"], ["green"])
    store = open_store(cli.url)
    try:
        state = GameService(store).state("g")
    finally:
        store.close()
    place = state.board.places["framlingham"]
    sa, sd = strength(state, ("pole",), place), strength(state, ("mowbray",), place)
    assert b["strengths"] == {"attackers": sa, "defenders": sd} and b["ratio"] == category(sa, sd) == "5:4"
    assert b["ready"] is True and b["rule"] is None
    human = " ".join(cli.run("battles", "g").split())
    assert ident in human  # never cut, the GM types it
    assert "red: Pole" in human and "(150)" in human and "Mowbray" in human and "(110)" in human
    assert "5:4" in human and "ready" in human


def test_resolve_draws_for_the_battle_and_prints_the_outcome_and_its_table(cli: Cli) -> None:
    ident = _attack(cli, "g")
    out = cli.run("resolve", "g", ident)
    assert "accepted Red's 150 against Green's 110 is 5:4" in out
    assert "(BATTLE.decisive)" in out and "Mowbray is captured" in out
    for row in (
        "red's strength",
        "green's strength",
        "ratio",
        "card",
        "outcome",
        "winner",
        "killed",
        "captured",
    ):
        assert row in out, out
    assert "Raid on Sandwich (majority)" in out
    # the battle is over: nothing open by that id any more (not found)
    out = cli.run("resolve", "g", ident, code=3)
    assert "there is no open battle or siege" in out and "nothing is open" in out
    assert cli.json("battles", "g")["battles"] == []


def test_resolve_json(cli: Cli) -> None:
    ident = _attack(cli, "g")
    data = cli.json("resolve", "g", ident)
    assert data["result"] == "accepted" and data["rule"] == "BATTLE.decisive"
    battle = data["battle"]
    assert battle["strengths"] == {"red": 150, "green": 110} and battle["ratio"] == "5:4"
    assert (battle["card"], battle["card_name"], battle["odds"]) == (
        "raid_on_sandwich",
        "Raid on Sandwich",
        "majority",
    )
    assert (battle["outcome"], battle["winner"], battle["killed"], battle["captured"]) == (
        "decisive",
        "red",
        [],
        ["mowbray"],
    )
    assert (data["round"], data["turn"], data["phase"]) == (1, "red", "combat")


def test_resolve_as_a_text_order_is_the_same_draw(cli: Cli) -> None:
    ident = _attack(cli, "g")
    (row,) = cli.orders("g", "gm", f"RESOLVE {ident}\n")
    assert row["result"] == "accepted" and row["rule"] == "BATTLE.decisive"
    assert row["reading"] == f"RESOLVE {ident}"


def test_a_siege_is_listed_and_resolved_by_its_place(cli: Cli) -> None:
    cli.new("s")
    rows = cli.orders("s", "red", "Pole MOVES TO Framlingham\nPole BESIEGES Framlingham\n")
    assert [r["result"] for r in rows] == ["accepted", "accepted"], rows
    data = cli.json("battles", "s")
    assert data["battles"] == []
    (siege,) = data["sieges"]
    assert (siege["place"], siege["by"], siege["besiegers"], siege["inside"]) == (
        "framlingham",
        "red",
        ["pole"],
        [],
    )
    assert (siege["strength"], siege["garrison"], siege["held"]) == (150, 100, 100)
    assert siege["since"] == {"round": 1, "turn": "red"} and siege["ready"] is True
    status = cli.json("status", "s")["full_game"]
    assert status["sieges"] == [
        {"place": "framlingham", "by": "red", "besiegers": ["pole"], "since": {"round": 1, "turn": "red"}}
    ]
    out = cli.run("resolve", "s", "Framlingham")  # by its name, as the GM reads it
    assert "The card for the siege of Framlingham" in out and "(SIEGE." in out
    assert "siege" in out and "outcome" in out
    # drawn this round: a second draw is refused with its rule, exit 1
    if cli.json("battles", "s")["sieges"]:
        out = cli.run("resolve", "s", "framlingham", code=1)
        assert "SIEGE.continue" in out


def test_end_phase_moves_the_turn_on(cli: Cli) -> None:
    cli.new("p")
    assert (
        cli.json("status", "p")["full_game"]["phase"] == "movement"
    )  # the event card drawn as the turn began
    out = cli.run("end-phase", "p")
    assert out.startswith("accepted red's turn moves on to its combat phase (PHASE.combat)")
    assert "now: round 1, red's turn, combat phase" in out
    data = cli.json("end-phase", "p")
    assert (data["result"], data["rule"], data["phase"]) == ("accepted", "PHASE.parliament", "parliament")
    assert cli.json("status", "p")["full_game"]["phase"] == "parliament"
    out = cli.run("orders", "p", "--as", "red", stdin="Pole MOVES TO Framlingham\n", code=1)
    assert "PHASE.order" in out


def test_unknown_ids_and_games_without_phases(cli: Cli) -> None:
    cli.new("g")
    out = cli.run("resolve", "g", "c-nothing", code=3)
    assert "there is no open battle or siege 'c-nothing'; nothing is open" in out
    cli.run("resolve", "nosuchgame", "c1", code=3)
    cli.new("h", "--hand-adjudication")
    out = cli.run("resolve", "h", "c1", code=1)
    assert "plays without phases" in out and "RESOLVE <id>: <what happened>" in out
    assert cli.json("battles", "h") == {
        "phased": False,
        "phase": "",
        "round": 1,
        "turn": "red",
        "battles": [],
        "sieges": [],
    }
    assert "full_game" not in cli.json("status", "h")


def test_draw_event_and_end_phase(cli: Cli) -> None:
    cli.new("e", "--manual-events")
    assert cli.json("status", "e")["full_game"]["phase"] == "event"
    out = cli.run("draw-event", "e")
    assert out.startswith("accepted") and "event card: " in out and "(EVENT." in out
    data = cli.json("end-phase", "e")
    assert data["result"] == "accepted" and data["rule"] == f"PHASE.{data['phase']}"
    status = cli.json("status", "e")["full_game"]
    assert status["phase"] == data["phase"]
    # a step of a phase that has passed is refused, exit 1
    out = cli.run("draw-event", "e", code=1)
    assert "PHASE.order" in out
    data = cli.json("draw-event", "e", code=1)
    assert data["result"] == "refused" and data["rule"] == "PHASE.order"


def test_draw_event_json_reports_the_card(cli: Cli) -> None:
    cli.new("e", "--manual-events")
    data = cli.json("draw-event", "e")
    assert data["result"] == "accepted" and data["rule"].startswith("EVENT.")
    event = data["event"]
    assert event["card"] == "panic_in_the_baggage" and event["card_name"] == "Panic in the Baggage"
    assert data["phase"] in ("event", "movement")


def test_status_shows_phase_decks_captives_and_ransoms_for_each_viewer(cli: Cli) -> None:
    ident = _attack(cli, "g")
    cli.run("resolve", "g", ident)
    (row,) = cli.orders("g", "red", "Red RANSOMS Mowbray FREE AS m1\n")
    # an id a faction chooses is kept under its name (red-m1); "m1" still names it
    assert row["result"] == "pending" and row["request"] == "red-m1", row
    data = cli.json("status", "g")
    full = data["full_game"]
    assert full["phase"] == "combat"
    assert set(full["decks"]) == {"event", "crown", "chancery"} and full["decks"]["event"] > 0
    assert full["hand_sizes"]["red"] >= 1
    assert full["captives"] == [
        {
            "noble": "mowbray",
            "faction": "green",
            "captive_of": "red",
            "taken_at": "framlingham",
            "taken": {"round": 1, "turn": "red"},
        }
    ]
    (ransom,) = full["ransoms"]
    assert (ransom["id"], ransom["by"], ransom["awaiting"], ransom["captive"]) == (
        "red-m1",
        "red",
        ["green"],
        "mowbray",
    )
    assert ransom["offer"] == "Red: Red RANSOMS Mowbray FREE AS red-m1" and ransom["due"]
    human = cli.run("status", "g")
    assert "combat phase; event deck" in human and "Crown deck" in human and "Chancery" in human
    assert "captives" in human and "Framlingham" in human and "ransoms waiting" in human and "m1" in human
    # the parties see the ransom; another faction does not
    assert [r["id"] for r in cli.json("view", "g", "green")["full_game"]["ransoms"]] == ["red-m1"]
    blue = cli.json("view", "g", "blue")["full_game"]
    assert blue["ransoms"] == [] and blue["captives"] == full["captives"]  # captives are public
    assert "m1" not in cli.run("view", "g", "blue")
    # the captor's answer to its own offer is the other party's: green confirms
    (row,) = cli.orders("g", "green", "Green CONFIRMS RANSOM OF Mowbray\n")
    assert row["result"] == "accepted" and row["rule"] == "RANSOM.offer"
    assert cli.json("status", "g")["full_game"]["captives"] == []


@pytest.mark.parametrize("command", ["battles", "resolve", "draw-event", "end-phase"])
def test_every_new_command_has_an_example_and_the_exit_codes_in_its_help(cli: Cli, command: str) -> None:
    r = cli.runner.invoke(cli.app, [command, "--help"])
    assert r.exit_code == 0
    assert f"Example: kingmaker {command}" in r.output
    assert "Exit codes: 0 done; 1 refused or bad input" in " ".join(r.output.split())
    assert "--json" in r.output
