"""Three full rounds of a four-faction game on the default map, played through the CLI
alone from text orders against SQLite: an alliance, an allied order, an army with a
senior officer, a refused move, a siege, a landing; then the reports (issue 6 §3)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kingmaker.cli.app import _mount, app

_mount()


class Cli:
    def __init__(self, db: Path):
        self.db = f"sqlite:///{db}"
        self.runner = CliRunner()

    def run(self, *args: str, stdin: str | None = None, code: int = 0) -> str:
        r = self.runner.invoke(app, [*args, "--db", self.db], input=stdin)
        assert r.exit_code == code, f"{args} -> {r.exit_code}\n{r.output}"
        assert "Traceback" not in r.output
        return r.output

    def orders(self, author: str, text: str, code: int = 0) -> list[dict[str, object]]:
        out = self.run("orders", "e2e", "--as", author, "--json", stdin=text, code=code)
        rows: list[dict[str, object]] = json.loads(out)
        return rows

    def end_turn(self) -> None:
        self.run("end-turn", "e2e")


def test_three_rounds_through_the_cli(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "forum.db")
    cli.run(
        "new",
        "Forum test",
        "--id",
        "e2e",
        "--seed",
        "e2e",
        "--factions",
        "red,blue,green,gold",
        "--hand-adjudication",
    )
    for faction, player in (("red", "Ann"), ("blue", "Ben"), ("green", "Cat"), ("gold", "Dan")):
        assert "secret token" in cli.run("seat", "e2e", faction, player)

    # Round 1 -------------------------------------------------------------------------
    rows = cli.orders(
        "red",
        "1. Mowbray MOVES TO Ipswich\n"
        "2. Mowbray BESIEGES Ipswich\n"
        "3. Scrope MOVES TO Middleham IN Middleham\n"
        "4. Red ALLIES WITH Green AS rg\n"
        "5. Nicholas of the Tower SAILS TO Southern North Sea\n",
        code=1,  # one order is refused
    )
    assert [r["result"] for r in rows] == ["accepted", "accepted", "refused", "pending", "accepted"]
    assert rows[2]["rule"] == "LOC.unfriendly.enter"
    status = json.loads(cli.run("status", "e2e", "--json"))
    combat = status["view"]["combats"][0]["id"]
    gm = cli.orders("gm", f"GM: RESOLVE {combat} : Ipswich opens its gates\nGM: SET Ipswich TO Red\n")
    assert [r["result"] for r in gm] == ["accepted", "accepted"]
    assert cli.orders("green", "Green ACCEPTS ALLIANCE rg")[0]["result"] == "accepted"
    cli.end_turn()
    assert cli.orders("blue", "FitzAlan MOVES TO Chichester")[0]["result"] == "accepted"
    cli.end_turn()
    assert cli.orders("green", "Bourchier MOVES TO Colchester")[0]["result"] == "accepted"
    cli.end_turn()
    cli.end_turn()  # gold holds

    # Round 2 -------------------------------------------------------------------------
    rows = cli.orders(
        "red",
        "Nicholas of the Tower SAILS TO Ipswich\n"
        "Howard MOVES TO Colchester\n"
        "Bourchier MOVES FROM Colchester TO Ipswich\n",
    )
    assert [r["result"] for r in rows] == ["accepted", "accepted", "pending"]
    request = rows[2]["request"]
    assert isinstance(request, str)
    pending = json.loads(cli.run("pending", "e2e", "--for", "green", "--json"))
    assert [p["id"] for p in pending["pending"]] == [request]
    assert json.loads(cli.run("pending", "e2e", "--for", "blue", "--json"))["pending"] == []
    assert cli.orders("green", f"Green CONFIRMS {request}")[0]["result"] == "accepted"
    rows = cli.orders(
        "red",
        "Howard MOVES FROM Colchester TO Ipswich\nHoward AND Bourchier FORM ARMY a1 IN Ipswich\n",
    )
    assert [r["result"] for r in rows] == ["accepted", "pending"]
    army = cli.orders("green", "Green CONFIRMS a1")[0]
    assert army["result"] == "accepted" and "Bourchier is senior officer (ALLY.7.iv)" in str(
        army["explanation"]
    )
    rows = cli.orders(
        "red",
        "Mowbray EMBARKS ON Nicholas of the Tower\nNicholas of the Tower SAILS TO Southern North Sea\n",
    )
    assert [r["result"] for r in rows] == ["accepted", "accepted"]
    for _ in range(4):
        cli.end_turn()

    # Round 3 -------------------------------------------------------------------------
    rows = cli.orders("red", "Mowbray LANDS AT Great Yarmouth")
    assert rows[0]["result"] == "accepted" and rows[0]["rule"] == "LOC.neutral.disembark"
    for _ in range(4):
        cli.end_turn()
    status = json.loads(cli.run("status", "e2e", "--json"))
    assert status["view"]["round"] == 4

    # The reports -----------------------------------------------------------------------
    public = cli.run("report", "e2e", "--round", "2", "--turn", "red", "--format", "bbcode")
    assert "[b]" in public and "Bourchier" in public and "ALLY.7.iv" in public
    assert "Howard MOVES" in public  # open orders are published once the turn has ended
    # (an id a faction chooses is kept under its name: Red's "rg" is red-rg; "rg" still names it)
    assert "Now public (ruling R7): alliance [b]red-rg[/b]" in public  # the allied order was carried out
    r1 = cli.run("report", "e2e", "--round", "1", "--turn", "red", "--format", "plain")
    assert "LOC.unfriendly.enter" in r1 and "Scrope MOVES" in r1
    assert "ALLIES WITH" not in r1  # diplomacy is never published
    blue_private = cli.run(
        "report", "e2e", "--kind", "private", "--for", "blue", "--round", "1", "--turn", "red"
    )
    green_private = cli.run(
        "report", "e2e", "--kind", "private", "--for", "green", "--round", "1", "--turn", "red"
    )
    assert "[b]red-rg[/b]" in green_private and "red-rg" not in blue_private  # still secret in round 1
    r3 = cli.run("report", "e2e", "--round", "3", "--turn", "red", "--format", "markdown")
    assert "Great Yarmouth" in r3 and "Mowbray" in r3
    log = cli.run("log", "e2e", "--for", "blue", "--json")
    assert "ALLIES" not in log and '"alliance_declared"' not in log
    assert cli.run("replay", "e2e").strip().endswith("the same")
