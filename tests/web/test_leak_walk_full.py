"""The leak walk through the web app for the full game (issue 13): a game created with
``full_game`` on and played through the service by ``FullGamePlayer`` (events drawn by
the service, storms, battles and sieges drawn by the engine, ransoms offered, accepted
and refused, executions); every few steps, and whenever a ransom or a storm starts
waiting, everything the web answers each faction (the full game's part of the position,
its view, inbox, log, deadlines, reports, map page, inbox page and position page) is
searched for what it may not know: a card it was never shown (another faction's hand,
the next cards of either deck, the Chancery), the ids of requests that are not its own
(ransoms among them), others' hidden orders, the seed, and the terms of a ransom
between two other factions. The GM-only answers refuse it. The walk must meet enough
secrets for the search to mean something."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from kingmaker.log.service_events import OrderSubmitted
from kingmaker.render.reports import catch_up, reports_for
from kingmaker.rules import commands as rc
from kingmaker.rules import events as ev
from kingmaker.rules import ids as rule_ids
from kingmaker.rules.state import GameState
from kingmaker.service import GM_ACTOR, FixedClock, ServiceError, player
from kingmaker.service.commands import CreateGame, SeatPlayer, Submit
from kingmaker.service.settings import GameSettings
from kingmaker.simulation_full import FullGamePlayer
from kingmaker.web import create_app
from kingmaker.web.settings import WebSettings
from tests.reports.test_leaks import Secrets
from tests.reports.test_leaks_full import searchable, secret_cards, shown_to

FACTIONS = ("red", "blue", "green", "gold")
GAME = "walk-full"
STEPS = 420
EVERY = 40


def _waiting(state: GameState) -> frozenset[str]:
    return frozenset(
        [r.id for r in state.requests.values() if r.rule == rule_ids.RANSOM_OFFER] + list(state.storms)
    )


def _stage_ransom(state: GameState, rnd: random.Random) -> rc.Command | None:
    """A captive's faction offers a card of its hand for him (random play seldom takes
    captives, and seldom ransoms them before the turn's end executes them): the GM's
    ruling takes one when there is none, so the walk meets ransom terms to keep."""
    if not any(n.captive_of for n in state.nobles.values()):
        free = sorted(
            n.id for n in state.nobles.values() if n.faction and n.place and state.hands.get(n.faction)
        )
        if free:
            noble = state.nobles[rnd.choice(free)]
            return rc.Capture(rc.GM, noble.id, rnd.choice([f for f in FACTIONS if f != noble.faction]))
        return None
    offered = {getattr(r.command, "captive", None) for r in state.requests.values()}
    for n in sorted(state.nobles.values(), key=lambda n: n.id):
        hand = state.hands.get(n.faction or "", ())
        if n.captive_of is not None and n.faction and n.id not in offered and hand:
            give = (rc.Consideration(n.faction, (rnd.choice(hand),)),)
            return rc.Ransom(n.faction, f"{n.faction}-ransom-{rnd.getrandbits(32):08x}", n.id, give)
    return None


def _actor(cmd: rc.Command) -> Any:
    return GM_ACTOR if cmd.by == rc.GM else player(cmd.by)


def test_no_web_answer_of_the_full_game_tells_a_secret(tmp_path: Path) -> None:
    rnd = random.Random(13)
    clock = FixedClock()
    app = create_app(
        f"sqlite:///{tmp_path / 'walk.db'}",
        gm_password="walk-the-full-walk",
        clock=clock,
        settings=WebSettings(player_requests_per_minute=10**6),
    )
    svc = app.state.site.svc
    seed = f"seed-{rnd.getrandbits(64):016x}"
    settings = GameSettings(turn_hours=48, request_hours=6, full_game=True)
    svc.execute(GM_ACTOR, CreateGame("Walk", FACTIONS, seed=seed, game_id=GAME, settings=settings))
    tokens = {f: svc.execute(GM_ACTOR, SeatPlayer(GAME, f, f"{f} player")).token for f in FACTIONS}
    api = TestClient(app, raise_server_exceptions=False)
    reports = reports_for(svc, GAME)
    secrets = Secrets(seed)
    for env in reports.timeline.envelopes:
        secrets.learn(env, reports)
    names = searchable(svc.state(GAME))
    ransoms: dict[str, set[str]] = {}  # an offer's text -> its parties
    fp = FullGamePlayer(4, end_phase_weight=2)
    checked: Counter[str] = Counter()

    def look(viewer: str) -> None:
        state = svc.state(GAME)
        shown = shown_to(reports, state, viewer)
        hidden = {c: kind for c, kind in secret_cards(state, viewer, shown).items() if c in names}
        ids, phrases = secrets.forbidden(viewer)
        ids -= shown
        phrases |= {text for text, parties in ransoms.items() if viewer not in parties}
        auth = {"Authorization": f"Bearer {tokens[viewer]}"}
        base, page = f"/api/games/{GAME}", f"/play/{GAME}/{tokens[viewer]}"
        answers: dict[str, str] = {}
        for path in (
            "full",
            "view",
            "pending",
            "log",
            "deadlines",
            "units",
            "reports?format=plain",
            "digest?format=plain",
            "choices",
            "duties",
            "parliament",
        ):
            r = api.get(f"{base}/{path}", headers=auth)
            assert r.status_code == 200, (path, r.text)
            answers[path] = r.text
        for path in ("", "/inbox", "/position", "/reports", "/reports?digest=1", "/parliament"):
            r = api.get(page + path)
            assert r.status_code == 200, (path, r.text)
            answers[f"page {path or '/'}"] = r.text
        assert api.get(f"{base}/fighting", headers=auth).status_code == 403
        for where, text in answers.items():
            for card, kind in hidden.items():
                assert names[card] not in text, f"{viewer} reads {names[card]!r} ({kind}) in {where}"
                assert f'"{card}"' not in text, f"{viewer} reads the id {card!r} ({kind}) in {where}"
            for secret in ids:
                assert secret not in text, f"{viewer} reads {secret!r} in {where}"
            for phrase in phrases:
                assert phrase not in text, f"{viewer} reads {phrase!r} in {where}"
        full = json.loads(answers["full"])
        assert all(h["cards"] is None for h in full["hands"] if h["faction"] != viewer)
        for kind in hidden.values():
            checked[kind] += 1
        checked["ransom terms"] += sum(1 for parties in ransoms.values() if viewer not in parties)
        checked["looks"] += 1

    waiting: frozenset[str] = frozenset()
    for step in range(STEPS):
        if step % 30 == 29:
            clock.advance(hours=7)  # ransoms and storms pass their deadlines
        cmd = fp.command(svc.state(GAME))
        staged = _stage_ransom(svc.state(GAME), rnd) if step % 20 in (10, 11) else None
        cmd = staged or cmd
        try:
            svc.execute(_actor(cmd), Submit(GAME, cmd))
        except ServiceError:
            continue
        head = reports.timeline.head
        catch_up(reports, svc, GAME)
        for env in reports.timeline.envelopes:
            if env.seq <= head:
                continue
            secrets.learn(env, reports)
            e = env.event
            if isinstance(e, OrderSubmitted) and isinstance(e.command, rc.Ransom) and e.result == "pending":
                before = reports.timeline.state_before(env.seq)
                captive = before.nobles[e.command.captive]
                parties = {e.command.by, *(f for f in (captive.captive_of, captive.faction) if f)}
                ransoms[reports.describe(e.command, before)] = parties
        state = svc.state(GAME)
        now = _waiting(state)
        if step % EVERY == EVERY - 1 or (now - waiting):
            for f in FACTIONS:
                look(f)
        waiting = now
    assert any(isinstance(e.event, ev.BattleFought | ev.SiegeDrawn) for e in reports.timeline.envelopes)
    assert checked["hand"] > 80 and checked["event deck"] > 100 and checked["Crown deck"] > 80, checked
    print(checked)
    assert checked["Chancery"] > 50 and checked["ransom terms"] > 5, checked
