"""The deal of a new game (``kingmaker.rules.deal``) on the England 1455 data set."""

from __future__ import annotations

from collections import Counter

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from kingmaker.cli import demo_cmd
from kingmaker.data import DataSet, load_dataset
from kingmaker.render.position import position_summary
from kingmaker.rules.cards import AwardKind
from kingmaker.rules.chance import commitment
from kingmaker.rules.deal import assign_items, crown_deck, deal_hands, new_game, shuffled
from kingmaker.rules.state import GameState, RandomSource

DS = load_dataset()


def game(n: int = 4, seed: str = "england-1455", ds: DataSet = DS) -> GameState:
    return new_game(
        ds.board,
        ds.catalog,
        ds.setup.faction_ids(n),
        seed,
        cards_per_faction=ds.setup.cards_per_faction,
        removed=ds.setup.removed,
        crowned=ds.setup.crowned,
    )


def hands(n: int, seed: str) -> dict[str, tuple[str, ...]]:
    d = deal_hands(DS.catalog, DS.setup.faction_ids(n), seed, DS.setup.cards_per_faction, DS.setup.removed)
    return dict(d.hands)


def test_same_seed_same_game() -> None:
    assert game(4, "abc") == game(4, "abc")
    assert position_summary(game(4, "abc")) == position_summary(game(4, "abc"))


def test_different_seed_different_deal() -> None:
    assert hands(4, "abc") != hands(4, "abd")
    deals = {tuple(sorted(hands(3, f"seed-{i}").items())) for i in range(10)}
    assert len(deals) == 10


def test_deck_leaves_out_removed_cards() -> None:
    deck = crown_deck(DS.catalog, DS.setup.removed)
    assert not set(deck) & set(DS.setup.removed)
    counts = Counter(deck)
    assert counts["saxons"] == 2 and counts["percy"] == 1
    assert len(deck) == 23 + 8 + 14 + 6 + 8 + 11 + len(DS.catalog.ships)


def test_shuffle_is_a_permutation_from_the_deal_stream() -> None:
    cards = [str(i) for i in range(20)]
    order, counter = shuffled(cards, "s:deal")
    assert sorted(order) == sorted(cards) and counter == 19
    assert shuffled(cards, "s:deal") == (order, counter)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 6), seed=st.text(max_size=20))
def test_deal_rules_hold(n: int, seed: str) -> None:
    """Equal hands, a noble each, legal and mandatory assignment, control, heirs."""
    ds = DS
    state = game(n, seed)
    dealt = hands(n, seed)
    cat = ds.catalog
    factions = ds.setup.faction_ids(n)
    assert state.turn_order == factions
    assert state.rng == RandomSource(seed=seed)
    assert {len(h) for h in dealt.values()} == {ds.setup.cards_per_faction}
    held_awards: Counter[str] = Counter()
    for f in factions:
        hand = dealt[f]
        mine = [nb for nb in state.nobles.values() if nb.faction == f]
        assert mine, f"{f} holds no noble"
        assert {nb.id for nb in mine} == {c for c in hand if c in cat.nobles}
        assert {s.id for s in state.ships.values() if s.faction == f} == {c for c in hand if c in cat.ships}
        for nb in mine:
            held_awards.update(nb.awards)
            assert all(a in hand for a in nb.awards)
            kinds = Counter(cat.awards[a].kind for a in nb.awards)
            preprinted = cat.nobles[nb.id].title is not None
            assert kinds[AwardKind.TITLE] + preprinted <= 1, nb.id
            assert kinds[AwardKind.OFFICE] <= 1, nb.id
            if kinds[AwardKind.OFFICE]:
                assert kinds[AwardKind.TITLE] or preprinted, nb.id
        # mandatory: what went to the Chancery could not be placed
        _, to_chancery = assign_items(cat, hand)
        for item in to_chancery:
            kind = cat.awards[item].kind
            assert kind in (AwardKind.TITLE, AwardKind.OFFICE, AwardKind.SEE)
            titled = [
                nb
                for nb in mine
                if cat.nobles[nb.id].title or any(cat.awards[a].kind is AwardKind.TITLE for a in nb.awards)
            ]
            if kind is AwardKind.TITLE:
                assert len(titled) == len(mine)
            if kind is AwardKind.OFFICE:
                assert all(any(cat.awards[a].kind is AwardKind.OFFICE for a in nb.awards) for nb in titled)
    # every dealt item is held by a noble or in the Chancery, exactly once
    dealt_items = Counter(c for h in dealt.values() for c in h if c in cat.awards)
    assert held_awards + Counter(state.chancery) == dealt_items
    # nobles start inside the first of their castles with room, else in the open at the
    # first; no location starts over its capacity
    inside: Counter[str] = Counter()
    for nb in state.nobles.values():
        card = cat.nobles[nb.id]
        assert (nb.aboard, nb.troops) == (None, card.troops)
        assert nb.place in card.castles
        if nb.inside:
            inside[nb.place] += nb.troops + sum(cat.award(a).potential for a in nb.awards)
        else:
            assert nb.place == card.castles[0]
    for place, troops in inside.items():
        capacity = ds.board.places[place].capacity
        assert capacity is None or troops <= capacity, place
    # control: exactly the dealt nobles' castles and the places of held items
    expected: dict[str, str] = {}
    for nb in state.nobles.values():
        assert nb.faction is not None
        for c in cat.nobles[nb.id].castles:
            expected[c] = nb.faction
        for a in nb.awards:
            for p in cat.awards[a].places:
                expected[p] = nb.faction
    assert dict(state.control) == expected
    # ships in port at home, heirs at their start places
    for s in state.ships.values():
        card = cat.ships[s.id]
        assert (s.place, s.in_port, s.capacity, s.passengers) == (card.home_port, True, card.capacity, ())
    for h in state.heirs.values():
        card = cat.heirs[h.id]
        if card.noble is not None:  # Beaufort: the heir is his own noble, in play with him
            assert h.with_noble == card.noble and card.noble in state.nobles
            continue
        assert (h.place, h.inside, h.with_noble, h.house, h.order) == (
            card.start,
            True,
            None,
            card.house,
            card.order,
        )
        assert h.crowned == (h.id == "henry_vi")


def test_assignment_prefers_most_troops_then_id() -> None:
    cat = DS.catalog
    held, chancery = assign_items(
        cat, ["stanley", "audley", "earl_of_kent", "marshal_of_england", "saxons", "bishop_of_lincoln"]
    )
    # the title goes to the untitled noble with most troops (Stanley 50), then the office to him too
    assert held["stanley"] == ["earl_of_kent", "marshal_of_england", "bishop_of_lincoln", "saxons"]
    assert held["audley"] == [] and chancery == []
    held, chancery = assign_items(
        cat, ["percy", "earl_of_kent", "marshal_of_england", "treasurer_of_england"]
    )
    # Percy is titled already: no title for him; one office only
    assert held["percy"] == ["marshal_of_england"]
    assert chancery == ["earl_of_kent", "treasurer_of_england"]


def test_every_faction_gets_a_noble_even_with_small_hands() -> None:
    for seed in ("a", "b", "c", "d"):
        d = deal_hands(DS.catalog, DS.setup.faction_ids(6), seed, 2, DS.setup.removed)
        for hand in d.hands.values():
            assert len(hand) == 2 and any(c in DS.catalog.nobles for c in hand)
        assert len(d.stock) == len(crown_deck(DS.catalog, DS.setup.removed)) - 12


def test_noble_too_strong_for_his_castles_starts_in_the_open() -> None:
    from kingmaker.rules.board import Board, Place, PlaceKind
    from kingmaker.rules.cards import Award, Catalog, NobleCard
    from kingmaker.rules.frozen import FrozenDict

    board = Board(
        "t",
        FrozenDict(
            {
                "small": Place("small", "Small", PlaceKind.CASTLE, 100, 100),
                "big": Place("big", "Big", PlaceKind.CASTLE, 300, 100),
            }
        ),
    )
    percy = NobleCard("percy", "Percy", 100, "Earl", ("small", "big"))
    calais = Award("captain_of_calais", "Captain", AwardKind.OFFICE, 50, (("calais", 300),))
    cat = Catalog(nobles=FrozenDict({"percy": percy}))
    g = new_game(board, cat, ["red"], "s", cards_per_faction=1)
    assert (g.nobles["percy"].place, g.nobles["percy"].inside) == ("small", True)
    cat = Catalog(nobles=FrozenDict({"percy": percy}), awards=FrozenDict({calais.id: calais}))
    g = new_game(board, cat, ["red"], "s", cards_per_faction=2)
    assert g.nobles["percy"].awards == ("captain_of_calais",)
    assert (g.nobles["percy"].place, g.nobles["percy"].inside) == ("small", False)  # 450 > 300
    assert g.control == {"small": "red", "big": "red"}


def test_impossible_deals_are_refused() -> None:
    with pytest.raises(ValueError, match="need"):
        new_game(DS.board, DS.catalog, ["red", "blue"], "s", cards_per_faction=100)
    with pytest.raises(ValueError, match="distinct"):
        new_game(DS.board, DS.catalog, ["red", "red"], "s")
    with pytest.raises(ValueError, match="at least one faction"):
        new_game(DS.board, DS.catalog, [], "s")


def test_position_summary_shows_everything() -> None:
    state = game(4, "england-1455")
    text = position_summary(state)
    for f in state.turn_order:
        assert f"== {f} ==" in text
    assert "Henry VI (Lancaster 1, crowned): inside London" in text
    assert "Richard, Duke of Gloucester (York 5): inside Calais" in text
    for nb in state.nobles.values():
        where = "inside" if nb.inside else "in the open at"
        assert f"{where} {DS.board.name_of(nb.place or '')}" in text
    for s in state.ships.values():
        assert DS.catalog.name_of(s.id) in text
    assert "== Control of places ==" in text and "== Chancery ==" in text


def test_demo_command() -> None:
    app = typer.Typer()
    demo_cmd.register(app)
    result = CliRunner().invoke(app, ["--no-serve", "--factions", "3", "--seed", "abc"])
    assert result.exit_code == 0, result.output
    assert "Seed: abc" in result.output
    assert commitment("abc") in result.output
    assert result.output.endswith(position_summary(game(3, "abc")))
    bad = CliRunner().invoke(app, ["--no-serve", "--factions", "9"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output
    assert "--seed" in CliRunner().invoke(app, ["--help"]).output
