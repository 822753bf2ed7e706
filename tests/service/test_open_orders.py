"""Orders as given are published once their turn ends: open orders (a faction's own
units moving or fighting) become public; allied orders and diplomacy never do."""

from __future__ import annotations

from kingmaker.log.service_events import OrderSubmitted
from kingmaker.rules import commands as rc
from kingmaker.service import GM_ACTOR, player
from kingmaker.service.commands import FinishTurn, Submit
from tests.service.test_service import _own_move, _service


def test_open_orders_are_published_when_their_turn_ends_and_diplomacy_never() -> None:
    svc, _, game = _service()
    move = _own_move(svc, game)
    svc.execute(player("red"), Submit(game, move))
    svc.execute(player("red"), Submit(game, rc.DeclareAlliance("red", "secret-rg", ("green",))))

    def blue_sees() -> list[OrderSubmitted]:
        return [e.event for e in svc.log_for(game, player("blue")) if isinstance(e.event, OrderSubmitted)]

    assert blue_sees() == []  # not while red's turn lasts
    svc.execute(GM_ACTOR, FinishTurn(game, "red"))
    seen = blue_sees()
    assert [o.command for o in seen] == [move] and seen[0].open
    assert not any("secret-rg" in repr(e.event) for e in svc.log_for(game, player("blue")))


def test_a_request_for_permission_reaches_the_controlling_faction_as_a_message() -> None:
    from kingmaker.render.reports import messages_for, render, reports_for
    from kingmaker.service.commands import AskPermission

    svc, _, game = _service()
    state = svc.state(game)
    place, owner = sorted(state.control.items())[0]
    asker = next(f for f in ("red", "blue", "green", "gold") if f != owner)
    svc.execute(player(asker), AskPermission(game, asker, owner, place, ("road",), "we come in peace"))
    ctx = reports_for(svc, game)
    msgs = messages_for(ctx, owner)
    assert len(msgs) == 1 and "we come in peace" in render(msgs[0].body, "plain")
    assert "GRANTS" in render(msgs[0].body, "plain")
    others = [f for f in ("red", "blue", "green", "gold") if f not in (owner, asker)]
    assert all(messages_for(ctx, f) == [] for f in others)
    svc.execute(player(owner), Submit(game, rc.Grant(owner, asker, place, ("road",))))
    (answered,) = messages_for(reports_for(svc, game), owner)  # kept, marked answered
    assert answered.subject.endswith("(answered)") and "You granted passage" in render(answered.body, "plain")
    assert messages_for(reports_for(svc, game), owner, answered=False) == []
