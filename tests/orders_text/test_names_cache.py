"""The name indexes behind text orders are shared between states and viewers where that
is safe: a declaration or an answer rebuilds only the ids a viewer may know, never the
names of nobles, places and cards; and no viewer's ids reach another."""

from __future__ import annotations

import pytest

from kingmaker.orders_text.names import ALLIANCES, DECLARATIONS, UnknownNameError, names_for
from kingmaker.rules import commands as c
from kingmaker.rules.apply import replay
from kingmaker.rules.decide import decide
from kingmaker.rules.state import GameState


def _declared(state: GameState) -> GameState:
    d = decide(state, c.DeclareAlliance("red", "rg", ("green",)))
    assert d.events, d.explanation
    return replay(state, d.events)


def test_a_declaration_keeps_the_names_and_rebuilds_only_the_ids(forum_game: GameState) -> None:
    after = _declared(forum_game)
    before_blue, after_blue = names_for(forum_game, viewer="blue"), names_for(after, viewer="blue")
    assert after_blue.index is before_blue.index  # nobles, places, cards: the same index
    assert names_for(after, viewer="green").index is after_blue.index  # and for every viewer
    assert after_blue.resolve("Tadc", frozenset({"place"})).id == "tadcaster"
    # the secret declaration is among green's and red's ids, not blue's
    assert names_for(after, viewer="green").resolve("rg", DECLARATIONS).id == "rg"
    assert names_for(after, viewer="red").resolve("rg", DECLARATIONS).id == "rg"
    with pytest.raises(UnknownNameError) as refused:
        after_blue.resolve("rg", DECLARATIONS)
    assert "rg" in refused.value.message and "did you mean" not in refused.value.message
    assert names_for(after, viewer="blue").ids is not names_for(after, viewer="green").ids


def test_a_new_name_in_play_rebuilds_the_names(forum_game: GameState) -> None:
    d = decide(forum_game, c.FormArmy("red", "northmen", ("percy", "stanley")))
    assert d.events, d.explanation
    formed = replay(forum_game, d.events)
    old, new = names_for(forum_game, viewer="red"), names_for(formed, viewer="red")
    assert new.index is not old.index
    assert new.resolve("northmen", frozenset({"army"})).id == "northmen"
    with pytest.raises(UnknownNameError):
        old.resolve("northmen", frozenset({"army"}))
    # an alliance id is not a name of a thing: the ids stay apart from the names
    with pytest.raises(UnknownNameError):
        new.resolve("northmen", ALLIANCES)
