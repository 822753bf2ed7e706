"""Issue 13's invariants over random play of the full game on the default data and its
own event deck: every card is somewhere, and once (deck + discard + hands + Chancery +
in play = the whole set); no noble is both dead and on the board; every heir is with a
living noble in play, or unescorted at a place; a replay of the events gives the same
state and hash."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingmaker.data import load_dataset
from kingmaker.rules.apply import replay
from kingmaker.rules.deal import crown_deck, new_game
from kingmaker.rules.hashing import state_hash
from kingmaker.rules.state import GameState
from kingmaker.simulation_full import random_full_play

FACTIONS = ("red", "blue", "green", "gold")


@pytest.fixture(scope="module")
def start() -> GameState:
    ds = load_dataset()
    return new_game(
        ds.board,
        ds.catalog,
        FACTIONS,
        "full-play",
        removed=ds.setup.removed,
        crowned=ds.setup.crowned,
        full_game=True,
    )


def _event_cards(state: GameState) -> Counter[str]:
    held = [c for hand in state.hands.values() for c in hand if c in state.catalog.events]
    return Counter([*state.event_deck, *state.event_discard, *held])


def _crown_cards(state: GameState) -> Counter[str]:
    cat = state.catalog
    in_hands = [c for hand in state.hands.values() for c in hand if c not in cat.events]
    in_play = [*state.nobles, *(a for n in state.nobles.values() for a in n.awards), *state.ships]
    return Counter([*state.crown_deck, *state.crown_discard, *state.chancery, *in_hands, *in_play])


def check(state: GameState, events_all: Counter[str], crown_all: Counter[str]) -> None:
    assert _event_cards(state) == events_all
    assert _crown_cards(state) == crown_all
    assert not set(state.dead) & set(state.nobles), "a dead noble is still in play"
    for n in state.nobles.values():
        if n.captive_of is None:
            assert n.place is not None or n.aboard is not None, f"{n.id} is nowhere"
    for h in state.heirs.values():
        if h.with_noble is not None:
            escort = state.nobles.get(h.with_noble)
            assert escort is not None, f"{h.id}'s escort {h.with_noble} is not in play"
        else:
            assert h.place is not None, f"{h.id} is unescorted and nowhere"


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_full_games_keep_every_card_noble_and_heir_in_order(start: GameState, seed: int) -> None:
    crown_all = _crown_cards(start)
    removed = set(load_dataset().setup.removed)
    assert crown_all == Counter(crown_deck(start.catalog, removed))  # the deal put every card somewhere
    events_all = Counter(list(start.catalog.events))
    assert _event_cards(start) == events_all
    state, events = start, []
    kinds: Counter[str] = Counter()
    for p in random_full_play(start, 700, seed):
        check(p.state, events_all, crown_all)
        events.extend(p.decision.events)
        kinds.update(e.kind for e in p.decision.events)
        state = p.state
    again = replay(start, events)
    assert again == state and state_hash(again) == state_hash(state)
    assert kinds["card_drawn"] > 5 and kinds["turn_ended"] > 3, kinds


def test_the_walk_meets_battles_sieges_and_deaths(start: GameState) -> None:
    """Not vacuous: a long random game fights battles, lays and draws sieges, and kills."""
    kinds: Counter[str] = Counter()
    for p in random_full_play(start, 3000, 12):
        kinds.update(e.kind for e in p.decision.events)
    assert kinds["battle_fought"] > 0 and kinds["siege_began"] > 0 and kinds["noble_died"] > 0, kinds
