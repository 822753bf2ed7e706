"""Every order of the forum grammar reads as the right command (issue "Forum play")."""

from __future__ import annotations

import pytest

from kingmaker.orders_text import format_order, parse_order
from kingmaker.rules import commands as c
from kingmaker.rules.commands import GM
from kingmaker.rules.state import GameState

SAIL_TO_BRISTOL = (
    "southern_north_sea",
    "strait_of_dover",
    "english_channel",
    "western_channel",
    "western_approaches",
    "bristol_channel",
)

# (state fixture, author, text, command)
EXAMPLES: list[tuple[str, str, str, c.Command]] = [
    # -- moves on land
    (
        "forum_game",
        "red",
        "Percy MOVES FROM York TO Tadcaster",
        c.MoveRoad("red", "percy", ("york", "tadcaster")),
    ),
    (
        "forum_game",
        "red",
        "Percy MOVES FROM York TO Leeds VIA Tadcaster",
        c.MoveRoad("red", "percy", ("york", "tadcaster", "leeds")),
    ),
    (
        "forum_game",
        "red",
        "Percy MOVES FROM York TO Leeds VIA Tadcaster, Ferrybridge AND Pontefract",
        c.MoveRoad("red", "percy", ("york", "tadcaster", "ferrybridge", "pontefract", "leeds")),
    ),
    ("forum_game", "red", "Percy MOVES TO Ripon", c.MoveRoad("red", "percy", ("york", "ripon"))),
    ("forum_game", "red", "Percy MOVES TO Masham", c.MoveRoad("red", "percy", ("york", "ripon", "masham"))),
    (
        "forum_game",
        "red",
        "Percy MOVES TO Ripon IN Ripon",
        c.MoveRoad("red", "percy", ("york", "ripon"), True),
    ),
    ("forum_game", "red", "Percy MOVES INTO Ripon", c.MoveRoad("red", "percy", ("york", "ripon"), True)),
    ("forum_game", "red", "Percy MOVES TO York IN York", c.Enter("red", "percy")),
    # not reachable (Pontefract, a neutral castle, blocks): the shortest path on the bare map
    (
        "forum_game",
        "red",
        "Percy MOVES TO Leeds",
        c.MoveRoad("red", "percy", ("york", "tadcaster", "ferrybridge", "pontefract", "wakefield", "leeds")),
    ),
    # FROM elsewhere: the path starts there, and the rules say where he is
    (
        "forum_game",
        "red",
        "Percy MOVES FROM Ripon TO Masham",
        c.MoveRoad("red", "percy", ("ripon", "masham")),
    ),
    # a cross-country neighbour off the roads
    ("forum_game", "red", "Percy MOVES TO Sheriff Hutton", c.Move("red", "percy", "sheriff_hutton")),
    (
        "forum_game",
        "red",
        "Percy MOVES CROSS-COUNTRY TO Sheriff Hutton IN Sheriff Hutton",
        c.Move("red", "percy", "sheriff_hutton", True),
    ),
    (
        "forum_game",
        "red",
        "Percy MOVES FROM York TO Ripon AS q9",
        c.MoveRoad("red", "percy", ("york", "ripon"), id="q9"),
    ),
    ("forum_game", "red", "Percy ENTERS York", c.Enter("red", "percy")),
    ("forum_game", "red", "Percy LEAVES York", c.Leave("red", "percy")),
    ("forum_game", "red", "Percy ENTERS", c.Enter("red", "percy")),
    # -- ships
    (
        "forum_game",
        "red",
        "Grace Dieu MOVES TO Bristol",
        c.Sail("red", "grace_dieu", "bristol", SAIL_TO_BRISTOL),
    ),
    (
        "forum_game",
        "red",
        "Grace Dieu SAILS TO Bristol",
        c.Sail("red", "grace_dieu", "bristol", SAIL_TO_BRISTOL),
    ),
    (
        "forum_game",
        "red",
        "Grace Dieu MOVES TO Bristol IN Bristol Channel",
        c.Sail("red", "grace_dieu", "bristol", SAIL_TO_BRISTOL),
    ),
    ("forum_game", "red", "Grace Dieu SAILS TO Hull", c.Sail("red", "grace_dieu", "hull")),
    ("forum_game", "red", "Grace Dieu SAILS TO the Wash", c.Sail("red", "grace_dieu", "the_wash")),
    ("at_hull", "red", "Grace Dieu SAILS TO North Sea", c.Sail("red", "grace_dieu", "north_sea")),
    ("at_hull", "red", "Grace Dieu MOVES FROM Hull TO North Sea", c.Sail("red", "grace_dieu", "north_sea")),
    (
        "at_hull",
        "red",
        "Grace Dieu SAILS TO Scarborough",
        c.Sail("red", "grace_dieu", "scarborough", ("north_sea",)),
    ),
    ("at_hull", "red", "Grace Dieu SAILS DIRECT TO Scarborough", c.Sail("red", "grace_dieu", "scarborough")),
    ("at_hull", "red", "Percy EMBARKS ON Grace Dieu", c.Embark("red", "grace_dieu", ("percy",))),
    (
        "at_hull",
        "red",
        "Percy and Stanley EMBARK ON Grace Dieu",
        c.Embark("red", "grace_dieu", ("percy", "stanley")),
    ),
    ("aboard", "red", "Percy LANDS AT Hull", c.Disembark("red", "grace_dieu", ("percy",), "hull")),
    ("aboard", "red", "Percy DISEMBARKS AT Hull", c.Disembark("red", "grace_dieu", ("percy",), "hull")),
    (
        "aboard",
        "red",
        "Percy and Stanley DISEMBARK AT Hull INSIDE",
        c.Disembark("red", "grace_dieu", ("percy", "stanley"), "hull", True),
    ),
    (
        "aboard",
        "red",
        "Percy LANDS FROM Grace Dieu AT Hull",
        c.Disembark("red", "grace_dieu", ("percy",), "hull"),
    ),
    ("aboard", "red", "Percy SAILS TO Hull", c.Sail("red", "grace_dieu", "hull")),
    # -- armies and fleets
    (
        "forum_game",
        "red",
        "Percy and Stanley FORM ARMY IN York",
        c.FormArmy("red", "army-1", ("percy", "stanley")),
    ),
    (
        "forum_game",
        "red",
        "Percy and Stanley FORM ARMY a1 IN York",
        c.FormArmy("red", "a1", ("percy", "stanley")),
    ),
    (
        "forum_game",
        "red",
        "Percy, Stanley & Clifford FORM AN ARMY",
        c.FormArmy("red", "army-1", ("percy", "stanley", "clifford")),
    ),
    (
        "forum_game",
        "red",
        "Grace Dieu and Mary FORM FLEET IN North Sea",
        c.FormArmy("red", "fleet-1", ("grace_dieu", "mary_of_the_tower"), True),
    ),
    # -- combat
    ("forum_game", "red", "Percy BESIEGES Alnwick", c.Siege("red", "percy", "alnwick")),
    ("forum_game", "red", "Percy BATTLES Blue IN York", c.Attack("red", "percy", "clifford")),
    ("forum_game", "red", "Percy BATTLES Blue", c.Attack("red", "percy", "clifford")),
    ("forum_game", "red", "Percy ATTACKS Clifford", c.Attack("red", "percy", "clifford")),
    ("forum_game", "red", "Percy ATTACKS Clifford AS q3", c.Attack("red", "percy", "clifford", "q3")),
    ("forum_game", "red", "Percy DEFENDS WITH Stanley", c.Defend("red", "percy", "stanley")),
    # -- alliances
    ("forum_game", "red", "Red ALLIES WITH Green", c.DeclareAlliance("red", "alliance-1", ("green",))),
    (
        "forum_game",
        "red",
        "Red ALLIES WITH Green AND Blue",
        c.DeclareAlliance("red", "alliance-1", ("green", "blue")),
    ),
    ("forum_game", "red", "Red ALLIES WITH Green AS pact", c.DeclareAlliance("red", "pact", ("green",))),
    ("forum_game", "red", "ALLY WITH Green", c.DeclareAlliance("red", "alliance-1", ("green",))),
    (
        "busy_game",
        "red",
        "Red DECLARES ALLIANCE WITH Blue",
        c.DeclareAlliance("red", "alliance-3", ("blue",)),
    ),
    (
        "busy_game",
        "green",
        "Green ACCEPTS ALLIANCE alliance-2",
        c.AnswerAlliance("green", "alliance-2", True),
    ),
    (
        "busy_game",
        "green",
        "Green DECLINES ALLIANCE alliance-2",
        c.AnswerAlliance("green", "alliance-2", False),
    ),
    (
        "busy_game",
        "green",
        "Green CONFIRMS ALLIANCE WITH Blue",
        c.AnswerAlliance("green", "alliance-2", True),
    ),
    (
        "busy_game",
        "green",
        "Green DECLINES ALLIANCE WITH Blue",
        c.AnswerAlliance("green", "alliance-2", False),
    ),
    ("busy_game", "green", "Green CONFIRMS alliance-2", c.AnswerAlliance("green", "alliance-2", True)),
    ("busy_game", "red", "Red LEAVES ALLIANCE alliance-1", c.LeaveAlliance("red", "alliance-1")),
    ("busy_game", "red", "Red LEAVES ALLIANCE WITH Green", c.LeaveAlliance("red", "alliance-1")),
    # -- permissions
    (
        "forum_game",
        "blue",
        "Blue GRANTS Red PASSAGE THROUGH Coventry",
        c.Grant("blue", "red", "coventry", ("road",)),
    ),
    (
        "forum_game",
        "blue",
        "Blue GRANTS Red ENTRY TO Coventry",
        c.Grant("blue", "red", "coventry", ("enter",)),
    ),
    (
        "forum_game",
        "blue",
        "Blue GRANTS Red HARBOUR AT Bristol",
        c.Grant("blue", "red", "bristol", ("ship_enter",)),
    ),
    (
        "forum_game",
        "blue",
        "Blue GRANTS Red EMBARKATION AT Bristol",
        c.Grant("blue", "red", "bristol", ("embark",)),
    ),
    (
        "forum_game",
        "blue",
        "Blue GRANTS Red DEPARTURE FROM Bristol",
        c.Grant("blue", "red", "bristol", ("forced_leave",)),
    ),
    (
        "forum_game",
        "blue",
        "Blue GRANTS Red PASSAGE THROUGH Coventry AND ENTRY TO Coventry",
        c.Grant("blue", "red", "coventry", ("road", "enter")),
    ),
    (
        "forum_game",
        "blue",
        "Blue GRANTS Red HARBOUR, EMBARKATION AND DEPARTURE AT Bristol",
        c.Grant("blue", "red", "bristol", ("ship_enter", "embark", "forced_leave")),
    ),
    (
        "forum_game",
        "blue",
        "Blue REVOKES Red PASSAGE THROUGH Coventry",
        c.Revoke("blue", "red", "coventry", ("road",)),
    ),
    ("forum_game", "blue", "Blue REVOKES ALL FROM Red AT Coventry", c.Revoke("blue", "red", "coventry")),
    # -- answers to requests
    ("busy_game", "green", "Green CONFIRMS q6", c.Confirm("green", "q6")),
    ("busy_game", "green", "Green REJECTS q6", c.Reject("green", "q6")),
    ("busy_game", "green", "CONFIRM Q6", c.Confirm("green", "q6")),
    # -- the GM
    ("forum_game", GM, "GM: STORM Grace Dieu INTO Bristol", c.Storm(GM, "grace_dieu", "bristol")),
    ("forum_game", GM, "STORM Grace Dieu INTO Bristol", c.Storm(GM, "grace_dieu", "bristol")),
    ("forum_game", GM, "SET Coventry TO Red", c.SetControl(GM, "coventry", "red")),
    ("forum_game", GM, "SET Coventry NEUTRAL", c.SetControl(GM, "coventry", None)),
    ("forum_game", GM, "SET Coventry TO nobody", c.SetControl(GM, "coventry", None)),
    ("forum_game", GM, "KILL Percy", c.Kill(GM, "percy")),
    ("forum_game", GM, "CAPTURE Percy BY Blue", c.Capture(GM, "percy", "blue")),
    ("forum_game", GM, "RELEASE Percy AT York", c.Release(GM, "percy", "york")),
    ("forum_game", GM, "RELEASE Percy AT York INSIDE", c.Release(GM, "percy", "york", True)),
    ("forum_game", GM, "Henry VI GOES WITH Percy", c.MoveHeir(GM, "henry_vi", with_noble="percy")),
    ("forum_game", GM, "Henry VI IS LEFT AT York", c.MoveHeir(GM, "henry_vi", place="york")),
    (
        "forum_game",
        GM,
        "Henry VI IS LEFT AT York INSIDE",
        c.MoveHeir(GM, "henry_vi", place="york", inside=True),
    ),
    (
        "forum_game",
        GM,
        "Edward, Prince of Wales GOES WITH Percy",
        c.MoveHeir(GM, "edward_prince_of_wales", with_noble="percy"),
    ),
    ("busy_game", GM, "RESOLVE c7", c.ResolveCombat(GM, "c7")),
    (
        "busy_game",
        GM,
        "RESOLVE c7: Clifford fled to Ripon",
        c.ResolveCombat(GM, "c7", "Clifford fled to Ripon"),
    ),
    ("busy_game", GM, "EXPIRE q6", c.Expire(GM, "q6")),
    ("busy_game", GM, "DEADLINE alliance-2", c.Deadline(GM, "alliance-2")),
    ("forum_game", GM, "END TURN", c.EndTurn(GM)),
    ("forum_game", GM, "REVEAL SEED", c.RevealSeed(GM)),
    ("forum_game", GM, "RANDOM 4, 17", c.InjectRandom(GM, (4, 17))),
    # -- the full game: battles and sieges (a faction's nobles in no army on one side of the
    #    walls are one force: Clifford and Scrope)
    ("full_game", "red", "Percy BATTLES Blue IN York", c.Attack("red", "percy", "clifford")),
    ("full_game", "red", "Percy BATTLE Blue", c.Attack("red", "percy", "clifford")),
    (
        "full_game",
        "blue",
        "Mowbray ATTACKS Neville WITH SALLY FROM Ripon: Talbot",
        c.Attack("blue", "mowbray", "neville", sally=("talbot",)),
    ),
    (
        "full_game",
        "blue",
        "Mowbray ATTACKS Neville WITH SALLY: Talbot AS b2",
        c.Attack("blue", "mowbray", "neville", "b2", ("talbot",)),
    ),
    (
        "full_game",
        "blue",
        "Mowbray BATTLES Green AT Ripon WITH SALLY Talbot",
        c.Attack("blue", "mowbray", "neville", sally=("talbot",)),
    ),
    ("full_game", "green", "Neville BESIEGES Ripon", c.Siege("green", "neville", "ripon")),
    ("full_game", "green", "Neville BESIEGE Ripon AS s2", c.Siege("green", "neville", "ripon", "s2")),
    # -- heirs, captives and ransoms
    ("full_game", "red", "Percy CAPTURES Margaret of Anjou", c.CaptureHeir("red", "percy", "margaret_of_anjou")),
    ("full_game", "red", "Stanley CAPTURE Margaret", c.CaptureHeir("red", "stanley", "margaret_of_anjou")),
    (
        "full_game",
        "blue",
        "Blue RANSOMS Stafford FOR City of Bristol AS r2",
        c.Ransom("blue", "r2", "stafford", (c.Consideration("blue", ("city_of_bristol",)),)),
    ),
    (
        "full_game",
        "blue",
        "RANSOM Stafford FOR Bristol AND Henry VI AS r2",
        c.Ransom("blue", "r2", "stafford", (c.Consideration("blue", ("city_of_bristol",), ("henry_vi",)),)),
    ),
    ("full_game", "red", "Red RANSOMS Stafford FREE AS r2", c.Ransom("red", "r2", "stafford")),
    ("full_game", "red", "Red RANSOMS Stafford FOR NOTHING AS r2", c.Ransom("red", "r2", "stafford")),
    (
        "full_game",
        "red",
        "Red RANSOMS Stafford: Blue GIVES Bristol; Red GIVES Forced March AS r2",
        c.Ransom(
            "red",
            "r2",
            "stafford",
            (c.Consideration("blue", ("city_of_bristol",)), c.Consideration("red", ("forced_march",))),
        ),
    ),
    (
        "full_game",
        "red",
        "Red RANSOMS Stafford: Blue GIVES Bristol; Red GIVES NOTHING AS r2 PROMISE: our votes in Parliament",
        c.Ransom(
            "red",
            "r2",
            "stafford",
            (c.Consideration("blue", ("city_of_bristol",)), c.Consideration("red")),
            "our votes in Parliament",
        ),
    ),
    ("full_game", "red", "Red CONFIRMS r1", c.Confirm("red", "r1")),
    ("full_game", "red", "Red REJECTS r1", c.Reject("red", "r1")),
    ("full_game", "red", "Red CONFIRMS RANSOM OF Stafford", c.Confirm("red", "r1")),
    ("full_game", "red", "ACCEPT RANSOM FOR Stafford", c.Confirm("red", "r1")),
    ("full_game", "red", "Red DECLINES RANSOM OF Stafford", c.Reject("red", "r1")),
    ("full_game", "red", "Red RELEASES Stafford", c.ReleaseCaptive("red", "stafford")),
    ("full_game", "red", "FREE Stafford", c.ReleaseCaptive("red", "stafford")),
    ("full_game", "red", "Red EXECUTES Stafford", c.Execute("red", captive="stafford")),
    ("full_game", "red", "Red EXECUTES Henry VI", c.Execute("red", heir="henry_vi")),
    # -- events: storms and held cards
    ("full_game", "red", "Grace Dieu TO Hull", c.ChoosePort("red", "grace_dieu", "hull")),
    ("full_game", "red", "Red: Grace Dieu TO Scarborough", c.ChoosePort("red", "grace_dieu", "scarborough")),
    ("full_game", "red", "Red PLAYS Forced March FOR Percy", c.PlayCard("red", "forced_march", "percy")),
    ("full_game", "red", "PLAY Forced March FOR Stanley", c.PlayCard("red", "forced_march", "stanley")),
    # -- the GM in the full game
    ("full_game", GM, "DRAW EVENT", c.DrawEvent(GM)),
    ("full_game", GM, "DRAW EVENT AS s9", c.DrawEvent(GM, "s9")),
    ("full_game", GM, "RESOLVE c7", c.Battle(GM, "c7")),
    ("full_game", GM, "RESOLVE c7 BY DRAW", c.Battle(GM, "c7")),
    ("full_game", GM, "RESOLVE c7: Clifford fled to Ripon", c.ResolveCombat(GM, "c7", "Clifford fled to Ripon")),
    ("full_game", GM, "RESOLVE c7:", c.ResolveCombat(GM, "c7")),
    ("full_game", GM, "RESOLVE Ripon", c.SiegeAssault(GM, "ripon")),
    ("full_game", GM, "ASSAULT Ripon", c.SiegeAssault(GM, "ripon")),
    ("full_game", GM, "END PHASE", c.EndPhase(GM)),
    ("full_game", GM, "Red: Red RANSOMS Stafford FREE AS r2", c.Ransom("red", "r2", "stafford")),
    ("busy_game", GM, "RESOLVE c7 BY DRAW", c.Battle(GM, "c7")),
    # -- case, labels, bullets
    (
        "forum_game",
        "red",
        "percy moves from york to tadcaster",
        c.MoveRoad("red", "percy", ("york", "tadcaster")),
    ),
    ("forum_game", "red", "PERCY MOVES TO TADC.", c.MoveRoad("red", "percy", ("york", "tadcaster"))),
    ("forum_game", "red", "3) Red: Percy MOVES TO Ripon", c.MoveRoad("red", "percy", ("york", "ripon"))),
    ("forum_game", GM, "Blue: Clifford MOVES TO Ripon", c.MoveRoad("blue", "clifford", ("york", "ripon"))),
    ("forum_game", GM, "Red ALLIES WITH Green", c.DeclareAlliance("red", "alliance-1", ("green",))),
    ("forum_game", "red", '"Grace Dieu" SAILS TO "North Sea"', c.Sail("red", "grace_dieu", "north_sea")),
]


@pytest.mark.parametrize(("fixture", "author", "text", "expected"), EXAMPLES, ids=[e[2] for e in EXAMPLES])
def test_example_reads_as_the_command(
    fixture: str, author: str, text: str, expected: c.Command, request: pytest.FixtureRequest
) -> None:
    state: GameState = request.getfixturevalue(fixture)
    order = parse_order(state, text, author)
    assert order.refusal is None, order.refusal
    assert order.command == expected


# (state fixture, command, its canonical text): format_order writes it, and it reads back
CANONICAL: list[tuple[str, c.Command, str]] = [
    ("full_game", c.Attack("red", "percy", "clifford"), "Percy ATTACKS Clifford"),
    (
        "full_game",
        c.Attack("blue", "mowbray", "neville", "b2", ("talbot",)),
        "Mowbray ATTACKS Neville WITH SALLY FROM Ripon: Talbot AS b2",
    ),
    ("full_game", c.Siege("green", "neville", "ripon"), "Neville BESIEGES Ripon"),
    ("full_game", c.CaptureHeir("red", "percy", "margaret_of_anjou"), "Percy CAPTURES Margaret of Anjou"),
    (
        "full_game",
        c.Ransom("blue", "r2", "stafford", (c.Consideration("blue", ("city_of_bristol",), ("henry_vi",)),)),
        "Blue RANSOMS Stafford FOR City of Bristol AND Henry VI AS r2",
    ),
    ("full_game", c.Ransom("red", "r2", "stafford"), "Red RANSOMS Stafford FREE AS r2"),
    (
        "full_game",
        c.Ransom(
            "red",
            "r2",
            "stafford",
            (c.Consideration("blue", ("city_of_bristol",)), c.Consideration("red")),
            "our votes in Parliament",
        ),
        "Red RANSOMS Stafford: Blue GIVES City of Bristol; Red GIVES NOTHING AS r2 PROMISE: our votes in Parliament",
    ),
    ("full_game", c.Confirm("red", "r1"), "Red CONFIRMS r1"),
    ("full_game", c.Reject("red", "r1"), "Red REJECTS r1"),
    ("full_game", c.ReleaseCaptive("red", "stafford"), "Red RELEASES Stafford"),
    ("full_game", c.Execute("red", captive="stafford"), "Red EXECUTES Stafford"),
    ("full_game", c.Execute("red", heir="henry_vi"), "Red EXECUTES Henry VI"),
    ("full_game", c.ChoosePort("red", "grace_dieu", "hull"), "Grace Dieu TO Kingston upon Hull"),
    ("full_game", c.PlayCard("red", "forced_march", "percy"), "Red PLAYS Forced March FOR Percy"),
    ("full_game", c.DrawEvent(GM), "DRAW EVENT"),
    ("full_game", c.DrawEvent(GM, "s9"), "DRAW EVENT AS s9"),
    ("full_game", c.Battle(GM, "c7"), "RESOLVE c7"),
    ("full_game", c.ResolveCombat(GM, "c7", "Clifford fled"), "RESOLVE c7: Clifford fled"),
    ("full_game", c.ResolveCombat(GM, "c7"), "RESOLVE c7:"),
    ("full_game", c.SiegeAssault(GM, "ripon"), "ASSAULT Ripon"),
    ("full_game", c.EndPhase(GM), "END PHASE"),
    # without phases a bare RESOLVE is the GM's ruling by hand; the engine's draw is BY DRAW
    ("busy_game", c.ResolveCombat(GM, "c7"), "RESOLVE c7"),
    ("busy_game", c.Battle(GM, "c7"), "RESOLVE c7 BY DRAW"),
]


@pytest.mark.parametrize(("fixture", "command", "text"), CANONICAL, ids=[e[2] for e in CANONICAL])
def test_canonical_text_of_the_full_game(
    fixture: str, command: c.Command, text: str, request: pytest.FixtureRequest
) -> None:
    state: GameState = request.getfixturevalue(fixture)
    assert format_order(command, state) == text
    order = parse_order(state, text, command.by)
    assert order.refusal is None, order.refusal
    assert order.command == command
