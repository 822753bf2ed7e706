"""The leak walk through the web app (issue 11 §3.1): random games played through the
service; after every step, for every faction, everything the web answers it (the units
it may order, every one's destinations and orders here with their explanations and its
order panel with the buttons' titles, a check of text orders giving every one of those
orders, its log, inbox, position and map page) and what the CLI's ``orders --as`` check
of the same orders prints are searched for the
secrets that faction may not know: the ids of secret alliances, declarations and
requests not its own, others' hidden orders, permissions between two other factions,
the seed, a secret defender named in an attack's explanation, and gaps in the log's
numbering. The walk must meet enough secrets for the search to mean something.

(``tests/test_orderable.py`` proves the stronger property at the rules level: what a
faction is told reads the same with or without the secrets it may not know.)"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from kingmaker.cli.app import command_app
from kingmaker.orders_text import format_order
from kingmaker.render.reports import catch_up, reports_for
from kingmaker.rules import commands as rc
from kingmaker.rules.candidates import candidate_orders, orderable_units
from kingmaker.rules.state import GameState
from kingmaker.rules.views import can_see_defence
from kingmaker.service import GM_ACTOR, FixedClock, ServiceError
from kingmaker.service.commands import CreateGame, SeatPlayer, Submit
from kingmaker.service.game_service import GameService
from kingmaker.service.settings import GameSettings
from kingmaker.simulation import RandomPlayer
from kingmaker.web import create_app
from kingmaker.web.settings import WebSettings
from tests.reports.test_leaks import Secrets

FACTIONS = ("red", "blue", "green", "gold")
GAME = "walk"
STEPS = 120
CHECK_LINES = 200  # a post's most lines (orders_text.parse): longer checks go in parts


def _hidden_defences(state: GameState, viewer: str) -> list[tuple[str, str, frozenset[str]]]:
    """(defender, his name, the units an attack on his protégé is aimed at) for each
    defence pact ``viewer`` may not know of."""
    out = []
    for d in state.defences:
        if not can_see_defence(state, d, viewer):
            army = state.army_of.get(d.with_)
            aimed = frozenset(state.armies[army].units if army else (d.with_,)) | ({army} if army else set())
            out.append((d.unit, state.catalog.name_of(d.unit), aimed))
    return out


def _stage_defence(svc: GameService, rnd: random.Random, step: int) -> None:
    """Now and then the GM's rulings bring three factions' nobles together in the open,
    two of them secretly allied, one defending with the other (random play alone seldom
    puts an attacker beside a secret pact)."""
    state = svc.state(GAME)
    place = rnd.choice(sorted(p.id for p in state.board.places.values() if not p.kind.is_location))
    others = [f for f in FACTIONS if f != state.turn]
    a, b = rnd.sample(others, 2)
    picks = {}
    for f in (state.turn, a, b):
        free = [
            n.id for n in state.nobles.values() if n.faction == f and n.place and n.id not in state.army_of
        ]
        if not free:
            return
        picks[f] = rnd.choice(sorted(free))
    for noble in picks.values():
        svc.execute(
            GM_ACTOR, Submit(GAME, rc.Capture(rc.GM, noble, state.turn if noble != picks[state.turn] else a))
        )
        svc.execute(GM_ACTOR, Submit(GAME, rc.Release(rc.GM, noble, place, False)))
    pact = f"secret-pact{step:05d}"
    svc.execute(GM_ACTOR, Submit(GAME, rc.DeclareAlliance(a, pact, (b,))))
    svc.execute(GM_ACTOR, Submit(GAME, rc.AnswerAlliance(b, pact, True)))
    svc.execute(GM_ACTOR, Submit(GAME, rc.Defend(b, picks[b], picks[a])))


def test_no_answer_tells_a_faction_a_secret(tmp_path: Path) -> None:
    rnd = random.Random(11)
    db = f"sqlite:///{tmp_path / 'walk.db'}"
    # every answer for every faction after every few steps: far more than a player asks
    app = create_app(
        db,
        gm_password="walk-the-walk",
        clock=FixedClock(),
        settings=WebSettings(player_requests_per_minute=10**6),
    )
    svc = app.state.site.svc
    seed = f"seed-{rnd.getrandbits(64):016x}"
    settings = GameSettings(turn_hours=48, request_hours=6, full_game=False)
    svc.execute(GM_ACTOR, CreateGame("Walk", FACTIONS, seed=seed, game_id=GAME, settings=settings))
    tokens = {f: svc.execute(GM_ACTOR, SeatPlayer(GAME, f, f"{f} player")).token for f in FACTIONS}
    api = TestClient(app, raise_server_exceptions=False)
    runner = CliRunner()
    cli = command_app()
    reports = reports_for(svc, GAME)
    secrets = Secrets(seed)
    for env in reports.timeline.envelopes:
        secrets.learn(env, reports)
    player = RandomPlayer(5)
    checked: Counter[str] = Counter()

    def search(viewer: str, text: str, where: str) -> None:
        ids, phrases = secrets.forbidden(viewer)
        for secret in ids:
            assert secret not in text, f"{viewer} reads {secret!r} in {where}"
        for phrase in phrases:
            assert phrase not in text, f"{viewer} reads {phrase!r} in {where}"
        checked["ids"] += len(ids) - 1
        checked["permissions"] += len(phrases)

    def look(viewer: str) -> None:
        state: GameState = svc.state(GAME)
        auth = {"Authorization": f"Bearer {tokens[viewer]}"}
        base = f"/api/games/{GAME}"
        hidden = _hidden_defences(state, viewer)
        units = api.get(f"{base}/units", headers=auth)
        assert units.status_code == 200
        search(viewer, units.text, "its units")
        assert {u["id"] for u in units.json()} == {u.id for u in orderable_units(state, viewer)}
        lines = []
        for u in units.json():
            d = api.get(f"{base}/units/{u['id']}/destinations", headers=auth)
            search(viewer, d.text, f"the destinations of {u['id']}")
            for o in d.json()["others"]:
                for noble, defender, aimed in hidden:
                    if o["action"] == "attack" and o["target"] in aimed and noble not in (u["id"], *aimed):
                        assert defender not in o["explanation"], f"{viewer} learns {defender} defends"
                        checked["defences"] += 1
            for c in candidate_orders(state, u["id"], viewer):
                lines.append((c, format_order(c.command, state)))
            panel = api.get(
                f"/play/{GAME}/{tokens[viewer]}/panel/units/{u['id']}", headers={"HX-Request": "true"}
            )
            search(viewer, panel.text, f"the order panel of {u['id']}")
        for at in range(0, len(lines), CHECK_LINES):
            part = lines[at : at + CHECK_LINES]
            text = "\n".join(t for _, t in part)
            r = api.post(f"{base}/orders/check", json={"text": text}, headers=auth)
            assert r.status_code == 200, r.text
            assert len(r.json()) == len(part), "a verdict per line"
            search(viewer, r.text, "a check of text orders")
            checked["previews"] += len(part)
            for (c, _), verdict in zip(part, r.json(), strict=True):
                for noble, defender, aimed in hidden:
                    attack = c.command
                    if (
                        isinstance(attack, rc.Attack)
                        and attack.target in aimed
                        and noble not in (attack.unit, *aimed)
                    ):
                        assert defender not in verdict["explanation"], f"{viewer} learns {defender} defends"
                        checked["defences"] += 1
            args = ["orders", GAME, "--as", viewer, "--check", "--json", "--db", db]
            out = runner.invoke(cli, args, input=text)
            assert out.exit_code in (0, 1), out.output
            assert len(json.loads(out.output)) == len(part), out.output  # a verdict per line
            search(viewer, out.output, "the CLI's check")
            checked["cli"] += 1
        log = api.get(f"{base}/log", headers=auth).json()
        assert [e["seq"] for e in log] == list(range(1, len(log) + 1)), f"{viewer}'s log has gaps"
        search(viewer, json.dumps(log), "its log")
        for path in ("pending", "view", "deadlines"):
            search(viewer, api.get(f"{base}/{path}", headers=auth).text, path)
        search(viewer, api.get(f"/play/{GAME}/{tokens[viewer]}").text, "its map page")
        search(viewer, api.get(f"/play/{GAME}/{tokens[viewer]}/inbox").text, "its inbox")
        checked["looks"] += 1

    for step in range(STEPS):
        cmd = player.command(svc.state(GAME))
        if isinstance(cmd, rc.DeclareAlliance):  # distinctive alliance ids
            cmd = dataclasses.replace(cmd, id=f"secret-{rnd.getrandbits(40):010x}")
        try:
            svc.execute(GM_ACTOR, Submit(GAME, cmd))
            if step % 20 == 10:
                _stage_defence(svc, rnd, step)
        except ServiceError:
            continue
        head = reports.timeline.head
        catch_up(reports, svc, GAME)
        for env in reports.timeline.envelopes:
            if env.seq > head:
                secrets.learn(env, reports)
        for f in FACTIONS:
            look(f)
    assert checked["looks"] >= STEPS * len(FACTIONS) // 2, checked
    assert checked["previews"] > 1000, checked
    assert checked["ids"] > 500 and checked["permissions"] > 20, checked
    assert checked["defences"] > 5 and checked["cli"] > 5, checked
