"""Golden files for the full game's reports, from the full scenario (``scenario_full``):
the turn reports (the thread's and the GM's) with the events drawn, the siege laid and
taken, the battle with its paragraph and table, the storm, the ransoms and the
execution; each faction's private report at the end, Blue's while the storm waits for
its port and Gold's while a ransom waits for its answer; and the private messages."""

from __future__ import annotations

import pytest

from kingmaker.render.reports import (
    FORMATS,
    Format,
    Reports,
    messages_for,
    private_report,
    render,
    turn_report,
)
from kingmaker.render.reports.formats import EXTENSIONS
from kingmaker.rules.views import PUBLIC

from .golden import check_golden
from .scenario_full import FACTIONS, Played, upto
from .test_golden import SEPARATOR, _all


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("viewer", [PUBLIC, "gm"])
def test_turn_reports(reports_full: Reports, viewer: str, fmt: Format) -> None:
    docs = [turn_report(reports_full, t, viewer) for t in reports_full.timeline.turns()]
    check_golden(f"full/turns-{viewer}.{EXTENSIONS[fmt]}", _all(docs, fmt))


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("faction", FACTIONS)
def test_private_report_at_the_end(reports_full: Reports, faction: str, fmt: Format) -> None:
    last = reports_full.timeline.turns()[-1]
    text = render(private_report(reports_full, last, faction), fmt)
    check_golden(f"full/private-{faction}.{EXTENSIONS[fmt]}", text)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(("moment", "faction"), [("storm", "blue"), ("ransom asked", "gold")])
def test_private_report_while_an_answer_waits(
    reports_full: Reports, played_full: Played, moment: str, faction: str, fmt: Format
) -> None:
    then = upto(reports_full, played_full.moments[moment])
    turn = then.timeline.turns()[-1]
    text = render(private_report(then, turn, faction), fmt)
    check_golden(f"full/private-{faction}-{moment.replace(' ', '-')}.{EXTENSIONS[fmt]}", text)


@pytest.mark.parametrize("fmt", FORMATS)
def test_private_messages(reports_full: Reports, played_full: Played, fmt: Format) -> None:
    """The messages that ask for an answer: Blue's port in the storm, Blue's answer to
    Gold's first offer (and the storm's, answered already), Gold's to Blue's terms."""
    parts = []
    for moment, faction in (("storm", "blue"), ("ransom offered", "blue"), ("ransom asked", "gold")):
        then = upto(reports_full, played_full.moments[moment])
        for m in messages_for(then, faction):
            parts.append(f"To: {m.to}\nSubject: {m.subject}\n\n{render(m.body, fmt)}")
    assert len(parts) == 4 and sum("(answered)" in p for p in parts) == 1
    check_golden(f"full/messages.{EXTENSIONS[fmt]}", "\n" + SEPARATOR.join(parts))
