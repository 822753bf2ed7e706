"""The random player (``kingmaker.simulation``) never raises, whatever the state: the
crash-safety test's writer plays on from whatever log prefix survived a SIGKILL, which
may end inside a command's events (between a request's last confirmation and its
closing, say), and a random choice from an empty sequence there stopped the writer
before it was killed (issue 11 §2)."""

from __future__ import annotations

import pytest

from kingmaker.rules import commands as c
from kingmaker.rules import events as ev
from kingmaker.rules.apply import replay
from kingmaker.rules.state import GameState
from kingmaker.simulation import RandomPlayer, random_play


def _cut_after_the_last_answer(state: GameState, kind: str) -> tuple[GameState, set[str]]:
    """A state of random play in which every invitee of an open request (or alliance
    declaration) has confirmed but the request was not yet closed (the alliance not yet
    formed): a log cut inside that command's events. Also the ids awaiting nobody."""
    for seed in range(100):
        for p in random_play(state, 300, seed):
            s = p.state
            if kind == "request" and s.requests:
                r = next(iter(s.requests.values()))
                cut = replay(s, [ev.RequestConfirmed(r.id, f) for f in r.awaiting])
                return cut, {x.id for x in cut.requests.values() if not x.awaiting}
            if kind == "declaration" and s.declarations:
                d = next(iter(s.declarations.values()))
                cut = replay(s, [ev.AllianceAnswered(d.id, f, True) for f in d.awaiting])
                return cut, {x.id for x in cut.declarations.values() if not x.awaiting}
    raise AssertionError(f"random play opened no {kind}")


@pytest.mark.parametrize("kind", ["request", "declaration"])
def test_the_random_player_copes_with_answers_awaiting_nobody(mini_world: GameState, kind: str) -> None:
    state, dead = _cut_after_the_last_answer(mini_world, kind)
    assert dead
    for seed in range(400):
        cmd = RandomPlayer(seed).command(state)  # never raises
        if isinstance(cmd, c.Confirm | c.Reject):
            assert cmd.id not in dead
        if isinstance(cmd, c.AnswerAlliance):
            assert cmd.alliance not in dead
    assert len(list(random_play(state, 100, kind))) == 100


def test_random_play_never_raises_over_many_seeds(mini_world: GameState, england: GameState) -> None:
    for seed in range(150):
        assert len(list(random_play(mini_world, 150, seed))) == 150
    for seed in range(6):
        assert len(list(random_play(england, 60, f"england-{seed}"))) == 60


@pytest.mark.parametrize("seed", range(6))
def test_random_play_goes_on_from_a_log_cut_inside_any_command(mini_world: GameState, seed: int) -> None:
    """As the crash test's writer does after a kill: for every command of a random game
    whose decision has several events, the state after only some of them, played on."""
    cuts = 0
    before = mini_world
    for p in random_play(mini_world, 400, seed):
        events = p.decision.events
        for k in range(1, len(events)):
            partial = replay(before, events[:k])
            assert len(list(random_play(partial, 12, f"{seed}-{cuts}"))) == 12
            cuts += 1
        before = p.state
    assert cuts > 50
