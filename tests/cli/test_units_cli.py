"""``kingmaker units`` and ``kingmaker destinations`` (issue: the rules' ``orderable_units``
and ``candidate_orders`` used from the CLI too): the units a faction may order are the
rules' own, each unit's orders are its candidate orders with their verdicts, the allowed
ones written as text orders that ``kingmaker orders --check`` reads back and accepts,
the answers are the API's, and a secret defence pact stays out of what a third faction
is told. On a real SQLite file, through Typer's runner and the whole app."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from kingmaker.cli.app import command_app
from kingmaker.rules import commands as rc
from kingmaker.rules.candidates import candidate_orders, orderable_units
from kingmaker.rules.state import GameState
from kingmaker.service import GM_ACTOR
from kingmaker.service.commands import Submit
from kingmaker.service.game_service import GameService
from kingmaker.service.identity import player
from kingmaker.storage import open_store
from kingmaker.web import create_app
from kingmaker.web.settings import WebSettings

FACTIONS = ("red", "blue", "green", "gold")
GAME = "u"


class Cli:
    def __init__(self, db: Path):
        self.url = f"sqlite:///{db}"
        self.runner = CliRunner()
        self.app = command_app()
        self.tokens: dict[str, str] = {}

    def run(self, *args: str, stdin: str | None = None, code: int = 0) -> str:
        r = self.runner.invoke(self.app, [args[0], "--db", self.url, *args[1:]], input=stdin)
        assert r.exit_code == code, f"{args} -> {r.exit_code}\n{r.output}"
        assert "Traceback" not in r.output and "internal error" not in r.output, r.output
        return r.output

    def json(self, *args: str, stdin: str | None = None, code: int = 0) -> Any:
        return json.loads(self.run(*args, "--json", stdin=stdin, code=code))

    def state(self) -> GameState:
        store = open_store(self.url)
        try:
            return GameService(store).state(GAME)
        finally:
            store.close()

    def execute(self, actor: Any, command: rc.Command) -> None:
        store = open_store(self.url)
        try:
            out = GameService(store).execute(actor, Submit(GAME, command))
            assert out.result in ("accepted", "done"), out.explanation
        finally:
            store.close()


def _new(tmp_path: Path, *options: str) -> Cli:
    c = Cli(tmp_path / "units.db")
    c.run("new", "Units", "--id", GAME, "--seed", "cli-106", "--factions", ",".join(FACTIONS), *options)
    for f in FACTIONS:
        c.tokens[f] = c.json("seat", GAME, f, f"{f} player")["token"]
    return c


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    """A game the GM adjudicates by hand (a defence pact may be chosen on another's turn)."""
    return _new(tmp_path, "--hand-adjudication")


def _noble_of(state: GameState, faction: str) -> str:
    return next(
        n.id
        for n in sorted(state.nobles.values(), key=lambda n: n.id)
        if n.faction == faction and n.place is not None
    )


def _secret_defence(cli: Cli) -> tuple[str, str, str]:
    """On Blue's turn: Blue's noble, Green's and Gold's stand in the open at Barnet;
    Green and Gold are secretly allied and Gold's noble has chosen to defend Green's
    (as tests/web/test_previews_and_log.py builds it). Returns (attacker, target,
    defender)."""
    cli.run("end-turn", GAME)
    state = cli.state()
    assert state.turn == "blue"
    attacker, target, defender = (_noble_of(state, f) for f in ("blue", "green", "gold"))
    for n in (attacker, target, defender):
        cli.execute(GM_ACTOR, rc.Capture(rc.GM, n, "red"))
        cli.execute(GM_ACTOR, rc.Release(rc.GM, n, "barnet", False))
    rows = cli.json("orders", GAME, "--as", "green", stdin="Green ALLIES WITH Gold AS gg")
    assert rows[0]["result"] == "pending", rows
    cli.run("answer", GAME, "gold", "green-gg", "accept")
    cli.execute(player("gold"), rc.Defend("gold", defender, target))
    return attacker, target, defender


def _as_rules_say(state: GameState, faction: str) -> list[dict[str, Any]]:
    return [
        {
            "id": u.id,
            "kind": u.kind,
            "faction": u.faction,
            "place": u.place,
            "inside": u.inside,
            "allied": u.allied,
        }
        for u in orderable_units(state, faction)
    ]


def _listed(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    keys = ("id", "kind", "faction", "place", "inside", "allied")
    return [{k: r[k] for k in keys} for r in rows]


def test_the_units_listed_are_the_rules_orderable_units(cli: Cli) -> None:
    for setting in ("start", "secret defence"):
        if setting == "secret defence":
            _secret_defence(cli)
        state = cli.state()
        for f in FACTIONS:
            rows = cli.json("units", GAME, "--as", f)
            assert _listed(rows) == _as_rules_say(state, f), (setting, f)
            assert bool(rows) == (f == state.turn)  # only the faction to play orders here
        assert state.turn is not None
        # the GM: the units of the faction to play
        assert _listed(cli.json("units", GAME)) == _as_rules_say(state, state.turn)
    # the human table names them
    out = cli.run("units", GAME, "--as", "blue")
    assert all(state.catalog.name_of(u.id) in out for u in orderable_units(state, "blue"))
    assert "may order no unit now" in cli.run("units", GAME, "--as", "red")


@pytest.mark.parametrize("options", [("--hand-adjudication",), ()], ids=["by hand", "full game"])
def test_allowed_orders_parse_back_and_are_accepted(tmp_path: Path, options: tuple[str, ...]) -> None:
    cli = _new(tmp_path, *options)
    state = cli.state()
    assert state.phased == (not options)
    units = cli.json("units", GAME, "--as", "red")
    assert units
    texts: list[str] = []
    for u in units:
        d = cli.json("destinations", GAME, u["id"], "--as", "red")
        cands = candidate_orders(state, u["id"], "red")
        # one row per candidate order, with the rules' verdict
        assert [(o["action"], o["target"], o["result"], o["rule"]) for o in d["orders"]] == [
            (c.action, c.target, c.result.value, c.rule) for c in cands
        ]
        assert [o["explanation"] for o in d["orders"]] == [c.explanation for c in cands]
        assert [o["path"] for o in d["orders"]] == [list(c.path) for c in cands]
        for o in d["orders"]:
            assert o["allowed"] == (o["result"] != "refused")
            assert (o["order"] is not None) == o["allowed"]
            if not o["allowed"]:
                assert o["rule"] and o["explanation"]
        texts += [o["order"] for o in d["orders"] if o["allowed"]]
    assert len(texts) >= 3
    verdicts = cli.json("orders", GAME, "--as", "red", "--check", stdin="\n".join(texts))
    assert [v["text"] for v in verdicts] == texts
    assert all(v["result"] == "accepted" for v in verdicts), verdicts
    # the human table shows the orders to post
    out = cli.run("destinations", GAME, units[0]["id"], "--as", "red")
    assert "accepted" in out and state.catalog.name_of(units[0]["id"]) in out


def test_the_json_is_the_apis_answer(cli: Cli) -> None:
    attacker, _, _ = _secret_defence(cli)
    app = create_app(cli.url, gm_password="pw", settings=WebSettings(player_requests_per_minute=100_000))
    api = TestClient(app, raise_server_exceptions=False)
    blue = {"Authorization": f"Bearer {cli.tokens['blue']}"}
    units = api.get(f"/api/games/{GAME}/units", headers=blue)
    assert units.status_code == 200, units.text
    assert cli.json("units", GAME, "--as", "blue") == units.json()
    web = api.get(f"/api/games/{GAME}/units/{attacker}/destinations", headers=blue).json()
    d = cli.json("destinations", GAME, attacker, "--as", "blue")
    orders = d.pop("orders")
    assert d == web  # the API's answer, field for field
    assert set(web) >= {"unit", "name", "orderable", "reason", "place", "inside", "destinations", "others"}
    assert orders and set(orders[0]) == {
        "action",
        "target",
        "target_name",
        "path",
        "result",
        "allowed",
        "rule",
        "explanation",
        "order",
    }
    # every allowed move the API lists is among the CLI's orders
    moves = {(a, row["place"]) for row in web["destinations"] for a in row["actions"]}
    assert moves <= {(o["action"], o["target"]) for o in orders if o["allowed"]}
    attacks = {o["target"] for o in web["others"] if o["allowed"]}
    assert attacks <= {o["target"] for o in orders if o["allowed"] and o["action"] == "attack"}


def test_a_secret_defence_pact_is_not_named_to_a_third_faction(cli: Cli) -> None:
    attacker, target, defender = _secret_defence(cli)
    state = cli.state()
    assert [(d.unit, d.with_) for d in state.defences] == [(defender, target)]  # the pact, kept secret
    secret = state.catalog.name_of(defender)
    for asking in (("--as", "blue"), ()):  # the player, and the GM ordering for blue
        d = cli.json("destinations", GAME, attacker, *asking)
        [attack] = [o for o in d["orders"] if o["action"] == "attack" and o["target"] == target]
        assert attack["allowed"], attack
        assert state.catalog.name_of(target) in attack["explanation"]
        assert secret not in attack["explanation"]
        assert attack["order"] == f"{state.catalog.name_of(attacker)} ATTACKS {state.catalog.name_of(target)}"
        [other] = [o for o in d["others"] if o["action"] == "attack" and o["target"] == target]
        assert secret not in other["explanation"]
    # the text order it gives is read back and accepted, still without the secret
    [verdict] = cli.json("orders", GAME, "--as", "blue", "--check", stdin=attack["order"])
    assert verdict["result"] == "accepted" and secret not in verdict["explanation"]


def test_errors_are_one_line_with_their_exit_codes(cli: Cli) -> None:
    state = cli.state()
    blue_noble = _noble_of(state, "blue")
    cases = [
        (("destinations", GAME, "nobody", "--as", "red"), 3, "no unit"),
        (("destinations", GAME, blue_noble, "--as", "red"), 4, "neither yours nor an ally's"),
        (("destinations", GAME, "pole", "--as", "purple"), 1, "not a faction"),
        (("units", GAME, "--as", "purple"), 1, "not a faction"),
        (("units", "no-such-game", "--as", "red"), 3, "no-such-game"),
        (("destinations", "no-such-game", "pole"), 3, "no-such-game"),
    ]
    for args, code, words in cases:
        out = cli.run(*args, code=code)
        assert words in out, (args, out)
        assert len(out.strip().splitlines()) == 1, out
    # the GM asks as the faction to play: red's units are its own to order
    assert cli.json("destinations", GAME, _noble_of(state, "red"))["unit"] == _noble_of(state, "red")
