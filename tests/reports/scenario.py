"""A short deterministic game on the default data, played through ``GameService``
(MemoryStore, FixedClock) as a forum GM would enter it: two alliances (one stays
secret), an allied order confirmed, an army formed with a senior officer, a refused
move, a landing, a storm, a permission grant, a GM control change, missed orders, a
siege resolved, a capture, a kill, an undo, and a declaration left pending."""

from __future__ import annotations

from dataclasses import dataclass, field

from kingmaker.log.fold import Fold
from kingmaker.render.reports import Reports
from kingmaker.rules import commands as rc
from kingmaker.service import GM_ACTOR, FixedClock, player
from kingmaker.service.commands import CreateGame, FinishTurn, Submit, Tick, Undo
from kingmaker.service.game_service import GameService
from kingmaker.service.identity import Actor
from kingmaker.service.settings import GameSettings
from kingmaker.storage.memory import MemoryStore

# The scenario of the golden reports is a game the GM adjudicates by hand (no phases).
CLASSIC = GameSettings(full_game=False)
GAME = "wars-1455"
FACTIONS = ("red", "blue", "green", "gold")


@dataclass
class Played:
    service: GameService
    game: str
    moments: dict[str, int] = field(default_factory=dict)  # name -> the log entry after it


def upto(reports: Reports, seq: int) -> Reports:
    """The reports as they stood just after log entry ``seq``."""
    tl = reports.timeline
    then = Fold.of(tl.initial, [e for e in tl.envelopes if e.seq <= seq]).timeline()
    return Reports(then, reports.names, reports.describe)


def play() -> Played:
    clock = FixedClock()
    svc = GameService(MemoryStore(), clock)
    svc.execute(GM_ACTOR, CreateGame("Wars of the Roses", FACTIONS, seed="s", game_id=GAME, settings=CLASSIC))
    out = Played(svc, GAME)
    keys = iter(range(1, 1000))

    def sub(actor: Actor, cmd: rc.Command, expect: str, mark: str | None = None) -> None:
        # idempotency keys make the envelopes' command ids deterministic too
        o = svc.execute(actor, Submit(GAME, cmd), idempotency_key=f"k{next(keys)}")
        assert o.result == expect, (cmd, o.result, o.explanation)
        if mark:
            out.moments[mark] = svc.log(GAME)[-1].seq

    def finish(faction: str) -> None:
        svc.execute(player(faction), FinishTurn(GAME, faction), idempotency_key=f"k{next(keys)}")

    red, blue, green, gold = (player(f) for f in FACTIONS)
    # round 1, Red: two alliances declared and formed in secret; a move; a refused move
    sub(red, rc.DeclareAlliance("red", "red-gold", ("gold",)), "pending", "declared")
    sub(gold, rc.AnswerAlliance("gold", "red-gold", True), "accepted")
    sub(blue, rc.DeclareAlliance("blue", "secret-bg", ("green",)), "pending")
    sub(green, rc.AnswerAlliance("green", "secret-bg", True), "accepted")
    sub(red, rc.Move("red", "bourchier", "colchester"), "accepted")
    sub(red, rc.MoveRoad("red", "greystoke", ("greystoke_castle", "london")), "refused")
    finish("red")
    # round 1, Blue: Bristol declares for Blue; Berkeley goes aboard; Gold grants harbour
    sub(GM_ACTOR, rc.SetControl(rc.GM, "bristol", "blue"), "accepted")
    sub(blue, rc.Move("blue", "berkeley", "bristol", True), "accepted")
    sub(
        blue,
        rc.Sail(
            "blue", "holy_ghost", "bristol", ("western_channel", "western_approaches", "bristol_channel")
        ),
        "accepted",
    )
    sub(blue, rc.Embark("blue", "holy_ghost", ("berkeley",)), "accepted")
    sub(gold, rc.Grant("gold", "blue", "chepstow", ("ship_enter", "embark")), "accepted")
    finish("blue")
    # round 1, Green sends nothing: its deadline passes
    clock.advance(hours=25)
    svc.execute(GM_ACTOR, Tick(GAME))
    # round 1, Gold: Mowbray into Ipswich; the Jesus puts to sea and a storm drives her in
    sub(gold, rc.Move("gold", "mowbray", "ipswich", True), "accepted")
    sub(gold, rc.Sail("gold", "jesus", "bristol_channel"), "accepted")
    sub(GM_ACTOR, rc.Storm(rc.GM, "jesus", "cardiff"), "accepted")
    finish("gold")
    # round 2, Red: Bourchier joins Mowbray; Red orders Mowbray out (allied order)
    sub(red, rc.MoveRoad("red", "bourchier", ("colchester", "ipswich"), True), "accepted")
    sub(red, rc.Leave("red", "mowbray", "q12"), "pending", "allied order")
    sub(gold, rc.Confirm("gold", "q12"), "accepted")
    sub(GM_ACTOR, rc.Kill(rc.GM, "greystoke"), "accepted")
    finish("red")
    # round 2, Blue: an order entered by mistake and undone; the landing at Chepstow
    mark = svc.log(GAME)[-1].seq
    sub(GM_ACTOR, rc.Sail("blue", "holy_ghost", "bristol_channel"), "accepted")
    svc.execute(GM_ACTOR, Undo(GAME, mark, "Blue's order was entered by mistake"), idempotency_key="undo-1")
    sub(blue, rc.Sail("blue", "holy_ghost", "chepstow", ("bristol_channel",)), "accepted")
    sub(blue, rc.Disembark("blue", "holy_ghost", ("berkeley",), "chepstow"), "accepted")
    finish("blue")
    finish("green")
    finish("gold")
    # round 3, Red: an army of Bourchier and Mowbray, with Gold's consent
    sub(red, rc.Leave("red", "bourchier"), "accepted")
    sub(red, rc.FormArmy("red", "army-east", ("bourchier", "mowbray")), "pending", "army asked")
    sub(gold, rc.Confirm("gold", "army-east"), "accepted")
    finish("red")
    # round 3, Blue: the siege of Chepstow, resolved by the GM; a three-way declaration
    sub(blue, rc.Siege("blue", "berkeley", "chepstow"), "accepted")
    combat = svc.state(GAME).combats[0].id
    sub(GM_ACTOR, rc.ResolveCombat(rc.GM, combat, "the garrison holds; Berkeley is taken"), "accepted")
    sub(GM_ACTOR, rc.Capture(rc.GM, "berkeley", "gold"), "accepted")
    sub(blue, rc.DeclareAlliance("blue", "secret-bgo", ("gold", "green")), "pending")
    sub(green, rc.AnswerAlliance("green", "secret-bgo", True), "pending", "end")
    return out
