"""What the full game's reports say about the full scenario (``scenario_full``), and to whom."""

from __future__ import annotations

import dataclasses

from markdown_it import MarkdownIt

from kingmaker.render.reports import Format, Reports, messages_for, private_report, render, turn_report
from kingmaker.rules.views import PUBLIC

from .scenario_full import Played, upto


def _all(reports: Reports, viewer: str, fmt: Format = "plain") -> str:
    return "".join(render(turn_report(reports, t, viewer), fmt) for t in reports.timeline.turns())


def test_the_thread_reads_the_event_the_fights_and_the_ransom_once_carried_out(reports_full: Reports) -> None:
    public = _all(reports_full, PUBLIC)
    for shown in (
        "The event card for Red's turn: Plague in London (plague in London). [EVENT.plague]",
        "Henry VI dies of plague.",
        "Red lays siege to Goodrich: Herbert, 130 against its garrison of 100 and the 30 of Talbot inside (130).",
        "Battle at Framlingham: Blue's 120 against Gold's 80 is 3:2; the card (Parley with the Irish Lords, 3:2) "
        "is decisive: Blue wins; Mowbray is captured. [BATTLE.decisive]",
        "Spoils    | Bishop of Lincoln, Burgundian Crossbowmen (from Mowbray) to Blue",
        "Mowbray is ransomed and freed, in the open at Framlingham.",
        "Gold gives Blue Duke of Exeter (the ransom).",
        "Siege of Goodrich: the card (A Bloody Stalemate, majority) takes it: Goodrich falls to Red; Talbot is captured.",
        "Talbot is executed by Red.",
        "Red draws a Crown card.",
        "A storm drives Grace Dieu into port at Rye.",
    ):
        assert shown in public, shown
    # the phases are headings, not entries
    assert "Combat phase:" in public and "phase_began" not in public and "moves on to" not in public


def test_secrets_stay_with_those_who_may_know_them(reports_full: Reports, played_full: Played) -> None:
    state = played_full.service.state(played_full.game)
    public, gm = _all(reports_full, PUBLIC), _all(reports_full, "gm")
    red, green = (
        _all(reports_full, f)
        + render(private_report(reports_full, reports_full.timeline.turns()[-1], f), "plain")
        for f in ("red", "green")
    )
    # a Crown card drawn: to the drawer (and the GM) by name, to everyone else as a card
    assert "Red draws Earl of Salisbury from the Crown deck." in red and "Earl of Salisbury" in gm
    for other in (public, green):
        assert "Earl of Salisbury" not in other
    # the first ransom offer, refused: only Gold and Blue ever read it
    for other in (public, red, green):
        assert "ransom-writ" not in other and "RANSOMS" not in other
    assert "ransom-writ" in gm
    # a port chosen is the ship's faction's until the storm moves the ship
    assert "The port for Grace Dieu is Rye." not in public + red + green
    # the decks' next cards and the Chancery are never printed, not even for the GM
    drawn = str([dataclasses.asdict(state.catalog.events[c]) for c in state.event_discard])
    for card in (*state.event_deck[:5], *state.crown_deck[:5]):
        if card in drawn:  # a card the text of an event drawn names (the Flemish Crossbowmen go home)
            continue
        name = state.catalog.name_of(card)
        assert name not in public and name not in gm, name
    for card in state.chancery:
        assert state.catalog.name_of(card) not in public + red + green


def test_the_battle_table_is_a_markdown_table(reports_full: Reports) -> None:
    turn = next(t for t in reports_full.timeline.turns() if t == (2, "blue"))
    md = render(turn_report(reports_full, turn, PUBLIC), "markdown")
    tokens = MarkdownIt("commonmark").enable(["table"]).parse(md)
    rows = [t for t in tokens if t.type == "tr_open"]
    assert len(rows) == 9  # the header and eight rows


def test_the_messages_ask_only_their_reader(reports_full: Reports, played_full: Played) -> None:
    then = upto(reports_full, played_full.moments["ransom offered"])
    assert [m.subject for m in messages_for(then, "blue")] == [
        "Ransom of Mowbray: your answer",
        "Storm: choose your ports (answered)",  # Blue's own, answered this turn
    ]
    for other in ("red", "green", "gold"):
        assert messages_for(then, other) == []
    storm = upto(reports_full, played_full.moments["storm"])
    assert [m.subject for m in messages_for(storm, "blue")] == ["Storm: choose your ports"]
    assert messages_for(storm, "gold") == []
