"""A short deterministic full game (phases, events, battles and sieges drawn by the
engine) on the default data, played through ``GameService`` (MemoryStore, FixedClock)
as a forum game runs: the service draws each turn's event.

The seed ``s56`` deals Red's Herbert at Raglan, Blue's Talbot at Goodrich and Pole at
Wingfield, Gold's Mowbray at Framlingham, Blue's ship Grace Dieu at Southampton, and
stacks the event deck so that, with no battle drawn before Blue's second turn, Round 2
opens with a plague in London (Henry VI dies) and then a storm over the Channel. The
game: Herbert lays siege to Goodrich (Talbot inside) and the siege continues; the storm
waits for Blue's port; Pole attacks Mowbray and wins (Mowbray captured, his see and
mercenaries spoils); Gold offers a ransom Blue rejects, Blue proposes one Gold accepts;
the siege of Goodrich falls in Round 3 (Talbot captured) and Red executes Talbot. Every
turn ends with the Crown draw.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from kingmaker.render.reports import Reports
from kingmaker.rules import commands as rc
from kingmaker.service import GM_ACTOR, FixedClock, player
from kingmaker.service.commands import CreateGame, FinishTurn, Submit
from kingmaker.service.game_service import GameService
from kingmaker.service.identity import Actor
from kingmaker.storage.memory import MemoryStore

GAME = "towton-1461"
FACTIONS = ("red", "blue", "green", "gold")
SEED = "s56"


@dataclass
class Played:
    service: GameService
    game: str
    moments: dict[str, int] = field(default_factory=dict)  # name -> the log entry after it


class Stop(Exception):
    """The scenario stops at the moment asked for."""


def play(svc: GameService | None = None, until: str | None = None) -> Played:
    """The scenario on ``svc`` (default: a new service on a MemoryStore), up to the
    moment ``until`` (default: to the end)."""
    svc = svc or GameService(MemoryStore(), FixedClock())
    svc.execute(GM_ACTOR, CreateGame("Towton", FACTIONS, seed=SEED, game_id=GAME))
    out = Played(svc, GAME)
    with contextlib.suppress(Stop):
        _play(svc, out, until)
    return out


def _play(svc: GameService, out: Played, until: str | None) -> None:
    keys = iter(range(1, 1000))

    def sub(actor: Actor, cmd: rc.Command, expect: str, mark: str | None = None) -> None:
        o = svc.execute(actor, Submit(GAME, cmd), idempotency_key=f"k{next(keys)}")
        assert o.result == expect, (cmd, o.result, o.explanation)
        if mark:
            out.moments[mark] = svc.log(GAME)[-1].seq
            if mark == until:
                raise Stop

    def finish(faction: str) -> None:
        svc.execute(player(faction), FinishTurn(GAME, faction), idempotency_key=f"k{next(keys)}")

    red, blue, gold = player("red"), player("blue"), player("gold")
    # round 1: places taken; the events do nothing, Gold draws a Writ
    sub(red, rc.Move("red", "herbert", "monmouth"), "accepted")
    finish("red")
    sub(blue, rc.Sail("blue", "grace_dieu", "english_channel"), "accepted")
    sub(blue, rc.Move("blue", "pole", "framlingham"), "accepted")
    finish("blue")
    finish("green")
    sub(gold, rc.Leave("gold", "mowbray"), "accepted")
    finish("gold")
    # round 2, Red: plague in London; Herbert lays siege to Goodrich, not drawn this turn
    sub(red, rc.Move("red", "herbert", "goodrich"), "accepted")
    sub(red, rc.Siege("red", "herbert", "goodrich", "siege-goodrich"), "accepted")
    finish("red")
    # round 2, Blue: the storm waits for Blue's port; the battle at Framlingham; ransom
    out.moments["storm"] = svc.log(GAME)[-1].seq
    if until == "storm":
        raise Stop
    sub(blue, rc.ChoosePort("blue", "grace_dieu", "rye"), "accepted")
    sub(blue, rc.Attack("blue", "pole", "mowbray", "a-framlingham"), "accepted", "attack")
    sub(GM_ACTOR, rc.Battle(rc.GM, "a-framlingham"), "accepted", "battle")
    offer = rc.Ransom(
        "gold", "ransom-writ", "mowbray", (rc.Consideration("gold", ("writ_under_the_privy_seal",)),)
    )
    sub(gold, offer, "pending", "ransom offered")
    sub(blue, rc.Reject("blue", "ransom-writ"), "refused")
    terms = rc.Ransom("blue", "ransom-exeter", "mowbray", (rc.Consideration("gold", ("duke_of_exeter",)),))
    sub(blue, terms, "pending", "ransom asked")
    sub(gold, rc.Confirm("gold", "ransom-exeter"), "accepted")
    finish("blue")
    finish("green")
    finish("gold")
    # round 3, Red: the siege of Goodrich drawn: it falls; Talbot executed
    sub(GM_ACTOR, rc.SiegeAssault(rc.GM, "goodrich"), "accepted", "siege")
    sub(red, rc.Execute("red", captive="talbot"), "accepted")
    out.moments["end"] = svc.log(GAME)[-1].seq


def upto(reports: Reports, seq: int) -> Reports:
    """The reports as they stood just after log entry ``seq``."""
    from kingmaker.log.fold import Fold

    tl = reports.timeline
    then = Fold.of(tl.initial, [e for e in tl.envelopes if e.seq <= seq]).timeline()
    return Reports(then, reports.names, reports.describe)
