"""Golden files for the end of the game in the reports, from the Parliament scenario
(``scenario_parliament``): the turn reports of round 2 (the thread's, and the GM's
copy of red's) with Parliament's sitting (the summons, the attendance and each bloc's
votes, three proposals: one passed, two rejected, each with its tally by house and the
table of votes), its close, the coronation at York and green's last-heir victory; the
private reports of red presiding (the Chancery's contents) and of green asked for its
vote while a vote is open; and each faction's private report at the end (its hand)."""

from __future__ import annotations

import pytest

from kingmaker.render.reports import (
    FORMATS,
    Format,
    Reports,
    private_report,
    render,
    reports_for,
    turn_report,
)
from kingmaker.render.reports.formats import EXTENSIONS
from kingmaker.rules.views import PUBLIC

from .golden import check_golden
from .scenario_full import upto
from .scenario_parliament import FACTIONS, Played, play
from .test_golden import _all


@pytest.fixture(scope="module")
def played() -> Played:
    return play()


@pytest.fixture(scope="module")
def reports(played: Played) -> Reports:
    return reports_for(played.service, played.game)


@pytest.mark.parametrize("fmt", FORMATS)
def test_turn_reports_of_round_2(reports: Reports, fmt: Format) -> None:
    docs = [turn_report(reports, t, PUBLIC) for t in reports.timeline.turns() if t[0] == 2]
    check_golden(f"parliament/turns-public.{EXTENSIONS[fmt]}", _all(docs, fmt))


@pytest.mark.parametrize("fmt", FORMATS)
def test_gm_copy_of_the_sitting(reports: Reports, fmt: Format) -> None:
    text = render(turn_report(reports, (2, "red"), "gm"), fmt)
    check_golden(f"parliament/turn-red-gm.{EXTENSIONS[fmt]}", text)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("faction", ["red", "green"])
def test_private_reports_while_a_vote_is_open(
    reports: Reports, played: Played, faction: str, fmt: Format
) -> None:
    """Red and blue have voted on ``m1``; green and gold have not: red (presiding) sees
    the Chancery and its own vote, green is asked for its vote, no one reads another's."""
    then = upto(reports, played.moments["voting"])
    text = render(private_report(then, then.timeline.turns()[-1], faction), fmt)
    check_golden(f"parliament/private-{faction}-voting.{EXTENSIONS[fmt]}", text)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("faction", FACTIONS)
def test_private_report_at_the_end(reports: Reports, faction: str, fmt: Format) -> None:
    last = reports.timeline.turns()[-1]
    check_golden(
        f"parliament/private-{faction}.{EXTENSIONS[fmt]}", render(private_report(reports, last, faction), fmt)
    )


def test_what_the_reports_say(reports: Reports, played: Played) -> None:
    """The sentences the issue asks for, whatever the format: each decision with its rule
    id once, the tally by house, the winner; votes on an open proposal only to their
    voter."""
    sitting = render(turn_report(reports, (2, "red"), PUBLIC), "plain")
    assert (
        "Parliament passed Marshal of England for Pole (`m1`): Lords 31 for, 1 against; "
        "Commons 39 for, 9 against. Marshal of England goes to Pole." in sitting
    )
    assert "Parliament rejected Treasurer of England for Talbot (`m2`)" in sitting
    assert "Treasurer of England stays in the Chancery (PARL.unawarded)" in sitting
    assert "Parliament rejected the victory motion (`m3`)" in sitting and ", of 51 present" in sitting
    assert sitting.count("[PARL.summon.king]") == 1
    end = render(turn_report(reports, (2, "green"), PUBLIC), "plain")
    assert "Richard, Duke of York is crowned King at York by the Archbishop of Canterbury" in end
    assert "Green wins the game" in end and "[VICTORY.last_heir]" in end
    assert "Position at the end of the game" in end
    then = upto(reports, played.moments["voting"])
    turn = then.timeline.turns()[-1]
    for viewer in ("green", "gold", PUBLIC):
        text = render(turn_report(then, turn, viewer), "plain")
        assert "vote on `m1`" not in text and "for, in both houses" not in text, viewer
    blue = render(private_report(then, turn, "blue"), "plain")
    assert "Blue's vote on `m1` (Marshal of England for Pole): against, in both houses" in blue
    assert "Red's vote" not in blue and "Your vote: against, in both houses." in blue
