"""``fighting.strength_bounds`` bounds ``battle_strength`` at every place (F4): the
siege-strength check of the legal destinations (``reach._strong_enough``) settles most
places by the bounds alone, so they must never exclude a strength the place gives."""

from __future__ import annotations

from kingmaker.data import load_dataset
from kingmaker.rules.deal import new_game
from kingmaker.rules.fighting import battle_strength, strength_bounds
from kingmaker.simulation_full import random_full_play


def test_each_nobles_strength_at_every_place_lies_within_its_bounds() -> None:
    ds = load_dataset()
    start = new_game(
        ds.board, ds.catalog, ("red", "blue", "green", "gold"), "bounds", removed=ds.setup.removed, full_game=True
    )
    checked = regional = 0
    for i, step in enumerate(random_full_play(start, 300, 3)):
        if i % 25:
            continue
        state = step.state
        for noble in state.nobles:
            low, high = strength_bounds(state, noble)
            seen = {battle_strength(state, noble, place) for place in state.board.places.values()}
            assert low <= min(seen) and max(seen) <= high, noble
            checked += 1
            regional += low != high
    assert checked > 100 and regional > 0  # awards with regional troops were among them
