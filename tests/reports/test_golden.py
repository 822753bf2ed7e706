"""Golden files for every report kind in every format, from the scenario game: the
turn reports (the thread's and the GM's), each faction's private report, and the
private messages."""

from __future__ import annotations

import pytest

from kingmaker.render.reports import (
    FORMATS,
    Document,
    Format,
    Message,
    Reports,
    alliance_request,
    allied_order_request,
    army_consent_request,
    permission_request,
    private_report,
    render,
    turn_report,
)
from kingmaker.render.reports.formats import EXTENSIONS
from kingmaker.rules.views import PUBLIC

from .golden import check_golden
from .scenario import FACTIONS, Played, upto

SEPARATOR = "\n" + "~" * 60 + "\n\n"  # between the documents of one golden file (not part of any)


def _all(docs: list[Document], fmt: Format) -> str:
    return SEPARATOR.join(render(d, fmt) for d in docs)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("viewer", [PUBLIC, "gm"])
def test_turn_reports(reports: Reports, viewer: str, fmt: Format) -> None:
    docs = [turn_report(reports, t, viewer) for t in reports.timeline.turns()]
    check_golden(f"turns-{viewer}.{EXTENSIONS[fmt]}", _all(docs, fmt))


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("faction", FACTIONS)
def test_private_report_at_the_end(reports: Reports, faction: str, fmt: Format) -> None:
    last = reports.timeline.turns()[-1]
    check_golden(f"private-{faction}.{EXTENSIONS[fmt]}", render(private_report(reports, last, faction), fmt))


@pytest.mark.parametrize("fmt", FORMATS)
def test_private_report_while_an_allied_order_waits(reports: Reports, played: Played, fmt: Format) -> None:
    then = upto(reports, played.moments["allied order"])
    turn = then.timeline.turns()[-1]
    check_golden(f"private-gold-awaiting.{EXTENSIONS[fmt]}", render(private_report(then, turn, "gold"), fmt))


def scenario_messages(reports: Reports, played: Played) -> list[Message]:
    at = {k: upto(reports, v) for k, v in played.moments.items()}
    due = "2026-12-01T12:00:00Z"
    n = reports.names
    return [
        alliance_request(at["declared"].timeline.now, "red-gold", "gold", n, due=due),
        alliance_request(at["end"].timeline.now, "secret-bgo", "gold", n, due="2026-12-02T13:00:00Z"),
        allied_order_request(at["allied order"].timeline.now, "q12", "gold", n, due="2026-12-02T13:00:00Z"),
        army_consent_request(
            at["army asked"].timeline.now, "army-east", "gold", n, due="2026-12-02T13:00:00Z"
        ),
        permission_request(
            "blue",
            "gold",
            "chepstow",
            ("ship_enter", "embark"),
            "Our ship needs a harbour for the winter. We [b]promise[/b] to leave by spring.",
            n,
            state=at["end"].timeline.now,
            due="2026-12-03T12:00:00Z",
        ),
    ]


@pytest.mark.parametrize("fmt", FORMATS)
def test_private_messages(reports: Reports, played: Played, fmt: Format) -> None:
    parts = [
        f"To: {m.to}\nSubject: {m.subject}\n\n{render(m.body, fmt)}"
        for m in scenario_messages(reports, played)
    ]
    check_golden(f"messages.{EXTENSIONS[fmt]}", SEPARATOR.join(parts))
