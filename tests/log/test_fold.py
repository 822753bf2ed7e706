"""The one fold of the log (``kingmaker.log.fold``): undo restores the whole position
(state, deadlines, who has ordered) as it stood after the target entry, a later undo may
go back past an earlier one, and every answer agrees with a plain reference fold that
replays the log from the start for each entry."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kingmaker.log.envelope import Envelope
from kingmaker.log.fold import Fold, Position, Unreachable
from kingmaker.log.service_events import DeadlinePassed, DeadlineSet, OrderSubmitted, Undone
from kingmaker.log.visibility import visible_log
from kingmaker.rules.apply import apply
from kingmaker.rules.codec import state_to_data
from kingmaker.rules.events import Event
from kingmaker.rules.hashing import state_hash
from kingmaker.rules.state import GameState
from kingmaker.rules.views import PUBLIC, view
from kingmaker.service import GM_ACTOR, FixedClock
from kingmaker.service.commands import CreateGame, FinishTurn, Submit, Tick, Undo
from kingmaker.service.game_service import GameService
from kingmaker.service.settings import GameSettings
from kingmaker.simulation import RandomPlayer
from kingmaker.storage.memory import MemoryStore

FACTIONS = ("red", "blue", "green", "gold")


def _played(seed: int, steps: int = 160) -> tuple[GameState, list[Envelope]]:
    """A random game through the service with deadlines passing, turns finished and GM
    undos to random earlier entries (some to before an earlier undo)."""
    rnd = random.Random(seed)
    clock = FixedClock()
    svc = GameService(MemoryStore(), clock)
    settings = GameSettings(turn_hours=30, request_hours=5, snapshot_every=7, full_game=False)
    game = svc.execute(GM_ACTOR, CreateGame("Fold", FACTIONS, seed=f"s{seed}", settings=settings)).game
    rp = RandomPlayer(seed)
    for step in range(steps):
        roll = rnd.random()
        if roll < 0.08 and svc.store.head(game) > 2:
            svc.execute(GM_ACTOR, Undo(game, rnd.randrange(0, svc.store.head(game)), f"undo {step}"))
        elif roll < 0.14:
            clock.advance(hours=rnd.choice((4, 31)))
            svc.execute(GM_ACTOR, Tick(game))
        elif roll < 0.2:
            svc.execute(GM_ACTOR, FinishTurn(game, svc.state(game).turn))
        else:
            svc.execute(GM_ACTOR, Submit(game, rp.command(svc.state(game))))
    initial = svc.uow.project(game, upto=0).state
    return initial, svc.log(game)


# -- the reference: the log re-read from its start for every entry, as the code before
# -- the one fold did it (log.fold.effective, service.projection, reports' live_seqs)
def _live_after(envs: list[Envelope], limit: int) -> list[Envelope]:
    live: list[Envelope] = []
    for env in envs:
        if env.seq > limit:
            break
        if isinstance(env.event, Undone):
            live = _live_after(envs, min(env.event.to_seq, env.seq - 1))
        live.append(env)
    return live


def _reference(
    initial: GameState, envs: list[Envelope], upto: int
) -> tuple[GameState, dict[str, Any], set[Any]]:
    state, deadlines, ordered = initial, {}, set()
    for env in _live_after(envs, upto):
        e = env.event
        if isinstance(e, Event):
            state = apply(state, e)
        elif isinstance(e, DeadlineSet):
            deadlines[e.target] = (e.target_kind, e.due, e.extended)
        elif isinstance(e, DeadlinePassed):
            deadlines.pop(e.target, None)
        elif isinstance(e, OrderSubmitted):
            ordered.add((env.round, env.turn, e.by))
    return state, deadlines, ordered


def _facts(p: Position) -> tuple[str, dict[str, Any], set[Any]]:
    return (
        state_hash(p.state),
        {k: (d.kind, d.due, d.extended) for k, d in p.deadlines.items()},
        set(p.ordered),
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_position_is_the_reference_fold_of_its_log(seed: int) -> None:
    initial, envs = _played(seed)
    undos = [e for e in envs if isinstance(e.event, Undone)]
    assert len(undos) >= 3
    assert any(  # a later undo going back past an earlier one
        later.event.to_seq < earlier.seq < later.seq  # type: ignore[attr-defined]
        for i, earlier in enumerate(undos)
        for later in undos[i + 1 :]
    )
    tl = Fold.of(initial, envs).timeline()
    for env in envs:
        state, deadlines, ordered = _reference(initial, envs, env.seq)
        assert _facts(tl.position_after(env.seq)) == (state_hash(state), deadlines, ordered), env.seq
    for u in undos:  # an undo restores the whole position after its target
        assert tl.position_after(u.seq) == tl.position_after(u.event.to_seq)  # type: ignore[attr-defined]
    live = {e.seq for e in _live_after(envs, envs[-1].seq)}
    assert {e.seq for e in envs if e.seq in tl.live} == live


@pytest.mark.parametrize("seed", [4, 5])
def test_deadlines_then_agree_with_those_each_viewer_may_read(seed: int) -> None:
    """Reports read the deadlines of the position, for what the viewer's view shows:
    the same as folding only the entries the viewer may read."""
    initial, envs = _played(seed)
    tl = Fold.of(initial, envs).timeline()
    for viewer in (*FACTIONS, PUBLIC):
        seen = visible_log(envs, viewer)
        for upto in range(0, envs[-1].seq + 1, 5):
            _, theirs, _ = _reference(initial, [e for e in seen if e.seq <= upto], upto)
            pos = tl.position_after(upto)
            v = view(pos.state, viewer)
            shown = {f for f in FACTIONS} | {d.id for d in v.declarations} | {r.id for r in v.requests}
            due = pos.due()
            assert {k: due.get(k) for k in shown} == {k: theirs[k][1] if k in theirs else None for k in shown}


def test_a_fold_from_a_snapshot_asks_for_what_it_does_not_hold() -> None:
    initial, envs = _played(6, steps=60)
    whole = Fold.of(initial, envs)
    middle = envs[len(envs) // 2].seq
    part = Fold(whole.after(middle), middle)
    undo = Envelope(envs[-1].seq + 1, 9, "red", "gm", None, Undone(3, "back"), "")
    for env in envs[len(envs) // 2 + 1 :]:
        try:
            part.step(env)
        except Unreachable as e:  # an undo to before the middle: the caller reads it
            part.step(env, whole.after(e.seq))
    assert part.position == whole.position
    with pytest.raises(Unreachable) as info:
        part.step(undo)
    assert info.value.seq == 3 and part.head == envs[-1].seq  # nothing was folded
    part.step(undo, whole.after(3))
    whole.step(undo)
    assert part.position == whole.position == whole.after(3)


def test_a_branch_goes_on_without_changing_its_fold_and_is_taken_back() -> None:
    initial, envs = _played(7, steps=60)
    half = len(envs) // 2
    fold = Fold.of(initial, envs[:half])
    before = fold.timeline()
    branch = fold.branch()
    for env in envs[half:]:
        branch.step(env)
    assert fold.head == envs[half - 1].seq and fold.timeline() is before
    fold.extend(branch)
    full = Fold.of(initial, envs).timeline()
    assert fold.head == full.head and fold.position == full.position
    assert [e.seq for e in fold.timeline().envelopes] == [e.seq for e in envs]
    assert all(fold.after(e.seq) == full.position_after(e.seq) for e in envs)
    assert {e.seq for e in envs if e.seq in fold.timeline().live} == {
        e.seq for e in envs if e.seq in full.live
    }


def test_snapshots_of_every_format_load() -> None:
    initial, envs = _played(8, steps=40)
    pos = Fold.of(initial, envs).position
    board, catalog = initial.board, initial.catalog
    assert Position.from_data(pos.to_data(), board, catalog) == pos
    # the first snapshots held the rules state alone
    old = Position.from_data(state_to_data(pos.state), board, catalog)
    assert state_hash(old.state) == state_hash(pos.state) and not old.deadlines and not old.ordered


def test_nothing_waits_once_the_game_has_ended(mini_world: GameState) -> None:
    """A game won (or ended with no heir) mid-turn keeps its turn's deadline set: it
    must not pass and try to end a turn of a game that is over (VICTORY.timing)."""
    from kingmaker.log.fold import Deadline

    due = {"red": Deadline("red", "turn", "2026-12-02T12:00:00+00:00")}
    playing = Position(mini_world, due)
    assert [d.target for d in playing.open_deadlines()] == ["red"]
    over = Position(mini_world.evolve(winner="red", game_over="VICTORY.last_heir"), due)
    assert over.open_deadlines() == []
