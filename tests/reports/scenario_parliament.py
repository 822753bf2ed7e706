"""A short deterministic full game to its end through Parliament, a coronation and a
victory, played through ``GameService`` (MemoryStore, FixedClock) from text orders, as
a forum game runs (the service draws each turn's event; the GM's hand rulings set up
what would take dozens of turns to play out).

Dealt from the seed ``cli-106`` (as ``tests/cli/test_whole_games.py``): red's Pole at
Wingfield, blue's Roos at Helmsley, green's Mowbray (Archbishop of Canterbury) at
Framlingham, Neville at Warwick and Stanley at Lathom, gold's Holland, Audley and
Greystoke; Henry VI crowned, unescorted, inside London. Round 1's Crown draws give red
the noble card Talbot, blue the Town of Newcastle, green the ship Grace Dieu, gold the
Bishop of Lincoln.

Round 2, red: Talbot enters play at Sheffield, blue assigns its town; the GM puts Henry
VI with Pole; red summons Parliament to Ipswich, every faction attends, and Parliament
passes Marshal of England for Pole (votes differing by house, an abstention), rejects
Treasurer of England for Talbot and red's victory motion; red closes it. Round 2, green:
the GM puts Mowbray inside York, green's, with every heir but Richard, Duke of York;
Mowbray takes Richard, green executes the others and crowns him at York, and the turn's
end makes green the winner (VICTORY.last_heir).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field

from kingmaker.service import GM_ACTOR, FixedClock
from kingmaker.service.commands import CreateGame
from kingmaker.service.game_service import GameService
from kingmaker.storage.base import GameStore
from kingmaker.storage.memory import MemoryStore

GAME = "wars-1460"
FACTIONS = ("red", "blue", "green", "gold")
SEED = "cli-106"
HEIRS = (
    "Henry VI",
    "Margaret of Anjou",
    "Edward, Prince of Wales",
    "Edward, Earl of March",
    "Edmund, Earl of Rutland",
    "George, Duke of Clarence",
    "Richard, Duke of Gloucester",
)


@dataclass
class Played:
    service: GameService
    game: str
    moments: dict[str, int] = field(default_factory=dict)  # name -> the log entry after it


class Stop(Exception):
    """The scenario stops at the moment asked for."""


def play(
    until: str | None = None,
    *,
    store: GameStore | None = None,
    setup: Callable[[GameService], object] | None = None,
) -> Played:
    """The scenario on a new service (on ``store``, else in memory), up to the moment
    ``until`` (default: to the end); ``setup`` runs once the game is created."""
    svc = GameService(store if store is not None else MemoryStore(), FixedClock())
    svc.execute(GM_ACTOR, CreateGame("Wars", FACTIONS, seed=SEED, game_id=GAME))
    if setup is not None:
        setup(svc)
    out = Played(svc, GAME)
    with contextlib.suppress(Stop):
        _play(svc, out, until)
    return out


def _play(svc: GameService, out: Played, until: str | None) -> None:
    keys = iter(range(1, 1000))

    def post(author: str, text: str, *results: str, mark: str | None = None) -> None:
        verdicts = svc.post(GM_ACTOR, GAME, text, author, send=True, key=f"k{next(keys)}")
        got = tuple(v.result for v in verdicts)
        assert got == (results or ("accepted",) * len(got)), [
            (v.text, v.result, v.explanation) for v in verdicts
        ]
        if mark:
            out.moments[mark] = svc.log(GAME)[-1].seq
            if mark == until:
                raise Stop

    def end_turn() -> None:
        post("gm", "END TURN\n")

    # round 1: two nobles leave their castles; every turn ends with its Crown draw
    post("red", "Pole LEAVES Wingfield\n")
    end_turn()
    post("blue", "Roos LEAVES Helmsley\n")
    end_turn()
    end_turn()
    end_turn()
    # round 2, red: a noble card into play, a town card assigned, the King kept by Pole
    post("red", "Red BRINGS Talbot INTO PLAY AT Sheffield\n")
    post("blue", "Blue ASSIGNS Town of Newcastle TO Roos\n")
    post("gm", "Henry VI GOES WITH Pole\n")
    # Parliament at Ipswich
    post("red", "Red SUMMONS PARLIAMENT AT Ipswich\nRed ATTENDS WITH Pole AND Talbot\n")
    post("blue", "Blue ATTENDS WITH Roos\n")
    post("green", "Green ATTENDS WITH Mowbray, Neville AND Stanley\n")
    post("gold", "Gold ATTENDS WITH Holland\n")
    post("red", "Red PROPOSES Marshal of England FOR Pole\nRed VOTES FOR m1\n", "pending", "pending")
    post("blue", "Blue VOTES AGAINST m1\n", "pending", mark="voting")
    post("green", "Green VOTES FOR IN THE LORDS AND AGAINST IN THE COMMONS ON m1\n", "pending")
    post("gold", "Gold ABSTAINS ON m1\n", mark="passed")
    post(
        "red",
        "Red PROPOSES Treasurer of England FOR Talbot\nRed VOTES FOR m2\n",
        "pending",
        "pending",
        mark="m2 proposed",
    )
    post("blue", "Blue VOTES AGAINST m2\n", "pending")
    post("green", "Green VOTES AGAINST m2\n", "pending", mark="m2 voting")
    post("gold", "Gold VOTES AGAINST m2\n")
    post("red", "Red PROPOSES VICTORY\nRed VOTES FOR VICTORY\n", "pending", "pending")
    post("blue", "Blue VOTES AGAINST m3\n", "pending")
    post("green", "Green VOTES AGAINST m3\n", "pending", mark="m3 voting")
    post("gold", "Gold ABSTAINS ON m3\n")
    post("red", "Red CLOSES PARLIAMENT\n")
    end_turn()
    end_turn()  # blue gives no order
    # round 2, green: Richard, Duke of York crowned at York, the last heir
    setup = "CAPTURE Mowbray BY Red\nRELEASE Mowbray AT York INSIDE\nSET York TO Green\n"
    setup += "".join(f'"{h}" GOES WITH Mowbray\n' for h in HEIRS)
    post("gm", setup)
    orders = "Green ASSIGNS Grace Dieu TO Neville\nMowbray CAPTURES Richard, Duke of York\n"
    orders += "".join(f"Green EXECUTES {h}\n" for h in HEIRS)
    orders += "Green CROWNS Richard, Duke of York\n"
    post("green", orders, mark="crowned")
    end_turn()
    out.moments["end"] = svc.log(GAME)[-1].seq
