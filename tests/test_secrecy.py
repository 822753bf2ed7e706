"""No faction's view shows a secret alliance, a pending declaration or another
faction's pending request it may not see (ALLY.2, R7; issue 4 §1)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from kingmaker.rules.commands import GM
from kingmaker.rules.hashing import encode
from kingmaker.rules.state import GameState
from kingmaker.rules.views import PUBLIC, view
from kingmaker.simulation import random_play


def _forbidden(state: GameState, faction: str) -> set[str]:
    """Ids this faction may not know: secret alliances it is not in, declarations it
    is not part of, requests neither made by nor awaiting it."""
    out = {a.id for a in state.alliances.values() if not a.public and faction not in a.members}
    out |= {d.id for d in state.declarations.values() if faction != d.by and faction not in d.invited}
    out |= {r.id for r in state.requests.values() if faction != r.by and faction not in r.awaiting}
    return out


def _check(state: GameState) -> int:
    checks = 0
    for f in (*state.turn_order, PUBLIC):
        v = view(state, f)
        text = json.dumps(encode(v))
        for secret in _forbidden(state, f):
            assert secret not in text, f"{f} can see {secret}"
            checks += 1
        for a in v.alliances:
            assert a.public or f in a.members
        for d in v.declarations:
            assert f == d.by or f in d.invited
        for r in v.requests:
            assert f == r.by or f in r.awaiting
        assert v.seed is None or state.seed_revealed
    gm = view(state, GM)
    assert len(gm.alliances) == len(state.alliances)
    assert len(gm.requests) == len(state.requests)
    return checks


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_never_leak_secrets(mini_world: GameState, seed: int) -> None:
    for p in random_play(mini_world, 250, seed):
        _check(p.state)


def test_the_walk_meets_secrets_to_keep(mini_world: GameState) -> None:
    """The walk is not vacuous: it reaches states with secrets to hide."""
    seen = 0
    for p in random_play(mini_world, 2000, 99):
        seen += _check(p.state)
    assert seen > 500


def test_an_allied_order_carried_out_makes_the_alliance_public(mini_world: GameState) -> None:
    from kingmaker.rules import commands as c
    from kingmaker.rules.decide import play

    s = mini_world
    s, d = play(s, c.DeclareAlliance("red", "rg", ("green",)))
    s, d = play(s, c.AnswerAlliance("green", "rg", True))
    assert d.accepted
    assert [a.members for a in view(s, "blue").alliances] == []
    assert [a.members for a in view(s, "green").alliances] == [("green", "red")]


def test_hands_decks_and_the_chancery_are_secret_but_their_sizes_are_not(mini_world: GameState) -> None:
    """FULL_GAME DEAL.chancery, §4: deck order, hands and the Chancery are the GM's;
    every faction sees its own hand and the sizes of everything."""
    from kingmaker.rules.frozen import FrozenDict
    from kingmaker.rules.views import as_seen_by

    s = mini_world.evolve(
        phase="movement",
        event_deck=("ev-secret-top", "ev-secret-2"),
        crown_deck=("crown-secret-top",),
        chancery=("chancery-secret",),
        hands=FrozenDict({"red": ("red-card",), "blue": ("blue-card-1", "blue-card-2")}),
    )
    red = view(s, "red")
    text = json.dumps(encode(red))
    for secret in ("ev-secret-top", "crown-secret-top", "chancery-secret", "blue-card-1"):
        assert secret not in text
    assert dict(red.hands) == {"red": ("red-card",)}
    assert dict(red.hand_sizes) == {"red": 1, "blue": 2}
    assert (red.event_deck_size, red.crown_deck_size, red.chancery_size) == (2, 1, 1)
    assert "blue-card-1" not in json.dumps(encode(view(s, PUBLIC)))
    gm = view(s, GM)
    assert dict(gm.hands)["blue"] == ("blue-card-1", "blue-card-2") and gm.chancery == ("chancery-secret",)
    blind = as_seen_by(s, "red")
    assert blind.event_deck == () and blind.crown_deck == () and blind.chancery == ()
    assert dict(blind.hands) == {"red": ("red-card",)}
