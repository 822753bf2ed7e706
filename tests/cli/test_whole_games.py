"""Whole games played through the CLI from text orders (issue 14): one to a last-heir
victory (VICTORY.last_heir), one to a parliamentary victory (VICTORY.parliament); then
the reports and a full replay. On a real SQLite file, through Typer's runner and the
whole app, every order a post of text to ``kingmaker orders``.

Both games are dealt from the seed ``cli-106`` (four factions; the deal and the decks
are the seed's, so each turn's event and each Crown draw are known): red's Pole inside
Wingfield, blue's Roos inside Helmsley, green's Mowbray (holding the Archbishop of
Canterbury) in the open at Framlingham, Neville inside Warwick and Stanley inside
Lathom, gold's Holland, Audley and Greystoke; Henry VI crowned, unescorted, inside
London. The first round's Crown draws give red the noble card Talbot, blue the Town of
Newcastle, green the ship Grace Dieu and gold the Bishop of Lincoln.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kingmaker.cli.app import command_app

SEED = "cli-106"
GAME = "wars"


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

    def json(self, *args: str) -> Any:
        return json.loads(self.run(*args, "--json"))

    def post(self, author: str, text: str, code: int = 0) -> list[tuple[str, str, str | None]]:
        """``kingmaker orders GAME --as AUTHOR`` with ``text`` on standard input: each
        line's (text, result, rule)."""
        rows = json.loads(self.run("orders", GAME, "--as", author, "--json", stdin=text, code=code))
        return [(r["text"], r["result"], r["rule"]) for r in rows]

    def end_turn(self) -> str:
        """The GM's ``END TURN`` as a text order; its rule."""
        ((_, result, rule),) = self.post("gm", "END TURN\n")
        assert result == "accepted" and rule is not None, (result, rule)
        return rule

    def hand(self, faction: str) -> list[str]:
        hands = dict(self.json("view", GAME, faction)["view"]["hands"])
        return list(hands.get(faction, []))

    def report(self, *args: str, fmt: str = "plain") -> str:
        return self.run("report", GAME, *args, "--format", fmt)


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(tmp_path / "whole.db")
    c.run("new", "Wars of the Roses", "--id", GAME, "--seed", SEED, "--factions", "red,blue,green,gold")
    return c


def _accepted(rows: list[tuple[str, str, str | None]], *rules: str | None) -> None:
    assert [(result, rule) for _, result, rule in rows] == [("accepted", r) for r in rules], rows


def _first_round_and_a_half(cli: Cli) -> None:
    """Round 1: red and blue move a noble out of his castle, every turn ends with its
    Crown draw. Round 2: red brings the noble card it drew into play, blue assigns its
    town card (at any time: in red's turn)."""
    _accepted(cli.post("red", "Pole LEAVES Wingfield\n"), None)
    assert cli.end_turn() == "TURN.end"
    _accepted(cli.post("blue", "Roos LEAVES Helmsley\n"), None)
    assert cli.end_turn() == "TURN.end"
    assert cli.end_turn() == "TURN.end"  # green gives no order
    assert cli.end_turn() == "TURN.end"  # nor gold
    assert (cli.hand("red"), cli.hand("blue"), cli.hand("green"), cli.hand("gold")) == (
        ["talbot"],
        ["town_of_newcastle"],
        ["grace_dieu"],
        ["bishop_of_lincoln"],
    )
    status = cli.json("status", GAME)
    assert (status["view"]["round"], status["view"]["turn"]) == (2, "red")
    _accepted(cli.post("red", "Red BRINGS Talbot INTO PLAY AT Sheffield\n"), "DEAL.noble")
    _accepted(cli.post("blue", "Blue ASSIGNS Town of Newcastle TO Roos\n"), "DEAL.assign")
    assert cli.hand("red") == [] and cli.hand("blue") == []


def test_a_whole_game_to_a_last_heir_victory(cli: Cli) -> None:
    """Green crowns Richard, Duke of York at York and executes every other heir: at the
    end of its turn he is the last living heir, crowned and in England, and green wins
    (VICTORY.last_heir).

    Set up by the GM's hand rulings, because playing it out would take hundreds of
    orders (marching Mowbray from Framlingham to York, and taking seven heirs from
    London, Coventry, Kenilworth, Harlech, Dublin, Cardigan and Calais by force):
    ``CAPTURE Mowbray BY Red`` and ``RELEASE Mowbray AT York INSIDE`` put him inside
    York, ``SET York TO Green`` gives green the city, and ``<heir> GOES WITH Mowbray``
    puts the seven heirs in his keeping. Every decisive step is a text order of green's
    or the GM's: Mowbray takes Richard, Duke of York (CAPTURE.heir), green executes the
    seven (EXEC.heir) and crowns Richard with Mowbray's Archbishop of Canterbury
    (CROWN.succession), and the GM's END TURN makes the check (VICTORY.last_heir)."""
    _first_round_and_a_half(cli)
    assert cli.end_turn() == "TURN.end"  # red's turn of round 2
    assert cli.end_turn() == "TURN.end"  # blue's
    heirs = [
        "Henry VI",
        "Margaret of Anjou",
        "Edward, Prince of Wales",
        "Edward, Earl of March",
        "Edmund, Earl of Rutland",
        "George, Duke of Clarence",
        "Richard, Duke of Gloucester",
    ]
    setup = "CAPTURE Mowbray BY Red\nRELEASE Mowbray AT York INSIDE\nSET York TO Green\n"
    setup += "".join(f'"{h}" GOES WITH Mowbray\n' for h in heirs)
    rows = cli.post("gm", setup)
    assert all(result == "accepted" for _, result, _ in rows), rows

    # a coronation refused while Mowbray does not yet escort the heir
    ((_, result, rule),) = cli.post("green", "Green CROWNS Richard, Duke of York\n", code=1)
    assert (result, rule) == ("refused", "CROWN.escort")
    post = "Green ASSIGNS Grace Dieu TO Neville\nMowbray CAPTURES Richard, Duke of York\n"
    post += "".join(f"Green EXECUTES {h}\n" for h in heirs)
    post += "Green CROWNS Richard, Duke of York\n"
    _accepted(cli.post("green", post), "DEAL.assign", "CAPTURE.heir", *["EXEC.heir"] * 7, "CROWN.succession")
    view = cli.json("view", GAME, "green")["view"]
    assert [(h["id"], h["crowned"], h["with_noble"]) for h in view["heirs"]] == [
        ("richard_duke_of_york", True, "mowbray")
    ]
    assert view["game_over"] == ""  # checked when the turn ends

    ((_, result, rule),) = cli.post("gm", "END TURN\n")
    assert (result, rule) == ("accepted", "VICTORY.last_heir")
    view = cli.json("status", GAME)["view"]
    assert (view["game_over"], view["winner"]) == ("VICTORY.last_heir", "green")
    # nothing follows the end of the game
    ((_, result, rule),) = cli.post("gold", "Gold ASSIGNS Bishop of Lincoln TO Holland\n", code=1)
    assert (result, rule) == ("refused", "VICTORY.timing")
    ((_, result, rule),) = cli.post("gm", "END TURN\n", code=1)
    assert (result, rule) == ("refused", "VICTORY.timing")

    # the reports of green's last turn
    public = cli.report("--round", "2", "--turn", "green")
    for executed in heirs:
        assert f"{executed} is executed. [EXEC.heir]" in public, public
    assert "[CROWN.succession]" in public and "[VICTORY.last_heir]" in public
    assert "Richard, Duke of York (York 1, crowned): with Mowbray, Green (inside York)" in public
    assert "Henry VI (Lancaster 1" not in public.split("Royal heirs")[1]  # dead heirs are gone
    assert "[b]" in cli.report("--round", "2", "--turn", "green", fmt="bbcode")
    private = cli.report("--kind", "private", "--for", "green", "--round", "2", "--turn", "green")
    assert "Green ASSIGNS Grace Dieu TO Neville" in private
    assert "Green CROWNS Richard, Duke of York — accepted [CROWN.succession]" in private
    assert "Grace Dieu (capacity 300): in port at Southampton" in private
    # blue's turn before it: its assignment in its private report
    blue = cli.report("--kind", "private", "--for", "blue", "--round", "2", "--turn", "red")
    assert "Blue ASSIGNS Town of Newcastle TO Roos — accepted [DEAL.assign]" in blue

    replay = cli.json("replay", GAME)
    assert replay["same"] is True and replay["replayed"] == replay["current"], replay


def test_a_whole_game_to_a_parliamentary_victory(cli: Cli) -> None:
    """Red keeps Henry VI, the sole King; in its Parliament phase of round 2 it summons
    Parliament to Ipswich, every faction declares its attendance in turn, Parliament
    makes Pole Marshal of England and then passes red's victory motion (VICTORY.parliament,
    F21: more Lords for than against, and Commons for above half of those present).

    Set up by one hand ruling of the GM, because playing it out would take dozens of
    orders (Pole marching to London and taking the King): ``Henry VI GOES WITH Pole``.
    Every decisive step is a text order: the summons, the attendance, both proposals and
    every vote (some by the proposal's id, some by what it proposes, one faction's
    differing by house), with the refusals of steps out of turn."""
    _first_round_and_a_half(cli)
    rows = cli.post("gm", "Henry VI GOES WITH Pole\n")
    assert rows == [("Henry VI GOES WITH Pole", "accepted", "GM.action")]

    # only the sole King's faction summons, and only in its Parliament phase
    ((_, result, rule),) = cli.post("blue", "Blue SUMMONS PARLIAMENT AT Newcastle\n", code=1)
    assert (result, rule) == ("refused", "PHASE.order")
    _accepted(
        cli.post("red", "Red SUMMONS PARLIAMENT AT Ipswich\nRed ATTENDS WITH Pole AND Talbot\n"),
        "PARL.summon.king",
        "PARL.attend",
    )
    # attendance in turn order after the presiding faction: blue before green
    ((_, result, rule),) = cli.post("green", "Green ATTENDS WITH Mowbray, Neville AND Stanley\n", code=1)
    assert (result, rule) == ("refused", "PARL.attend")
    _accepted(cli.post("blue", "Blue ATTENDS WITH Roos\n"), "PARL.attend")
    _accepted(cli.post("green", "Green ATTENDS WITH Mowbray, Neville AND Stanley\n"), "PARL.attend")
    _accepted(cli.post("gold", "Gold ATTENDS WITH Holland\n"), "PARL.attend")

    # the Marshal of England for Pole; votes are secret until every voter has voted
    rows = cli.post("red", "Red PROPOSES Marshal of England FOR Pole\nRed VOTES FOR Marshal of England\n")
    assert [(r, rule) for _, r, rule in rows] == [("pending", "PARL.business"), ("pending", "PARL.vote")]
    assert [(r, rule) for _, r, rule in cli.post("blue", "Blue VOTES AGAINST m1\n")] == [("pending", "PARL.vote")]
    seen = cli.json("view", GAME, "blue")["view"]["parliament"]
    votes = dict(next(p for p in seen["proposals"] if p["id"] == "m1")["votes"])
    assert votes["blue"] == ["against", "against"] and votes["red"] == ["", ""]  # red's stance unseen
    rows = cli.post("green", "Green VOTES FOR IN THE LORDS AND AGAINST IN THE COMMONS ON m1\n")
    assert [(r, rule) for _, r, rule in rows] == [("pending", "PARL.vote")]
    _accepted(cli.post("gold", "Gold ABSTAINS ON Pole\n"), "PARL.vote")

    # the victory motion: green abstains in the Lords and votes against in the Commons
    rows = cli.post("red", "Red PROPOSES VICTORY\nRed VOTES FOR VICTORY\n")
    assert [(r, rule) for _, r, rule in rows] == [("pending", "PARL.business"), ("pending", "PARL.vote")]
    cli.post("blue", "Blue ABSTAINS ON VICTORY\n")
    cli.post("green", "Green ABSTAINS IN THE LORDS AND VOTES AGAINST IN THE COMMONS ON m2\n")
    out = cli.run("orders", GAME, "--as", "gold", "--json", stdin="Gold VOTES FOR m2\n")
    (row,) = json.loads(out)
    assert (row["result"], row["rule"]) == ("accepted", "VICTORY.parliament")
    assert "Parliament passed the victory motion: Lords 15 for, 0 against; Commons 42 for, 6 against, of 51 present" in row["explanation"]
    assert "red wins the game" in row["explanation"]
    view = cli.json("status", GAME)["view"]
    assert (view["game_over"], view["winner"]) == ("VICTORY.parliament", "red")
    # the turn's end has nothing left to check: the game is over
    ((_, result, rule),) = cli.post("gm", "END TURN\n", code=1)
    assert (result, rule) == ("refused", "VICTORY.timing")
    ((_, result, rule),) = cli.post("red", "Red CLOSES PARLIAMENT\n", code=1)
    assert (result, rule) == ("refused", "VICTORY.timing")

    public = cli.report("--round", "2", "--turn", "red")
    for rule in ("PARL.summon.king", "PARL.attend", "PARL.business", "PARL.vote", "VICTORY.parliament"):
        assert f"[{rule}]" in public, rule
    pole = public.split("Pole (Duke of Suffolk)")[1].split("Talbot")[0]
    assert "office: Marshal of England" in pole
    private = cli.report("--kind", "private", "--for", "red", "--round", "2", "--turn", "red")
    assert "Red SUMMONS PARLIAMENT AT Ipswich — accepted [PARL.summon.king]" in private
    assert "“Red VOTES FOR VICTORY” — read as: Red VOTES FOR m2" in private
    assert "Red BRINGS Talbot INTO PLAY AT Sheffield — accepted [DEAL.noble]" in private

    replay = cli.json("replay", GAME)
    assert replay["same"] is True and replay["replayed"] == replay["current"], replay
