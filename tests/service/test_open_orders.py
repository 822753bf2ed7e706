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
