"""England 1455's event deck (``events.toml``): the proportions docs/data-format.md
states and justifies, the places, seas, nobles and cards it names, and the deck's
journey through a dump and reload, the codec and a game's record."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kingmaker.data import DataSet, dump_dataset, load_dataset
from kingmaker.data.deck_figures import DeckFigures, deck_figures
from kingmaker.rules.board import PlaceKind
from kingmaker.rules.cards import (
    BAD_WEATHER,
    AwardKind,
    BattleHalf,
    CardEvent,
    Catalog,
    Embassy,
    EventCard,
    EventKind,
    FreeMove,
    King,
    Mercenaries,
    NoEvent,
    Odds,
    ParliamentChancellor,
    ParliamentMust,
    Plague,
    Storm,
    Summons,
    Writ,
)
from kingmaker.rules.codec import catalog_from_data, catalog_to_data
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.hashing import static_fingerprint

DOC = Path(__file__).parents[1] / "docs" / "data-format.md"


@pytest.fixture(scope="module")
def ds() -> DataSet:
    return load_dataset()


@pytest.fixture(scope="module")
def figures(ds: DataSet) -> DeckFigures:
    return deck_figures(ds.catalog)


def test_size_and_halves(ds: DataSet, figures: DeckFigures) -> None:
    assert figures.cards == 72 >= ds.setup.min_event_cards == 60
    assert (figures.both_halves, figures.event_only, figures.battle_only) == (41, 4, 27)
    for card in ds.catalog.events.values():
        assert card.event is not None or card.battle is not None, card.id
    # the four cards without a battle half are the Parliament cards
    no_battle = {c.event_kind for c in ds.catalog.events.values() if c.battle is None}
    assert no_battle == {EventKind.PARLIAMENT_CHANCELLOR, EventKind.PARLIAMENT_MUST}


def test_events_by_kind(figures: DeckFigures) -> None:
    assert {k.value: n for k, n in figures.by_event.items()} == {
        "none": 27,
        "plague": 10,
        "storm": 8,
        "summons": 10,
        "embassy": 3,
        "mercenaries": 4,
        "parliament_chancellor": 2,
        "parliament_must": 2,
        "writ": 3,
        "free_move": 3,
    }


def test_odds_make_higher_ratios_more_decisive(figures: DeckFigures) -> None:
    assert figures.battle_cards == 68 and figures.bad_weather == 10
    assert [figures.by_odds[o] for o in Odds] == [7, 9, 11, 12, 10, 9]
    decisive = [figures.decisive_at(o) for o in Odds]
    assert decisive == [7, 16, 27, 39, 49, 58]
    assert decisive == sorted(decisive) and len(set(decisive)) == len(decisive)
    # every card but Bad Weather takes a besieged place (F9): 85 %, as PC58's computer game
    assert figures.siege_falls == 58 and DeckFigures.percent(58, 68) == 85


def test_every_noble_named_evenly(ds: DataSet) -> None:
    c = ds.catalog
    in_play = [n for n in c.nobles if n not in c.removed]
    for odds in Odds:
        named = [n for e in c.events.values() if e.battle and e.battle.odds is odds for n in e.battle.deaths]
        # each noble in play once in each odds category; no other noble but the Plantagenets
        assert sorted(n for n in named if n in in_play) == sorted(in_play), odds
        assert set(named) - set(in_play) <= {"plantagenet_lancaster", "plantagenet_york"}
    counts = deck_figures(c).named
    assert {counts[n] for n in in_play} == {6}
    assert counts["plantagenet_lancaster"] == counts["plantagenet_york"] == 1
    mighty = [n for n in in_play if c.nobles[n].troops >= 50]
    small = [n for n in in_play if c.nobles[n].troops <= 10]
    assert max(counts[n] for n in mighty) <= min(counts[n] for n in small)


def test_bad_weather_kills_no_one(ds: DataSet) -> None:
    for card in ds.catalog.events.values():
        if card.battle is not None and card.battle.bad_weather:
            assert card.battle == BAD_WEATHER, card.id


def test_plague_strikes_cities_and_walled_towns(ds: DataSet, figures: DeckFigures) -> None:
    places = ds.board.places
    assert set(figures.plague_places) == {
        "london",
        "york",
        "bristol",
        "norwich",
        "coventry",
        "lincoln",
        "chester",
        "newcastle",
        "exeter",
        "plymouth",
        "canterbury",
        "rochester",
    }
    for pid in figures.plague_places:
        assert places[pid].kind in (PlaceKind.CITY, PlaceKind.TOWN), pid
    cities = {p.id for p in places.values() if p.kind is PlaceKind.CITY}
    assert cities <= set(figures.plague_places)


def test_storms_cover_every_sea_zone(ds: DataSet, figures: DeckFigures) -> None:
    assert set(figures.storm_seas) == set(ds.board.seas)
    assert len(ds.board.seas) == 12
    assert figures.storm_seas["strait_of_dover"] == figures.storm_seas["english_channel"] == 2


def test_summonses_embassies_and_mercenaries(ds: DataSet, figures: DeckFigures) -> None:
    c, places = ds.catalog, ds.board.places
    summonses = [e.event for e in c.events.values() if isinstance(e.event, Summons)]
    targets = [s.target for s in summonses if s.target is not None]
    holders = [s.holder for s in summonses if s.holder is not None]
    assert len(targets) == len(holders) == 5
    assert all(t in c.nobles and t not in c.removed for t in targets)
    assert all(c.awards[h].kind is AwardKind.OFFICE for h in holders)
    assert "admiral_of_england" in holders
    assert all(s.place in places for s in summonses)
    embassies = [e.event for e in c.events.values() if isinstance(e.event, Embassy)]
    assert sorted(e.king.value for e in embassies) == ["lancaster", "sole", "york"]
    mercenaries = {a.id for a in c.awards.values() if a.kind is AwardKind.MERCENARY}
    assert set(figures.mercenaries) == mercenaries and set(figures.mercenaries.values()) == {1}
    held = [e for e in c.events.values() if e.held]
    assert sorted(e.event_kind.value for e in held) == ["free_move"] * 3 + ["writ"] * 3


def test_names_are_the_projects_own(ds: DataSet) -> None:
    names = [e.name for e in ds.catalog.events.values()]
    assert len(set(names)) == len(names)
    assert {"Fog on Towton Field", "Plague in Bristol"} <= set(names)


def test_the_docs_quote_the_figures(figures: DeckFigures) -> None:
    """docs/data-format.md's table of proportions says what the deck holds."""
    doc = " ".join(DOC.read_text(encoding="utf-8").split())  # lines joined
    f, m = figures, figures.battle_cards
    rows = [f"| Bad Weather | {f.bad_weather} |"]
    rows += [
        f"| {o.value} | {f.by_odds[o]} | {f.decisive_at(o)} of {m} ({DeckFigures.percent(f.decisive_at(o), m)} %) |"
        for o in Odds
    ]
    rows += [f"| `{k.value}` | {n} |" for k, n in f.by_event.items()]
    for row in rows:
        assert row in doc, row
    two = f.decisive_at(Odds.TWO_TO_ONE)
    assert f"a battle at 2:1 is decisive on {two} of the {m} battle cards" in doc


# -- the deck's journey: dump and reload, the codec, a game's record -------------------------

DEFAULT = load_dataset()
NOBLES = sorted(DEFAULT.catalog.nobles)
TOWNS = sorted(p.id for p in DEFAULT.board.places.values() if p.kind in (PlaceKind.CITY, PlaceKind.TOWN))
SEAS = sorted(DEFAULT.board.seas)
PLACES = sorted(DEFAULT.board.places)
AWARDS = sorted(a.id for a in DEFAULT.catalog.awards.values() if a.copies == 1)  # one holder each
MERCENARIES = sorted(a.id for a in DEFAULT.catalog.awards.values() if a.kind is AwardKind.MERCENARY)
names = st.text(st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp")), max_size=30)


def _some(ids: list[str]) -> st.SearchStrategy[tuple[str, ...]]:
    return st.lists(st.sampled_from(ids), min_size=1, max_size=4, unique=True).map(tuple)


events: st.SearchStrategy[CardEvent] = st.one_of(
    st.just(NoEvent()),
    _some(TOWNS).map(Plague),
    _some(SEAS).map(Storm),
    st.builds(Summons, st.sampled_from(PLACES), st.sampled_from(NOBLES), st.none()),
    st.builds(lambda p, h: Summons(p, holder=h), st.sampled_from(PLACES), st.sampled_from(AWARDS)),
    st.builds(Embassy, st.sampled_from(list(King)), st.sampled_from(PLACES)),
    _some(MERCENARIES).map(Mercenaries),
    st.just(ParliamentChancellor()),
    st.just(ParliamentMust()),
    st.just(Writ()),
    st.just(FreeMove()),
)
battles = st.just(BAD_WEATHER) | st.builds(
    BattleHalf,
    st.sampled_from(list(Odds)),
    st.lists(st.sampled_from(NOBLES), max_size=5, unique=True).map(tuple),
)
cards = st.tuples(names, st.none() | events, st.none() | battles).filter(lambda t: t[1] or t[2])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(drawn=st.lists(cards, min_size=1, max_size=8))
def test_any_deck_survives_a_dump_and_reload(
    tmp_path_factory: pytest.TempPathFactory, drawn: list[tuple[str, CardEvent | None, BattleHalf | None]]
) -> None:
    """Cards of every kind, with any name a data set may hold, come back unchanged."""
    new = {f"drawn_{i}": EventCard(f"drawn_{i}", n, e, b) for i, (n, e, b) in enumerate(drawn)}
    deck = FrozenDict({**DEFAULT.catalog.events, **new})
    changed = replace(DEFAULT, catalog=replace(DEFAULT.catalog, events=deck))
    folder = tmp_path_factory.mktemp("deck")
    again = load_dataset(dump_dataset(changed, folder))
    assert again == changed
    assert catalog_from_data(catalog_to_data(changed.catalog)) == changed.catalog


def test_the_codec_carries_the_deck(ds: DataSet) -> None:
    data = catalog_to_data(ds.catalog)
    assert data["events"]["plague_in_bristol"]["event"] == {"kind": "plague", "places": ["bristol"]}
    assert data["events"]["fog_on_towton_field"]["battle"] == {"odds": None, "deaths": []}
    assert catalog_from_data(data) == ds.catalog


def test_a_card_set_without_a_deck_keeps_its_old_record_and_hash(ds: DataSet) -> None:
    old = replace(ds.catalog, events=FrozenDict(), votes=None)  # the vote table came later still
    data = catalog_to_data(old)
    assert "events" not in data  # as records written before the deck existed
    assert catalog_from_data(data) == old and catalog_from_data(data).events == {}
    assert static_fingerprint(old) != static_fingerprint(ds.catalog)
    fields_before = Catalog(old.nobles, old.awards, old.ships, old.heirs, old.removed)
    assert static_fingerprint(fields_before) == static_fingerprint(old)


def test_a_game_carries_its_deck(tmp_path: Path, ds: DataSet) -> None:
    from kingmaker.service import GM_ACTOR, FixedClock
    from kingmaker.service.commands import CreateGame
    from kingmaker.service.game_service import GameService
    from kingmaker.service.transfer import export_game, import_game
    from kingmaker.storage import open_store
    from kingmaker.storage.memory import MemoryStore

    svc = GameService(open_store(f"sqlite:///{tmp_path / 'g.db'}"), FixedClock())
    game = svc.execute(GM_ACTOR, CreateGame("Deck", ("red", "blue"), seed="d", game_id="deck1")).game
    assert svc.state(game).catalog.events == ds.catalog.events
    assert svc.replayed_state(game).catalog == ds.catalog
    out = io.StringIO()
    export_game(svc.store, game, out)
    other = MemoryStore()
    import_game(other, out.getvalue().splitlines(keepends=True))
    assert GameService(other, FixedClock()).state(game).catalog.events == ds.catalog.events
    svc.store.close()


def test_data_show_and_check_summarise_the_deck() -> None:
    from typer.testing import CliRunner

    from .test_data_check import MINIMAL, cli_app

    shown = CliRunner().invoke(cli_app(), ["data", "show"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    for text in (
        "Event deck: 72 cards (set-up asks at least 60): 41 with an event and a battle half, "
        "4 with an event only, 27 with a battle half only",
        "Event cards by event",
        "Battle halves by odds (68 cards",
        "39 of 68",
        "A siege falls on 58 of 68 battle cards (85 %); Bad Weather on the other 10.",
        "Nobles named in death lists",
        "Summoned: Percy, Courtenay, Herbert, Mowbray, Talbot, the Admiral of England",
        "Embassies: the sole King to Calais, the Yorkist King to Dublin, the Lancastrian King to Berwick",
    ):
        assert text in shown.output, text
    checked = CliRunner().invoke(cli_app(), ["data", "check", str(MINIMAL)])
    assert checked.exit_code == 0 and checked.output.rstrip().endswith(", 12 event cards")
