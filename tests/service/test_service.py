"""The GM service over the in-memory store: identity, orders, the log, deadlines,
undo, idempotency, snapshots and replay (issue 5 §1, §3)."""

from __future__ import annotations

import pytest

from kingmaker.log.service_events import DeadlinePassed, OrdersMissed, OrderSubmitted, Undone
from kingmaker.log.visibility import visible_log
from kingmaker.rules import commands as rc
from kingmaker.rules import events as ev
from kingmaker.rules.hashing import state_hash
from kingmaker.service import GM_ACTOR, BadRequest, FixedClock, NotFound, PermissionDenied, player
from kingmaker.service.commands import (
    AskPermission,
    CreateGame,
    ExtendDeadline,
    FinishTurn,
    SeatPlayer,
    Submit,
    Tick,
    Undo,
)
from kingmaker.service.game_service import GameService
from kingmaker.service.settings import GameSettings
from kingmaker.simulation import RandomPlayer
from kingmaker.storage.memory import MemoryStore

FACTIONS = ("red", "blue", "green", "gold")


def _service(**settings: object) -> tuple[GameService, FixedClock, str]:
    """A game the GM adjudicates by hand (these tests are about the service's own work)."""
    settings.setdefault("full_game", False)
    clock = FixedClock()
    svc = GameService(MemoryStore(), clock)
    out = svc.execute(
        GM_ACTOR,
        CreateGame("Test", FACTIONS, seed="s", game_id="t1", settings=GameSettings(**settings)),  # type: ignore[arg-type]
    )
    return svc, clock, out.game


def _own_move(svc: GameService, game: str) -> rc.Command:
    from kingmaker.rules.queries import legal_destinations

    state = svc.state(game)
    for n in sorted(state.nobles.values(), key=lambda n: n.id):
        if n.faction == state.turn and n.place:
            for d in legal_destinations(state, n.id).places:
                if d.by_road and len(d.path) >= 2:
                    return rc.MoveRoad(state.turn, n.id, d.path)
    raise AssertionError("no move")


def test_create_publishes_the_commitment_and_keeps_the_seed() -> None:
    svc, _, game = _service()
    rec = svc.store.game(game)
    log = svc.log(game)
    assert log[1].event == ev.SeedCommitted(rec.commitment)
    assert rec.seed == "s" and svc.state(game).turn == "red"
    with pytest.raises(NotFound):
        svc.state("nope")


def test_seats_tokens_and_who_may_act_for_whom() -> None:
    svc, _, game = _service()
    token = svc.execute(GM_ACTOR, SeatPlayer(game, "red", "Alice")).token
    assert token and svc.identify(game, token) == player("red")
    with pytest.raises(PermissionDenied):
        svc.identify(game, "forged")
    with pytest.raises(PermissionDenied):
        svc.execute(player("red"), SeatPlayer(game, "blue", "Mallory"))
    move = _own_move(svc, game)
    with pytest.raises(PermissionDenied):
        svc.execute(player("blue"), Submit(game, move))
    with pytest.raises(PermissionDenied):
        svc.execute(player("red"), Submit(game, rc.EndTurn(rc.GM)))
    assert svc.execute(player("red"), Submit(game, move)).result == "accepted"
    # the GM may enter a faction's orders (as forum GMs do from private messages)
    assert (
        svc.execute(GM_ACTOR, Submit(game, rc.DeclareAlliance("blue", "bg", ("green",)))).result == "pending"
    )


def test_every_submission_is_logged_with_its_rule_and_refusals_change_nothing() -> None:
    svc, _, game = _service()
    before = state_hash(svc.state(game))
    out = svc.execute(GM_ACTOR, Submit(game, rc.MoveRoad("red", "nobody", ("london", "dover"))))
    assert out.result == "refused" and out.rule == "ORDER.invalid"
    assert state_hash(svc.state(game)) == before
    last = svc.log(game)[-1]
    assert isinstance(last.event, OrderSubmitted) and last.rule == "ORDER.invalid" and last.actor == "gm"
    move = _own_move(svc, game)
    out = svc.execute(player("red"), Submit(game, move))
    entries = [e for e in svc.log(game) if e.seq >= (out.first_seq or 0)]
    assert [type(e.event).__name__ for e in entries][:2] == ["OrderSubmitted", "NobleMoved"]
    assert all(e.actor == "red" and e.round == 1 and e.turn == "red" for e in entries)


def test_an_idempotency_key_applies_once() -> None:
    svc, _, game = _service()
    move = _own_move(svc, game)
    first = svc.execute(player("red"), Submit(game, move), idempotency_key="k-1")
    again = svc.execute(player("red"), Submit(game, move), idempotency_key="k-1")
    assert again.replayed and (again.first_seq, again.last_seq) == (first.first_seq, first.last_seq)
    assert sum(isinstance(e.event, OrderSubmitted) for e in svc.log(game)) == 1


def test_turn_deadline_hold_policy_ends_the_turn_and_records_the_missed_orders() -> None:
    svc, clock, game = _service(turn_hours=24)
    clock.advance(hours=25)
    svc.execute(GM_ACTOR, Tick(game))
    log = svc.log(game)
    assert any(isinstance(e.event, OrdersMissed) and e.event.faction == "red" for e in log)
    assert svc.state(game).turn == "blue"
    # blue orders in time: at its deadline its turn simply ends
    svc.execute(GM_ACTOR, Submit(game, rc.DeclareAlliance("blue", "bg", ("green",))))
    clock.advance(hours=25)
    svc.execute(GM_ACTOR, Tick(game))
    assert svc.state(game).turn == "green"
    assert not any(isinstance(e.event, OrdersMissed) and e.event.faction == "blue" for e in svc.log(game))


def test_extend_policy_extends_once_then_ends_the_turn() -> None:
    svc, clock, game = _service(turn_hours=10, policy="extend")
    clock.advance(hours=11)
    svc.execute(GM_ACTOR, Tick(game))
    assert svc.state(game).turn == "red"
    assert any(isinstance(e.event, DeadlinePassed) and "extended" in e.event.outcome for e in svc.log(game))
    clock.advance(hours=10)
    svc.execute(GM_ACTOR, Tick(game))
    assert svc.state(game).turn == "blue"


def test_declaration_and_request_deadlines_are_recorded_when_they_pass() -> None:
    svc, clock, game = _service(turn_hours=None, request_hours=12)
    svc.execute(GM_ACTOR, Submit(game, rc.DeclareAlliance("red", "rb", ("blue",))))
    clock.advance(hours=13)
    svc.execute(GM_ACTOR, Tick(game))
    log = svc.log(game)
    assert any(e.rule == "ALLY.3" and isinstance(e.event, ev.DeclarationEnded) for e in log)
    assert svc.state(game).declarations == {}


def test_the_gm_extends_a_deadline_and_unknown_targets_are_refused() -> None:
    svc, clock, game = _service(turn_hours=10)
    svc.execute(GM_ACTOR, ExtendDeadline(game, "red", 48))
    clock.advance(hours=20)
    svc.execute(GM_ACTOR, Tick(game))
    assert svc.state(game).turn == "red"
    with pytest.raises(NotFound):
        svc.execute(GM_ACTOR, ExtendDeadline(game, "nothing", 1))
    with pytest.raises(PermissionDenied):
        svc.execute(player("red"), ExtendDeadline(game, "red", 1))


def test_finish_turn_by_the_player_whose_turn_it_is() -> None:
    svc, _, game = _service()
    with pytest.raises(BadRequest):
        svc.execute(player("blue"), FinishTurn(game, "blue"))
    with pytest.raises(PermissionDenied):
        svc.execute(player("blue"), FinishTurn(game, "red"))
    svc.execute(player("red"), FinishTurn(game, "red"))
    assert svc.state(game).turn == "blue"


def test_undo_restores_an_earlier_state_and_keeps_history() -> None:
    svc, _, game = _service()
    mark = svc.log(game)[-1].seq
    at_mark = state_hash(svc.state(game))
    svc.execute(player("red"), Submit(game, _own_move(svc, game)))
    svc.execute(player("red"), FinishTurn(game, "red"))
    after = state_hash(svc.state(game))
    n = len(svc.log(game))
    svc.execute(GM_ACTOR, Undo(game, mark, "wrong move entered"))
    assert state_hash(svc.state(game)) == at_mark
    assert len(svc.log(game)) > n and isinstance(svc.log(game)[n].event, Undone)
    # a fresh service reading the same store agrees, and so does replay from zero
    again = GameService(svc.store, svc.clock)
    assert state_hash(again.state(game)) == at_mark == state_hash(again.replayed_state(game))
    # undo the undo: back to the later state
    svc.execute(GM_ACTOR, Undo(game, n, "it was right after all"))
    assert state_hash(svc.state(game)) == after
    with pytest.raises(PermissionDenied):
        svc.execute(player("red"), Undo(game, 1))
    with pytest.raises(BadRequest):
        svc.execute(GM_ACTOR, Undo(game, 10_000))


def test_long_random_games_replay_to_the_same_hash_with_and_without_snapshots() -> None:
    svc, _, game = _service(snapshot_every=25, turn_hours=None)
    rp = RandomPlayer(5)
    for _ in range(600):
        cmd = rp.command(svc.state(game))
        svc.execute(GM_ACTOR, Submit(game, cmd))
    live = state_hash(svc.state(game))
    assert svc.store.latest_snapshot(game).seq > 500
    fresh = GameService(svc.store, svc.clock)
    assert state_hash(fresh.state(game)) == live
    assert state_hash(fresh.replayed_state(game)) == live


def test_a_faction_reads_only_its_part_of_the_log() -> None:
    svc, _, game = _service()
    svc.execute(player("red"), Submit(game, rc.DeclareAlliance("red", "secret-rg", ("green",))))
    svc.execute(player("green"), Submit(game, rc.AnswerAlliance("green", "secret-rg", True)))
    blue = visible_log(svc.log(game), "blue")
    green = visible_log(svc.log(game), "green")
    assert not any("secret-rg" in repr(e.event) for e in blue)
    assert any(isinstance(e.event, ev.AllianceFormed) for e in green)


def test_queries_show_each_viewer_only_its_own_pending_things() -> None:
    svc, _, game = _service()
    svc.execute(player("red"), Submit(game, rc.DeclareAlliance("red", "rg", ("green",))))
    red = svc.pending(game, player("red"))
    green = svc.pending(game, player("green"))
    blue = svc.pending(game, player("blue"))
    assert [(p.kind, p.id, p.awaiting) for p in red] == [("declaration", "rg", ("green",))]
    assert red[0].due is not None and green == red and blue == []
    assert svc.pending(game, GM_ACTOR) == red
    svc.execute(player("green"), Submit(game, rc.AnswerAlliance("green", "rg", True)))
    assert [a.members for a in svc.view(game, player("blue")).alliances] == []
    assert [a.members for a in svc.view(game, player("red")).alliances] == [("green", "red")]
    assert svc.view(game, player("red")).seed is None and svc.view(game, GM_ACTOR).seed == "s"


def test_asking_for_permission_is_logged_for_the_two_factions_only() -> None:
    svc, _, game = _service()
    state = svc.state(game)
    place, owner = sorted(state.control.items())[0]
    asker = next(f for f in FACTIONS if f != owner)
    out = svc.execute(player(asker), AskPermission(game, asker, owner, place, ("road",), "to reach the coast"))
    assert out.result == "done"
    third = next(f for f in FACTIONS if f not in (owner, asker))
    assert any(e.event.kind == "permission_asked" for e in svc.log_for(game, player(owner)))
    assert not any(e.event.kind == "permission_asked" for e in svc.log_for(game, player(third)))
    with pytest.raises(BadRequest):
        svc.execute(player(asker), AskPermission(game, asker, third, place, ("road",)))
