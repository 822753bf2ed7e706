"""Game states for the order-text tests, on the default "England 1455" data.

``forum_game`` is a new three-faction game (red, blue, green) with its units set where
the examples of the forum grammar need them; the other fixtures move a few of them.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from kingmaker.data import load_dataset
from kingmaker.rules import commands as c
from kingmaker.rules import events as ev
from kingmaker.rules.apply import apply
from kingmaker.rules.deal import new_game
from kingmaker.rules.decide import play
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.state import GameState, Noble, Ship

FACTIONS = ("red", "blue", "green")


def _noble(state: GameState, nid: str, faction: str, place: str, inside: bool = False, **kw: object) -> Noble:
    card = state.catalog.nobles[nid]
    return Noble(nid, faction, card.troops, place=place, inside=inside, **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def new_forum_game() -> GameState:
    ds = load_dataset()
    return new_game(ds.board, ds.catalog, FACTIONS, "forum-orders", removed=ds.setup.removed)


@pytest.fixture(scope="session")
def forum_game(new_forum_game: GameState) -> GameState:
    """Red's turn. Red: Percy and Stanley in the open at York, Grace Dieu and Mary of the
    Tower at sea in the North Sea. Blue: Clifford in the open at York, Coventry held.
    Green: Neville (the Earl of Warwick) inside Warwick, Howard (holding the title Earl of
    Kent) in the open at York."""
    s = new_forum_game
    nobles = {
        "percy": _noble(s, "percy", "red", "york"),
        "stanley": _noble(s, "stanley", "red", "york"),
        "clifford": _noble(s, "clifford", "blue", "york"),
        "neville": _noble(s, "neville", "green", "warwick", True),
        "howard": _noble(s, "howard", "green", "york", awards=("earl_of_kent",)),
        "talbot": _noble(s, "talbot", "blue", "coventry", True),
    }
    ships = {
        "grace_dieu": Ship("grace_dieu", "red", 300, "north_sea"),
        "mary_of_the_tower": Ship("mary_of_the_tower", "red", 150, "north_sea"),
        "jesus": Ship("jesus", "blue", 200, "bristol", in_port=True),
    }
    control = dict(s.control)
    control.update({"coventry": "blue", "alnwick": "green", "warwick": "green", "bristol": "blue"})
    return s.evolve(nobles=FrozenDict(nobles), ships=FrozenDict(ships), control=FrozenDict(control))


@pytest.fixture(scope="session")
def at_hull(forum_game: GameState) -> GameState:
    """Percy and Stanley in the open at Hull, Grace Dieu in port there."""
    nobles = dict(forum_game.nobles)
    nobles["percy"] = replace(nobles["percy"], place="hull")
    nobles["stanley"] = replace(nobles["stanley"], place="hull")
    ships = dict(forum_game.ships)
    ships["grace_dieu"] = replace(ships["grace_dieu"], place="hull", in_port=True)
    return forum_game.evolve(nobles=FrozenDict(nobles), ships=FrozenDict(ships))


@pytest.fixture(scope="session")
def aboard(forum_game: GameState) -> GameState:
    """Percy and Stanley aboard Grace Dieu in the North Sea (off Hull); Clifford aboard
    Jesus in port at Bristol."""
    nobles = dict(forum_game.nobles)
    nobles["percy"] = replace(nobles["percy"], place=None, aboard="grace_dieu")
    nobles["stanley"] = replace(nobles["stanley"], place=None, aboard="grace_dieu")
    nobles["clifford"] = replace(nobles["clifford"], place=None, aboard="jesus")
    ships = dict(forum_game.ships)
    ships["grace_dieu"] = replace(ships["grace_dieu"], passengers=("percy", "stanley"))
    ships["jesus"] = replace(ships["jesus"], passengers=("clifford",))
    return forum_game.evolve(nobles=FrozenDict(nobles), ships=FrozenDict(ships))


@pytest.fixture(scope="session")
def busy_game(forum_game: GameState) -> GameState:
    """``forum_game`` after: alliance-1 of red and green formed; alliance-2 declared by
    blue, awaiting green; red's order to green's Howard pending (request q6); Stanley's
    attack on Clifford declared (combat c7)."""
    state = forum_game
    for cmd in (
        c.DeclareAlliance("red", "alliance-1", ("green",)),
        c.AnswerAlliance("green", "alliance-1", True),
        c.DeclareAlliance("blue", "alliance-2", ("green",)),
        c.MoveRoad("red", "howard", ("york", "tadcaster"), id="q6"),
        c.Attack("red", "stanley", "clifford", id="c7"),
    ):
        state, d = play(state, cmd)
        assert not d.refused, d.explanation
    assert set(state.requests) == {"q6"} and [x.id for x in state.combats] == ["c7"]
    return state


@pytest.fixture(scope="session")
def full_game() -> GameState:
    """``build_full_game()``."""
    return build_full_game()


def build_full_game() -> GameState:
    """A game with phases (FULL_GAME), red's turn, in its combat phase. York: Percy
    (escorting Henry VI) and Stanley of red, Clifford and Scrope of blue, in the open;
    Margaret of Anjou unescorted there. Ripon besieged by green's Neville, blue's Talbot
    inside, blue's Mowbray in the open. Stafford (blue) red's captive, taken at York.
    Red holds Forced March, blue the City of Bristol. Stanley's attack on Clifford
    declared (c7); blue's ransom of Stafford for Bristol pending (r1); a storm drives
    red's Grace Dieu from the North Sea (storm-1)."""
    ds = load_dataset()
    s = new_game(ds.board, ds.catalog, FACTIONS, "forum-full", removed=ds.setup.removed, full_game=True)
    nobles = {
        "percy": _noble(s, "percy", "red", "york"),
        "stanley": _noble(s, "stanley", "red", "york"),
        "clifford": _noble(s, "clifford", "blue", "york"),
        "scrope": _noble(s, "scrope", "blue", "york"),
        "stafford": _noble(s, "stafford", "blue", "york"),
        "talbot": _noble(s, "talbot", "blue", "ripon", True),
        "mowbray": _noble(s, "mowbray", "blue", "ripon"),
        "neville": _noble(s, "neville", "green", "ripon"),
    }
    ships = {"grace_dieu": Ship("grace_dieu", "red", 300, "north_sea")}
    hands = {"red": ("forced_march",), "blue": ("city_of_bristol",)}
    s = s.evolve(
        nobles=FrozenDict(nobles),
        ships=FrozenDict(ships),
        armies=FrozenDict(),
        event_deck=tuple(x for x in s.event_deck if x != "forced_march"),
        crown_deck=tuple(x for x in s.crown_deck if x != "city_of_bristol"),
        chancery=tuple(x for x in s.chancery if x != "city_of_bristol"),
        hands=FrozenDict(hands),
    )
    for e in (
        ev.HeirMoved("henry_vi", "percy"),
        ev.HeirMoved("margaret_of_anjou", None, "york", False),
        ev.NobleTaken("stafford", "red", "york"),
        ev.SiegeBegan("ripon", "green", ("neville",)),
    ):
        s = apply(s, e)
    for cmd in (
        c.Attack("red", "stanley", "clifford", id="c7"),
        c.Ransom("blue", "r1", "stafford", (c.Consideration("blue", ("city_of_bristol",)),)),
    ):
        s, d = play(s, cmd)
        assert not d.refused, d.explanation
    ports = tuple(sorted(p for p in s.board.places if "north_sea" in s.board.places[p].seas))
    s = apply(s, ev.StormBegan("storm-1", ("grace_dieu",), (ports,)))
    assert s.phased and s.phase == "combat" and set(s.requests) == {"r1"}
    assert [x.id for x in s.combats] == ["c7"] and set(s.sieges) == {"ripon"}
    return s


@pytest.fixture(scope="session")
def parliament_eve() -> GameState:
    """``build_parliament_eve()``."""
    return build_parliament_eve()


@pytest.fixture(scope="session")
def parliament_game() -> GameState:
    """``build_parliament_game()``."""
    return build_parliament_game()


def build_parliament_eve() -> GameState:
    """A game with phases in red's Parliament phase, with no Parliament yet. Red: Percy
    inside York escorting Henry VI (crowned, so the sole King), Stanley in the open there
    escorting Richard, Duke of York; York is red's, and so is Hull. Blue: Clifford in the
    open at York, Jesus in port at Bristol. Green: Neville inside Warwick, Howard in the
    open at York. Red holds the Chancellor of England and the noble cards Talbot (two
    castles) and Pole (one); blue holds the Chancellor of the Duchy of Lancaster. The
    Chancery: the Marshal of England, the Earl of Kent and the Treasurer of England."""
    ds = load_dataset()
    s = new_game(ds.board, ds.catalog, FACTIONS, "forum-parl", removed=ds.setup.removed, full_game=True)
    nobles = {
        "percy": _noble(s, "percy", "red", "york", True),
        "stanley": _noble(s, "stanley", "red", "york"),
        "clifford": _noble(s, "clifford", "blue", "york"),
        "neville": _noble(s, "neville", "green", "warwick", True),
        "howard": _noble(s, "howard", "green", "york"),
    }
    hands = {"red": ("chancellor_of_england", "talbot", "pole"), "blue": ("chancellor_of_the_duchy_of_lancaster",)}
    chancery = ("marshal_of_england", "earl_of_kent", "treasurer_of_england")
    held = {x for hand in hands.values() for x in hand} | set(chancery)
    s = s.evolve(
        nobles=FrozenDict(nobles),
        ships=FrozenDict({"jesus": Ship("jesus", "blue", 200, "bristol", in_port=True)}),
        armies=FrozenDict(),
        crown_deck=tuple(x for x in s.crown_deck if x not in held),
        chancery=chancery,
        hands=FrozenDict(hands),
        control=FrozenDict({"york": "red", "hull": "red", "warwick": "green"}),
        phase="parliament",
    )
    for e in (ev.HeirMoved("henry_vi", "percy"), ev.HeirMoved("richard_duke_of_york", "stanley")):
        s = apply(s, e)
    assert s.turn == "red" and s.phase == "parliament" and s.parliament is None
    return s


def build_parliament_game() -> GameState:
    """``build_parliament_eve()`` after red summons Parliament to York (p1); every faction
    attends (red with Percy and Stanley, blue with Clifford, green with Howard); m1, the
    Earl of Kent for Stanley, fails (every voter against); m2, the Earl of Kent for
    Howard, is open, no vote cast yet."""
    s = build_parliament_eve()
    for cmd in (
        c.SummonParliament("red", "p1", "york"),
        c.Attend("red", ("percy", "stanley")),
        c.Attend("blue", ("clifford",)),
        c.Attend("green", ("howard",)),
        c.Propose("red", "m1", "earl_of_kent", "stanley"),
        *(c.Vote(f, "m1", "against", "against") for f in FACTIONS),
        c.Propose("red", "m2", "earl_of_kent", "howard"),
    ):
        s, d = play(s, cmd)
        assert not d.refused, (cmd, d.explanation)
    p = s.parliament
    assert p is not None and [(x.id, x.outcome) for x in p.proposals] == [("m1", "failed"), ("m2", "")]
    return s
