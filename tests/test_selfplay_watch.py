"""``selfplay.Watch``: the invariants checked after every step, the cards counted again
only when a field holding them changed. It must say exactly what ``check_invariants``
with a full count says, on every state of real games and on states broken on purpose."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

import pytest

from kingmaker.data import load_dataset
from kingmaker.rules.apply import replay
from kingmaker.rules.deal import new_game
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.state import GameState
from kingmaker.selfplay import FACTIONS, InvariantBroken, Watch, cards_of, check_invariants
from kingmaker.simulation import decided
from kingmaker.simulation_aims import AimingPlayer


def _game(seed: str, steps: int) -> tuple[GameState, list[GameState]]:
    """The deal of a seeded four-faction game and its first states after each step."""
    ds = load_dataset()
    start = new_game(
        ds.board,
        ds.catalog,
        FACTIONS[:4],
        seed,
        removed=ds.setup.removed,
        crowned=ds.setup.crowned,
        full_game=True,
    )
    player = AimingPlayer(seed)
    state, out = start, list[GameState]()
    while len(out) < steps and not state.game_over:
        d = decided(state, player.command(state))
        if d.events:
            state = replay(state, d.events)
            out.append(state)
    return start, out


def _verdict(check: Callable[[], None]) -> str | None:
    try:
        check()
    except InvariantBroken as e:
        return str(e)
    return None


def _drop_a_crown_card(s: GameState) -> GameState:
    return s.evolve(crown_deck=s.crown_deck[1:])


def _award_vanishes(s: GameState) -> GameState:
    holder = next(n for n in s.nobles.values() if n.awards)
    nobles = dict(s.nobles)
    nobles[holder.id] = replace(holder, awards=holder.awards[1:])
    return s.evolve(nobles=FrozenDict(nobles))


def _dead_on_the_board(s: GameState) -> GameState:
    return s.evolve(dead=(*s.dead, next(iter(s.nobles))))


def _card_in_two_hands(s: GameState) -> GameState:
    first = next(f for f, hand in s.hands.items() if hand)
    hands = dict(s.hands)
    hands[first] = (*s.hands[first], s.hands[first][0])
    return s.evolve(hands=FrozenDict(hands))


@pytest.mark.parametrize("seed", ["watch-1", "watch-2"])
def test_the_watch_agrees_with_a_full_count_after_every_step(seed: str) -> None:
    start, states = _game(seed, 400)
    assert len(states) > 100
    cards = cards_of(start)
    watch = Watch(cards)
    for s in states:
        assert _verdict(partial(watch.check, s)) is None
        assert _verdict(partial(check_invariants, s, cards)) is None


@pytest.mark.parametrize(
    ("breaking", "words"),
    [
        (_drop_a_crown_card, "cards not conserved"),
        (_award_vanishes, "cards not conserved"),
        (_dead_on_the_board, "dead and on the board"),
        (_card_in_two_hands, "cards not conserved"),
    ],
)
def test_the_watch_catches_a_broken_state_after_quiet_steps(
    breaking: Callable[[GameState], GameState], words: str
) -> None:
    start, states = _game("watch-3", 200)
    cards = cards_of(start)
    watch = Watch(cards)
    for s in states:
        watch.check(s)
    # the last state again (nothing changed: nothing recounted), then the broken one
    last = states[-1]
    watch.check(last.evolve())
    broken = breaking(last)
    full = _verdict(lambda: check_invariants(broken, cards))
    assert full is not None and words in full
    assert _verdict(lambda: watch.check(broken)) == full
