"""The packaged "England 1455" data set: it checks clean, holds what the reference
lists, and survives a dump and reload unchanged."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kingmaker.data import DataSet, default_folder, dump_dataset, load_dataset, validate_folder
from kingmaker.data.dump import dataset_files
from kingmaker.rules.board import Board, Place, PlaceKind
from kingmaker.rules.cards import AwardKind
from kingmaker.rules.frozen import FrozenDict


@pytest.fixture(scope="module")
def ds() -> DataSet:
    return load_dataset()


def test_default_set_checks_clean() -> None:
    assert validate_folder() == []
    assert validate_folder(default_folder()) == []


def test_counts(ds: DataSet) -> None:
    onmap = [p for p in ds.board.places.values() if not p.offmap and p.kind.is_location]
    assert len(onmap) >= 70
    kinds = [a.kind for a in ds.catalog.awards.values()]
    assert len(ds.catalog.nobles) == 25
    assert kinds.count(AwardKind.TITLE) == 8
    assert kinds.count(AwardKind.OFFICE) == 14
    assert kinds.count(AwardKind.SEE) == 7  # six sees and the Bishop of Westminster
    assert kinds.count(AwardKind.TOWN) == 11
    # Eight heir cards: the ninth heir of the succession, Beaufort, is a noble card.
    assert len(ds.catalog.heirs) == 9
    assert len(ds.catalog.ships) >= 6
    assert ds.name == "England 1455" == ds.board.name


REFERENCE_PLACES = {
    "london": PlaceKind.CITY,
    "york": PlaceKind.CITY,
    "bristol": PlaceKind.CITY,
    "norwich": PlaceKind.CITY,
    "coventry": PlaceKind.TOWN,
    "kenilworth": PlaceKind.ROYAL_CASTLE,
    "fotheringhay": PlaceKind.ROYAL_CASTLE,
    "harlech": PlaceKind.ROYAL_CASTLE,
    "cardigan": PlaceKind.OPEN_TOWN,
    "calais": PlaceKind.OPEN_TOWN,
    "swansea": PlaceKind.OPEN_TOWN,
    "carisbrooke": PlaceKind.ROYAL_CASTLE,
    "dover": PlaceKind.ROYAL_CASTLE,
    "caernarvon": PlaceKind.ROYAL_CASTLE,
    "southampton": PlaceKind.TOWN,
    "helmsley": PlaceKind.CASTLE,
    "alnwick": PlaceKind.CASTLE,
    "tutbury": PlaceKind.CASTLE,
    "hedingham": PlaceKind.CASTLE,
}
REFERENCE_NAMED = [
    "dublin",
    "canterbury",
    "lincoln",
    "exeter",
    "salisbury",
    "st_davids",
    "wells",
    "ipswich",
    "lancaster",
    "leicester",
    "newcastle",
    "northampton",
    "nottingham",
    "shrewsbury",
    "rye",
    "beaumaris",
    "newport_iow",
    "newark",
    "oxford",
    "masham",
    "belvoir",
    "corfe",
    "castletown",
    "middleham",
    "raby",
    "sheriff_hutton",
    "warkworth",
    "framlingham",
    "stafford_castle",
    "tonbridge",
    "goodrich",
    "tiverton",
    "powderham",
    "arundel",
    "wingfield",
    "skipton",
    "bolton_castle",
    "greystoke_castle",
    "lathom",
    "raglan",
    "ashby_de_la_zouch",
    "heleigh",
    "berkeley_castle",
    "halstead",
    "tattershall",
    "ruthin",
    "dartington",
    "tendring_hall",
]


def test_every_place_the_reference_names(ds: DataSet) -> None:
    places = ds.board.places
    for pid, kind in REFERENCE_PLACES.items():
        assert places[pid].kind is kind, pid
    for pid in REFERENCE_NAMED:
        assert pid in places, pid
    for pid in (
        "london",
        "york",
        "canterbury",
        "lincoln",
        "exeter",
        "salisbury",
        "st_davids",
        "wells",
        "norwich",
        "durham",
        "carlisle",
    ):
        assert places[pid].cathedral, pid
    unfortified = [p for p in places.values() if p.kind is PlaceKind.UNFORTIFIED_TOWN]
    assert {"poole", "weymouth", "wells"} <= {p.id for p in unfortified}


def test_garrisons_and_capacities_by_kind(ds: DataSet) -> None:
    garrison = {
        "city": 300,
        "town": 200,
        "royal_castle": 200,
        "castle": 100,
        "unfortified_town": 0,
        "open_town": 0,
        "country": 0,
    }
    capacity = {
        "city": 600,
        "town": 400,
        "royal_castle": 400,
        "castle": 300,
        "unfortified_town": 300,
        "open_town": 300,
        "country": None,
    }
    for p in ds.board.places.values():
        assert p.garrison == garrison[p.kind.value], p.id
        assert p.capacity == capacity[p.kind.value], p.id


def test_true_coordinates(ds: DataSet) -> None:
    for p in ds.board.places.values():
        assert p.lon is not None and p.lat is not None, p.id
        if not p.offmap:  # England and Wales
            assert -5.8 < p.lon < 1.9 and 49.9 < p.lat < 55.9, p.id
    london = ds.board.places["london"]
    assert abs(london.lon - -0.1) < 0.05 and abs(london.lat - 51.51) < 0.05
    york = ds.board.places["york"]
    assert abs(york.lon - -1.08) < 0.05 and abs(york.lat - 53.96) < 0.05


def test_regions_nest(ds: DataSet) -> None:
    places = ds.board.places
    for p in places.values():
        if "tees" in p.regions:
            assert "trent" in p.regions, p.id
        if "conway" in p.regions:
            assert "wales" in p.regions, p.id
    assert "london" in places["london"].regions
    assert {"trent", "tees"} <= set(places["alnwick"].regions)
    assert {"wales", "conway"} <= set(places["caernarvon"].regions)
    assert "devon_cornwall" in places["exeter"].regions
    assert places["dublin"].regions == ("ireland",)
    assert places["calais"].regions == ("calais",)


def _land_reach(board: Board, start: str) -> set[str]:
    seen = {start}
    queue = deque(seen)
    while queue:
        for n in board.neighbours(queue.popleft()):
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return seen


def test_reachability(ds: DataSet) -> None:
    board = ds.board
    by_land = _land_reach(board, "london")
    islands = {"newport_iow", "carisbrooke"}  # the Isle of Wight: by sea only
    for p in board.places.values():
        if p.offmap:
            assert p.is_port and not board.neighbours(p.id), p.id
        elif p.id not in islands:
            assert p.id in by_land, p.id
    assert not islands & by_land
    assert board.places["newport_iow"].is_port
    # every sea zone is linked to the others, and every off-map port reached
    seas = set(board.seas)
    assert all(board.sea_neighbours(s) for s in seas)
    assert {"calais", "dublin", "castletown"} <= {p for s in seas for p in board.ports_of_sea[s]}


def test_roads(ds: DataSet) -> None:
    roads = {r.id: r.places for r in ds.board.roads}
    gnr = roads["great_north_road"]
    assert gnr[0] == "london" and gnr[-1] == "berwick" and "york" in gnr and "newcastle" in gnr
    assert roads["watling_street"][:4] == ("dover", "canterbury", "rochester", "london")
    assert roads["fosse_way"][0] == "exeter" and roads["fosse_way"][-1] == "lincoln"
    ermine = roads["ermine_street"]
    assert ermine[0] == "london" and ermine[-1] == "york" and "lincoln" in ermine
    assert "bristol" in roads["bath_road"] and "exeter" in roads["exeter_road"]
    assert roads["southampton_road"][-1] == "southampton"
    march = roads["march_road"]
    assert march[0] == "chester" and march[-1] == "st_davids"
    assert {"shrewsbury", "hereford", "carmarthen"} <= set(march)
    assert roads["north_wales_road"][-1] == "beaumaris"
    # every noble castle lies on a road or has a cross-country link
    for noble in ds.catalog.nobles.values():
        for castle in noble.castles:
            assert ds.board.neighbours(castle), castle


REFERENCE_NOBLES = {  # troops, pre-printed title, Lords votes, Commons votes (§3.1)
    "audley": (10, None, 1, 0),
    "beaufort": (30, "Duke of Somerset", 3, 2),
    "berkeley": (10, None, 1, 0),
    "bourchier": (10, None, 1, 0),
    "clifford": (10, None, 1, 0),
    "courtenay": (30, "Earl of Devonshire", 2, 1),
    "cromwell": (10, None, 1, 0),
    "fitzalan": (30, "Earl of Arundel", 2, 1),
    "grey": (20, None, 1, 0),
    "greystoke": (10, None, 1, 0),
    "hastings": (10, None, 1, 0),
    "herbert": (10, None, 1, 0),
    "holland": (20, None, 1, 0),
    "howard": (10, None, 1, 0),
    "mowbray": (50, "Duke of Norfolk", 4, 2),
    "neville": (50, "Earl of Warwick", 4, 3),
    "percy": (100, "Earl of Northumberland", 3, 2),
    "pole": (30, "Duke of Suffolk", 2, 1),
    "roos": (20, None, 1, 0),
    "scrope": (10, None, 1, 0),
    "stafford": (30, "Duke of Buckingham", 2, 1),
    "stanley": (50, None, 2, 0),
    "talbot": (30, "Earl of Shrewsbury", 2, 1),
    "plantagenet_lancaster": (30, "Duke of Lancaster", 0, 0),
    "plantagenet_york": (50, "Duke of York", 0, 0),
}


def test_nobles_as_the_reference(ds: DataSet) -> None:
    nobles = ds.catalog.nobles
    assert set(nobles) == set(REFERENCE_NOBLES)
    for nid, (troops, title, lords, commons) in REFERENCE_NOBLES.items():
        n = nobles[nid]
        assert (n.troops, n.title, n.lords_votes, n.commons_votes) == (troops, title, lords, commons)
        assert n.castles, nid
        for c in n.castles:
            assert ds.board.places[c].kind is PlaceKind.CASTLE
    assert nobles["percy"].castles[:2] == ("alnwick", "warkworth")
    assert {"helmsley", "belvoir"} <= set(nobles["roos"].castles)
    assert "corfe" in nobles["beaufort"].castles
    in_play = [n for n in nobles.values() if n.id not in ds.catalog.removed]
    assert len(in_play) == 23
    # Lords: 20 for the senior heirs + 39 nobles + 23 clergy = 82 (reference §5.8)
    clergy = sum(
        a.lords_votes
        for a in ds.catalog.awards.values()
        if a.kind is AwardKind.SEE and a.id not in ds.catalog.removed
    )
    assert sum(n.lords_votes for n in in_play) == 39 and clergy == 23


def test_awards_as_the_reference(ds: DataSet) -> None:
    a = ds.catalog.awards
    titles = {
        "earl_of_kent": 30,
        "earl_of_westmorland": 40,
        "earl_of_essex": 20,
        "earl_of_richmond": 40,
        "earl_of_worcester": 30,
        "earl_of_wiltshire": 30,
        "duke_of_exeter": 20,
        "earl_of_salisbury": 30,
    }
    for tid, troops in titles.items():
        assert (a[tid].kind, a[tid].troops, a[tid].commons_votes) == (AwardKind.TITLE, troops, 1)
    assert a["marshal_of_england"].troops == 100
    assert a["constable_of_the_tower"].regional == (("london", 200),)
    assert a["captain_of_calais"].regional == (("calais", 300),)
    assert a["chamberlain_of_chester"].regional == (("wales", 200),)
    assert a["warden_of_the_northern_marches"].regional == (("tees", 100),)
    assert a["chancellor_of_england"].places == ("caernarvon",)
    assert a["constable_of_dover_castle"].places == ("dover",)
    assert a["warden_of_the_cinque_ports"].commons_votes == 5
    assert a["archbishop_of_york"].regional == (("trent", 30),)
    assert a["archbishop_of_canterbury"].lords_votes == 7
    assert ds.setup.see_seniority[:5] == (
        "archbishop_of_canterbury",
        "archbishop_of_york",
        "bishop_of_westminster",
        "bishop_of_durham",
        "bishop_of_carlisle",
    )
    assert ds.setup.see_seniority[5:] == ("bishop_of_lincoln", "bishop_of_norwich")
    for mid, copies in {
        "burgundian_crossbowmen": 2,
        "flemish_crossbowmen": 2,
        "saxons": 2,
        "scots_archers": 2,
        "french_foot_soldiers": 1,
    }.items():
        assert a[mid].copies == copies
    assert a["city_of_bristol"].places == ("bristol",) and a["city_of_bristol"].commons_votes == 4
    for town in (
        "coventry",
        "ipswich",
        "lancaster",
        "leicester",
        "newcastle",
        "northampton",
        "nottingham",
        "shrewsbury",
    ):
        card = a[f"town_of_{town}"]
        assert card.places == (town,) and card.commons_votes == 3
    assert a["castle_of_carisbrooke"].places == ("carisbrooke",)
    assert a["town_of_swansea"].places == ()  # Swansea is an open town: no one controls it


def test_ships_and_heirs(ds: DataSet) -> None:
    ships = ds.catalog.ships
    assert ships["le_maudeleyn"].capacity == 150 and ships["le_maudeleyn"].home_port == "newport_iow"
    assert "grace_dieu" in ships
    for s in ships.values():
        assert s.home_port is not None and ds.board.places[s.home_port].is_port
        assert 100 <= s.capacity <= 300
    starts = {h.id: (h.house, h.order, h.start) for h in ds.catalog.heirs.values()}
    assert starts == {
        "henry_vi": ("lancaster", 1, "london"),
        "margaret_of_anjou": ("lancaster", 2, "coventry"),
        "edward_prince_of_wales": ("lancaster", 3, "kenilworth"),
        "richard_duke_of_york": ("york", 1, "york"),
        "edward_earl_of_march": ("york", 2, "harlech"),
        "edmund_earl_of_rutland": ("york", 3, "dublin"),
        "george_duke_of_clarence": ("york", 4, "cardigan"),
        "richard_duke_of_gloucester": ("york", 5, "calais"),
        "beaufort_duke_of_somerset": ("lancaster", 4, None),
    }
    assert ds.setup.crowned == ("henry_vi",)


def test_setup(ds: DataSet) -> None:
    st_ = ds.setup
    assert (st_.min_factions, st_.max_factions) == (2, 6)
    assert st_.min_event_cards == 60 <= len(ds.catalog.events)
    assert len(st_.factions) == 6 and len({f.id for f in st_.factions}) == 6
    assert set(st_.removed) == {
        "plantagenet_lancaster",
        "plantagenet_york",
        "french_foot_soldiers",
        "scottish_foot_soldiers",
        "irish_kerns",
        "kings_pardon",
        "bishop_of_westminster",
    }
    assert ds.catalog.removed == st_.removed
    assert st_.faction_ids(3) == ("red", "blue", "green")
    with pytest.raises(ValueError):
        st_.faction_ids(7)


def test_ids_unique_across_tables(ds: DataSet) -> None:
    c = ds.catalog
    tables = [ds.board.places, ds.board.seas, c.nobles, c.awards, c.ships, c.heirs, c.events]
    ids = [i for t in tables for i in t]
    assert len(ids) == len(set(ids))


def test_dump_load_round_trip(ds: DataSet, tmp_path: Path) -> None:
    folder = dump_dataset(ds, tmp_path / "copy")
    again = load_dataset(folder)
    assert again == ds
    assert again.board == ds.board and again.catalog == ds.catalog
    # and writing the reloaded set gives the same text
    assert dataset_files(again) == dataset_files(ds)
    # and the same game: a new game from either set has the same state hash
    from kingmaker.rules.deal import new_game
    from kingmaker.rules.hashing import state_hash

    def game(d: DataSet) -> str:
        return state_hash(new_game(d.board, d.catalog, ("red", "blue", "green"), "same", removed=d.setup.removed))

    assert game(again) == game(ds)


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_reloading_is_stable(ds: DataSet, tmp_path: Path, rounds: int) -> None:
    current = ds
    for i in range(rounds):
        current = load_dataset(dump_dataset(current, tmp_path / f"r{i}"))
    assert current == ds


# any name a data set may hold (docs/limits.md): one line, no control or format character
names = st.text(st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp")), max_size=30)
coords = st.floats(allow_nan=False, allow_infinity=False, width=64)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=names,
    london=names,
    capacity=st.integers(0, 10**9),
    lon=coords,
    lat=coords,
    cathedral=st.booleans(),
    ship=names,
    title=st.none() | names,
)
def test_round_trip_any_text_and_numbers(
    ds: DataSet,
    tmp_path_factory: pytest.TempPathFactory,
    name: str,
    london: str,
    capacity: int,
    lon: float,
    lat: float,
    cathedral: bool,
    ship: str,
    title: str | None,
) -> None:
    """Names with quotes, backslashes or any Unicode a name may hold, and any finite
    coordinates, come back unchanged."""
    b, c = ds.board, ds.catalog
    place = b.places["london"]
    new_place = Place(
        place.id,
        london,
        place.kind,
        capacity,
        place.garrison,
        cathedral,
        place.regions,
        place.seas,
        lon,
        lat,
        place.offmap,
    )
    board = Board(name, b.places.set("london", new_place), b.seas, b.roads, b.adjacent)
    percy = c.nobles["percy"]
    nobles = c.nobles.set(
        "percy",
        type(percy)(
            percy.id, percy.name, percy.troops, title, percy.castles, percy.lords_votes, percy.commons_votes
        ),
    )
    gd = c.ships["grace_dieu"]
    ships = c.ships.set("grace_dieu", type(gd)(gd.id, ship, gd.capacity, gd.home_port))
    catalog = type(c)(nobles, c.awards, FrozenDict(ships), c.heirs, c.removed, c.events, votes=c.votes)
    setup = type(ds.setup)(
        name, ds.setup.factions, 2, 6, 7, ds.setup.removed, ds.setup.crowned, ds.setup.see_seniority, 60
    )
    changed = DataSet(board, catalog, setup)
    folder = tmp_path_factory.mktemp("rt")
    assert load_dataset(dump_dataset(changed, folder)) == changed
